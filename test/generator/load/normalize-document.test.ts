import { describe, expect, it } from 'vitest';
import { readUpstreamDocument } from '../../../generator/load/read-document.js';
import { normalizeUpstreamDocument } from '../../../generator/load/normalize-document.js';
import { buildReleaseIr, rootGroupVersionIr } from '../../../generator/ir/build-release-ir.js';
import { renderModelTables, renderOperationTables } from '../../../generator/ir/render-tables.js';
import { contentHash } from '../../../generator/load/canonical-json.js';
import { manifestReleases, releaseDocument, upstreamSwagger, V3_SNAPSHOT } from '../../helpers/project.js';
import { LEASE_TARGET } from '../../../generator/config.js';

describe('ingest of both upstream forms', () => {
  it('the per-group OpenAPI v3 snapshot and v1.30.0 swagger.json give the same tables and Lease models', async () => {
    const fromSwagger = await normalizeUpstreamDocument(
      await readUpstreamDocument(upstreamSwagger('1.30.0')),
      '1.30.0',
      LEASE_TARGET,
    );
    const fromV3 = await normalizeUpstreamDocument(await readUpstreamDocument(V3_SNAPSHOT), '1.30.0', LEASE_TARGET);
    const a = buildReleaseIr('1.30.0', fromSwagger.document, 'swagger.json', LEASE_TARGET);
    const b = buildReleaseIr('1.30.0', fromV3.document, 'v3.json', LEASE_TARGET);
    expect(renderOperationTables(b)).toBe(renderOperationTables(a));
    const leaseModels = (ir: typeof a): unknown =>
      rootGroupVersionIr(ir).models.filter((m) => m.name.startsWith('Lease'));
    expect(leaseModels(b)).toEqual(leaseModels(a));
    expect(renderModelTables(b)).toBe(renderModelTables(a));
    // The normal form absorbs every difference the snapshot's README lists (defaults, allOf wrappers, GVK lists).
    expect(fromV3.contentHash).toBe(fromSwagger.contentHash);
  });

  it.each(manifestReleases().map((r) => [r.release, r.contentHash] as const))(
    'ingest of the committed upstream fixture for %s gives the content hash spec/releases.json records, as the whole upstream document does',
    async (release, hash) => {
      const normalized = await normalizeUpstreamDocument(
        await readUpstreamDocument(upstreamSwagger(release)),
        release,
        LEASE_TARGET,
      );
      expect(normalized.contentHash).toBe(hash);
      expect(contentHash(releaseDocument(release))).toBe(hash);
    },
  );

  it("extracts only the coordination.k8s.io group's versioned paths and every schema they reach", () => {
    const document = releaseDocument('1.35.0') as {
      paths: Record<string, unknown>;
      components: { schemas: Record<string, unknown> };
    };
    const versions = ['v1', 'v1alpha2', 'v1beta1'];
    expect(
      Object.keys(document.paths).every((p) => versions.some((v) => p.startsWith(`/apis/coordination.k8s.io/${v}/`))),
    ).toBe(true);
    // 7 per version (discovery, two collections, one object, three deprecated watch paths); not the group's own /apis/coordination.k8s.io/.
    expect(Object.keys(document.paths)).toHaveLength(21);
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining([
        'io.k8s.api.coordination.v1.Lease',
        'io.k8s.api.coordination.v1.LeaseList',
        'io.k8s.api.coordination.v1.LeaseSpec',
        'io.k8s.api.coordination.v1beta1.LeaseCandidate',
        'io.k8s.api.coordination.v1alpha2.LeaseCandidateSpec',
        'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
        'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta',
        'io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference',
        'io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry',
        'io.k8s.apimachinery.pkg.apis.meta.v1.Status',
        'io.k8s.apimachinery.pkg.apis.meta.v1.StatusDetails',
        'io.k8s.apimachinery.pkg.apis.meta.v1.StatusCause',
        'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions',
        'io.k8s.apimachinery.pkg.apis.meta.v1.Preconditions',
        'io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent',
        'io.k8s.apimachinery.pkg.apis.meta.v1.Patch',
        'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime',
        'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      ]),
    );
    expect(Object.keys(document.components.schemas).some((s) => s.includes('.core.v1.'))).toBe(false);
  });
});
