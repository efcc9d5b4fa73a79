// Copied by lease-api-generator from templates/server/candidates/semver.ts. DO NOT EDIT: edit that file and run `npm run generate`.
// The subset of github.com/blang/semver/v4 kube-apiserver uses for LeaseCandidates: Parse (validation,
// with its error messages), ParseTolerant (the election) and Compare.
import type { Result } from '../result.js';
import { err, ok } from '../result.js';

export interface Semver {
  major: number;
  minor: number;
  patch: number;
  pre: string[];
  /** -1, 0 or 1, as Version.Compare. */
  compare(other: Semver): number;
}

const DIGITS = /^[0-9]+$/;
const IDENTIFIER = /^[0-9A-Za-z-]+$/;

function part(text: string, what: string): Result<number, string> {
  if (!DIGITS.test(text)) return err(`Invalid character(s) found in ${what} number ${JSON.stringify(text)}`);
  if (text.length > 1 && text.startsWith('0')) return err(`${what[0]?.toUpperCase()}${what.slice(1)} number must not contain leading zeroes ${JSON.stringify(text)}`);
  return ok(Number(text));
}

function comparePre(a: string[], b: string[]): number {
  // A version without pre-release identifiers is the greater one (1.0.0-alpha < 1.0.0).
  if (a.length === 0 || b.length === 0) return a.length === b.length ? 0 : a.length === 0 ? 1 : -1;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i] ?? '';
    const y = b[i] ?? '';
    if (x === y) continue;
    const xn = DIGITS.test(x);
    const yn = DIGITS.test(y);
    if (xn && yn) return Number(x) < Number(y) ? -1 : 1;
    if (xn !== yn) return xn ? -1 : 1;
    return x < y ? -1 : 1;
  }
  return Math.sign(a.length - b.length);
}

function version(major: number, minor: number, patch: number, pre: string[]): Semver {
  const self: Semver = {
    major,
    minor,
    patch,
    pre,
    compare(other) {
      for (const [x, y] of [[major, other.major], [minor, other.minor], [patch, other.patch]] as const) if (x !== y) return x < y ? -1 : 1;
      return comparePre(pre, other.pre);
    },
  };
  return self;
}

/** semver.Parse: strict MAJOR.MINOR.PATCH[-PRE][+BUILD]; the error is blang's message. */
export function parseSemver(text: string): Result<Semver, string> {
  if (text === '') return err('Version string empty');
  const parts = text.split('.');
  if (parts.length < 3) return err('No Major.Minor.Patch elements found');
  const [majorText = '', minorText = '', ...rest] = parts;
  const tail = rest.join('.');
  const major = part(majorText, 'major');
  if (!major.ok) return major;
  const minor = part(minorText, 'minor');
  if (!minor.ok) return minor;
  const cut = tail.search(/[-+]/);
  const patchText = cut < 0 ? tail : tail.slice(0, cut);
  const patch = part(patchText, 'patch');
  if (!patch.ok) return patch;
  let pre: string[] = [];
  if (cut >= 0 && tail[cut] === '-') {
    const plus = tail.indexOf('+', cut);
    pre = tail.slice(cut + 1, plus < 0 ? undefined : plus).split('.');
    const bad = pre.find((id) => !IDENTIFIER.test(id));
    if (bad !== undefined) return err(`Invalid character(s) found in prerelease ${JSON.stringify(bad)}`);
  }
  return ok(version(major.value, minor.value, patch.value, pre));
}

/** semver.ParseTolerant: a leading "v" and a missing patch (or minor) are accepted. */
export function parseSemverTolerant(text: string): Result<Semver, string> {
  const trimmed = text.trim().replace(/^v/, '');
  const core = trimmed.split(/[-+]/, 1)[0] ?? '';
  const missing = 3 - core.split('.').length;
  const padded = missing > 0 ? `${core}${'.0'.repeat(missing)}${trimmed.slice(core.length)}` : trimmed;
  return parseSemver(padded);
}
