import { GeneratorError } from '../errors.js';

/** Folder of a release's modules in the package: `1.35.0` → `v1_35` (clusters are matched by minor version). */
export function releaseModuleName(release: string): string {
  const [major, minor] = release.split('.');
  return `v${major}_${minor}`;
}

/** Package subpath of a release: `1.35.0` → `./v1.35`. */
export function releaseSubpath(release: string): string {
  const [major, minor] = release.split('.');
  return `./v${major}.${minor}`;
}

export function compareReleases(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * X.Y.Z with canonical decimal numbers, as Kubernetes tags its releases (and as semver 2.0 §2 demands:
 * no leading zeros), so that one release has one spelling: `01.35.0` would otherwise become a second
 * module `v01_35` beside `v1_35`. Six digits per number keep the numeric comparison exact.
 */
export const RELEASE_PATTERN = /^(?:0|[1-9]\d{0,5})\.(?:0|[1-9]\d{0,5})\.(?:0|[1-9]\d{0,5})$/;

/** A usage error unless `release` is a canonical X.Y.Z. */
export function checkRelease(release: string): void {
  if (!RELEASE_PATTERN.test(release)) {
    throw new GeneratorError(
      'usage',
      `--release must look like 1.35.0 (X.Y.Z, decimal numbers without leading zeros), got ${JSON.stringify(release)}`,
    );
  }
}
