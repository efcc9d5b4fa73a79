// The subset of github.com/blang/semver/v4 kube-apiserver uses for LeaseCandidates: Parse (validation,
// with its error messages), ParseTolerant (the election) and Compare. Numbers are uint64 there: bigint
// here, so that 2^53 + 1 is not 2^53 and 2^64 does not parse.
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import { splitN } from '../go-strings.js';

/** A pre-release identifier: numeric ones compare as numbers and before alphanumeric ones (PRVersion). */
export type PreRelease = bigint | string;

export interface Semver {
  major: bigint;
  minor: bigint;
  patch: bigint;
  pre: PreRelease[];
  /** -1, 0 or 1, as Version.Compare (build metadata is ignored). */
  compare(other: Semver): number;
}

const DIGITS = /^[0-9]*$/;
const ALPHANUM = /^[0-9A-Za-z-]*$/;
const UINT64_MAX = (1n << 64n) - 1n;

/** strconv.ParseUint(text, 10, 64) on a string of digits. */
function parseUint64(text: string): Result<bigint, string> {
  if (text === '') return err('strconv.ParseUint: parsing "": invalid syntax');
  const value = BigInt(text);
  return value > UINT64_MAX ? err(`strconv.ParseUint: parsing ${JSON.stringify(text)}: value out of range`) : ok(value);
}

/** Major, minor and patch: digits only, no leading zero, within uint64. */
function part(text: string, what: 'major' | 'minor' | 'patch'): Result<bigint, string> {
  if (!DIGITS.test(text)) return err(`Invalid character(s) found in ${what} number ${JSON.stringify(text)}`);
  if (text.length > 1 && text.startsWith('0'))
    return err(
      `${what[0]?.toUpperCase()}${what.slice(1)} number must not contain leading zeroes ${JSON.stringify(text)}`,
    );
  return parseUint64(text);
}

/** NewPRVersion. */
function preRelease(text: string): Result<PreRelease, string> {
  if (text === '') return err('Prerelease is empty');
  if (DIGITS.test(text)) {
    if (text.length > 1 && text.startsWith('0'))
      return err(`Numeric PreRelease version must not contain leading zeroes ${JSON.stringify(text)}`);
    return parseUint64(text);
  }
  return ALPHANUM.test(text) ? ok(text) : err(`Invalid character(s) found in prerelease ${JSON.stringify(text)}`);
}

function compareIdentifiers(x: PreRelease, y: PreRelease): number {
  if (typeof x === typeof y) return x === y ? 0 : x < y ? -1 : 1;
  return typeof x === 'bigint' ? -1 : 1;
}

function comparePre(a: readonly PreRelease[], b: readonly PreRelease[]): number {
  // A version without pre-release identifiers is the greater one (1.0.0-alpha < 1.0.0).
  if (a.length === 0 || b.length === 0) return a.length === b.length ? 0 : a.length === 0 ? 1 : -1;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const order = compareIdentifiers(a[i] ?? '', b[i] ?? '');
    if (order !== 0) return order;
  }
  return Math.sign(a.length - b.length);
}

function version(major: bigint, minor: bigint, patch: bigint, pre: PreRelease[]): Semver {
  return {
    major,
    minor,
    patch,
    pre,
    compare(other) {
      for (const [x, y] of [
        [major, other.major],
        [minor, other.minor],
        [patch, other.patch],
      ] as const)
        if (x !== y) return x < y ? -1 : 1;
      return comparePre(pre, other.pre);
    },
  };
}

/** semver.Version{}: what kube-apiserver compares an empty or unparsable version as. */
export const ZERO_VERSION: Semver = version(0n, 0n, 0n, []);

/** semver.Parse: strict MAJOR.MINOR.PATCH[-PRE][+BUILD]; the error is blang's message. */
export function parseSemver(text: string): Result<Semver, string> {
  if (text === '') return err('Version string empty');
  // strings.SplitN(s, ".", 3): the third part keeps its dots (pre-release and build identifiers).
  const first = text.indexOf('.');
  const second = first < 0 ? -1 : text.indexOf('.', first + 1);
  if (second < 0) return err('No Major.Minor.Patch elements found');
  const major = part(text.slice(0, first), 'major');
  if (!major.ok) return major;
  const minor = part(text.slice(first + 1, second), 'minor');
  if (!minor.ok) return minor;
  let rest = text.slice(second + 1);
  // Build metadata is cut at the first '+', then the pre-release at the first '-' of what is left.
  const plus = rest.indexOf('+');
  const build = plus < 0 ? [] : rest.slice(plus + 1).split('.');
  if (plus >= 0) rest = rest.slice(0, plus);
  const dash = rest.indexOf('-');
  const preTexts = dash < 0 ? [] : rest.slice(dash + 1).split('.');
  const patch = part(dash < 0 ? rest : rest.slice(0, dash), 'patch');
  if (!patch.ok) return patch;
  const pre: PreRelease[] = [];
  for (const id of preTexts) {
    const parsed = preRelease(id);
    if (!parsed.ok) return parsed;
    pre.push(parsed.value);
  }
  for (const id of build) {
    if (id === '') return err('Build meta data is empty');
    if (!ALPHANUM.test(id)) return err(`Invalid character(s) found in build meta data ${JSON.stringify(id)}`);
  }
  return ok(version(major.value, minor.value, patch.value, pre));
}

/** semver.ParseTolerant: surrounding space, a leading "v", leading zeroes and a missing minor or patch are accepted. */
export function parseSemverTolerant(text: string): Result<Semver, string> {
  const trimmed = text.trim().replace(/^v/, '');
  const parts = splitN(trimmed, '.', 3).map((p) => {
    if (p.length <= 1) return p;
    const stripped = p.replace(/^0+/, '');
    return /^[0-9]/.test(stripped) ? stripped : `0${stripped}`;
  });
  if (parts.length < 3) {
    if (/[+-]/.test(parts[parts.length - 1] ?? ''))
      return err('Short version cannot contain PreRelease/Build meta data');
    while (parts.length < 3) parts.push('0');
  }
  return parseSemver(parts.join('.'));
}
