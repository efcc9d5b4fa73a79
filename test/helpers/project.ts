import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LEASE_TARGET, PROJECT_ROOT } from '../../generator/config.js';
import { buildReleaseIr, rootGroupVersionIr } from '../../generator/ir/build-release-ir.js';
import type { GroupVersionIr, ReleaseIr } from '../../generator/ir/types.js';

export { PROJECT_ROOT };
/**
 * Committed coordination.k8s.io subsets of upstream's documents, in the layout `spec:update --from` reads
 * (made by `npm run fixtures:update`), so tests need nothing outside the repository.
 */
export const UPSTREAM_FIXTURES = join(PROJECT_ROOT, 'test', 'fixtures', 'upstream');
export const V3_SNAPSHOT = join(
  UPSTREAM_FIXTURES,
  'kubernetes-v3-snapshots',
  'between-v1.30-and-v1.31',
  'apis__coordination.k8s.io__v1_openapi.json',
);

export interface ManifestRelease {
  release: string;
  document: string;
  contentHash: string;
}

export function manifestReleases(): ManifestRelease[] {
  const manifest = JSON.parse(readFileSync(join(PROJECT_ROOT, 'spec', 'releases.json'), 'utf8')) as {
    releases: ManifestRelease[];
  };
  return manifest.releases;
}

export function releaseDocument(release: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(PROJECT_ROOT, 'spec', 'openapi', `v${release}.json`), 'utf8')) as Record<
    string,
    unknown
  >;
}

export function releaseIr(release: string): ReleaseIr {
  return buildReleaseIr(release, releaseDocument(release), `spec/openapi/v${release}.json`, LEASE_TARGET);
}

/** The Lease API (coordination.k8s.io/v1) of a release's IR. */
export function leaseIr(release: string): GroupVersionIr {
  return rootGroupVersionIr(releaseIr(release));
}

/** The release's swagger.json cut down to the coordination.k8s.io group; it ingests exactly like the whole document. */
export function upstreamSwagger(release: string): string {
  return join(UPSTREAM_FIXTURES, 'kubernetes', `v${release}`, 'swagger.json');
}
