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

export const RELEASE_PATTERN = /^\d+\.\d+\.\d+$/;
