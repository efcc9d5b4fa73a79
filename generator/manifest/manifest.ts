import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GeneratorError } from '../errors.js';
import { isJsonObject, parseJsonFile } from '../shared/json.js';
import { compareReleases, RELEASE_PATTERN } from '../shared/release-names.js';

export interface ReleaseEntry {
  readonly release: string;
  /** Path of the normalised document, relative to the spec directory. */
  readonly document: string;
  /** sha256 of the canonical JSON of the normalised document. */
  readonly contentHash: string;
  /** Where spec:update downloads the release's document when given neither --from nor --spec. */
  readonly upstream: { readonly swagger: string };
}

/** The group and versions are not recorded: they are the generation target's (LEASE_TARGET in config.ts). */
export interface ReleaseManifest {
  /**
   * The generated packages' semver version (the three move in lockstep). spec:update bumps it: a minor for
   * a new release, a patch for a refreshed one whose content changed. Absent: PACKAGE_VERSION.
   */
  readonly packageVersion?: string;
  readonly releases: readonly ReleaseEntry[];
}

export const MANIFEST_FILE = 'releases.json';

export function upstreamUrls(release: string): ReleaseEntry['upstream'] {
  const base = `https://raw.githubusercontent.com/kubernetes/kubernetes/v${release}/api/openapi-spec`;
  return { swagger: `${base}/swagger.json` };
}

export function documentPathFor(release: string): string {
  return `openapi/v${release}.json`;
}

export async function readManifest(specDir: string): Promise<ReleaseManifest> {
  const file = join(specDir, MANIFEST_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return { releases: [] };
    throw new GeneratorError('io', `cannot read: ${String(cause)}`, { file });
  }
  const parsed = parseJsonFile(file, text);
  if (!isJsonObject(parsed) || !Array.isArray(parsed['releases']))
    throw new GeneratorError('usage', 'manifest has no "releases" array', { file, pointer: '/releases' });
  const releases = parsed['releases'].map((entry, index): ReleaseEntry => {
    const pointer = `/releases/${index}`;
    if (!isJsonObject(entry) || typeof entry['release'] !== 'string' || !RELEASE_PATTERN.test(entry['release'])) {
      throw new GeneratorError('usage', 'entry needs a "release" like "1.35.0"', { file, pointer });
    }
    if (typeof entry['document'] !== 'string' || typeof entry['contentHash'] !== 'string') {
      throw new GeneratorError('usage', 'entry needs "document" and "contentHash"', { file, pointer });
    }
    const upstream = isJsonObject(entry['upstream']) ? entry['upstream'] : {};
    const defaults = upstreamUrls(entry['release']);
    return {
      release: entry['release'],
      document: entry['document'],
      contentHash: entry['contentHash'],
      upstream: { swagger: typeof upstream['swagger'] === 'string' ? upstream['swagger'] : defaults.swagger },
    };
  });
  const packageVersion = parsed['packageVersion'];
  if (packageVersion !== undefined && (typeof packageVersion !== 'string' || !RELEASE_PATTERN.test(packageVersion))) {
    throw new GeneratorError('usage', '"packageVersion" must be a version like "0.2.0"', {
      file,
      pointer: '/packageVersion',
    });
  }
  return {
    ...(packageVersion !== undefined ? { packageVersion } : {}),
    releases: [...releases].sort((a, b) => compareReleases(a.release, b.release)),
  };
}

export function withRelease(manifest: ReleaseManifest, entry: ReleaseEntry): ReleaseManifest {
  const releases = manifest.releases.filter((r) => r.release !== entry.release);
  return { ...manifest, releases: [...releases, entry].sort((a, b) => compareReleases(a.release, b.release)) };
}

/** The semver bump CONTRIBUTING.md promises (Versions): a new Kubernetes release is a minor, a refreshed one a patch. */
export function bumpVersion(version: string, bump: 'minor' | 'patch'): string {
  const [major = 0, minor = 0, patch = 0] = version.split('.').map(Number);
  return bump === 'minor' ? `${major}.${minor + 1}.0` : `${major}.${minor}.${patch + 1}`;
}

/** One key order whatever order the manifest was built in, so rewriting an unchanged manifest changes no byte. */
export function serializeManifest(manifest: ReleaseManifest): string {
  const ordered = {
    releases: manifest.releases,
    ...(manifest.packageVersion !== undefined ? { packageVersion: manifest.packageVersion } : {}),
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}
