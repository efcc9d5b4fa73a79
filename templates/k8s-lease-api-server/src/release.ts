// Which Kubernetes release the server behaves as: one whose OpenAPI document the package ships
// (a release of a packaged minor maps to the packaged one), or any well-formed release when the caller
// brings its own document (or, running from source, when nothing is packaged).
import type { Result } from './result.js';
import { err, ok } from './result.js';

const RELEASE_PATTERN = /^v?(\d{1,4})\.(\d{1,4})(?:\.(\d{1,4}))?$/;

const minorOf = (release: string): string => release.split('.').slice(0, 2).join('.');

/** The minor of a 1.x release (`1.33.1`, `v1.33`) for the per-release schedules; NaN for anything else. */
export function releaseMinor(release: string): number {
  return Number(/^v?1\.(\d+)/.exec(release)?.[1] ?? Number.NaN);
}

/** `1.31`, `v1.31.4` or `1.31.4` → the release reported by /version; the error is one line for the CLI. */
export function resolveRelease(
  requested: string,
  packaged: readonly string[],
  ownDocument: boolean,
): Result<string, string> {
  const match = RELEASE_PATTERN.exec(requested);
  const known = packaged.length === 0 ? '' : `; packaged releases: ${packaged.join(', ')}`;
  if (match === null)
    return err(`release ${JSON.stringify(requested)} is not a Kubernetes release like 1.31 or 1.31.4${known}`);
  const [, major = '', minor = '', patch = '0'] = match;
  const normalised = `${Number(major)}.${Number(minor)}.${Number(patch)}`;
  if (ownDocument || packaged.length === 0) return ok(normalised);
  const found = packaged.find((r) => r === normalised) ?? packaged.find((r) => minorOf(r) === minorOf(normalised));
  return found === undefined ? err(`release ${JSON.stringify(requested)} is not packaged${known}`) : ok(found);
}
