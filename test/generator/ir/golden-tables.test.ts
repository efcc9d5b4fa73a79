import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderModelTables, renderOperationTables } from '../../../generator/ir/render-tables.js';
import { leaseIr, manifestReleases, PROJECT_ROOT, releaseIr } from '../../helpers/project.js';

/**
 * Golden files of the tables the IR holds, one pair per release. They change
 * only on purpose: `npm run test:update-golden` rewrites them, and the diff is
 * reviewed like any other change.
 */
const GOLDEN_DIR = join(PROJECT_ROOT, 'test', 'golden');
const UPDATE = process.env['UPDATE_GOLDEN'] === '1';

function checkGolden(name: string, actual: string): void {
  const file = join(GOLDEN_DIR, name);
  if (UPDATE) {
    mkdirSync(GOLDEN_DIR, { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  expect(existsSync(file), `${name} is missing; run npm run test:update-golden`).toBe(true);
  expect(
    actual,
    `${name} differs from the generator's output; if the change is intended run npm run test:update-golden and review the diff`,
  ).toBe(readFileSync(file, 'utf8'));
}

describe.each(manifestReleases().map((r) => r.release))('IR tables of %s', (release) => {
  const ir = releaseIr(release);
  const lease = leaseIr(release);

  it('match the golden operation tables', () => {
    checkGolden(`v${release}.operations.md`, renderOperationTables(ir));
  });

  it('match the golden model tables', () => {
    checkGolden(`v${release}.models.md`, renderModelTables(ir));
  });

  it('hold LeaseCandidate, with the same operation kinds, in each version the release serves', () => {
    // Kubernetes served LeaseCandidate as v1alpha1 in 1.31, v1alpha2 from 1.32, v1beta1 (beside v1alpha2) from 1.33.
    const minor = Number(release.split('.')[1]);
    const expected = minor < 31 ? [] : minor < 33 ? ['v1alpha1'] : ['v1beta1', 'v1alpha2'];
    const candidates = ir.groupVersions.filter((gv) => gv.version !== 'v1');
    expect(candidates.map((gv) => gv.version)).toEqual(expected);
    for (const gv of candidates) {
      expect(gv.operations.map((o) => o.kind).sort()).toEqual(lease.operations.map((o) => o.kind).sort());
      const read = gv.operations.find((o) => o.kind === 'read')!;
      expect(read).toMatchObject({
        name: 'readNamespacedLeaseCandidate',
        operationId: `readCoordination${gv.version.charAt(0).toUpperCase()}${gv.version.slice(1)}NamespacedLeaseCandidate`,
        path: `/apis/coordination.k8s.io/${gv.version}/namespaces/{namespace}/leasecandidates/{name}`,
      });
      expect(read.responses[0]?.type).toEqual({ kind: 'model', name: 'LeaseCandidate' });
      const spec = gv.models.find((m) => m.name === 'LeaseCandidateSpec')!;
      expect(spec.schemaName).toBe(`io.k8s.api.coordination.${gv.version}.LeaseCandidateSpec`);
      const fields =
        spec.shape.kind === 'object' ? spec.shape.properties.filter((p) => p.required).map((p) => p.name) : [];
      // v1alpha1 required preferredStrategies; v1alpha2 and v1beta1 require one strategy and the binary version.
      expect(fields).toEqual(
        gv.version === 'v1alpha1' ? ['leaseName', 'preferredStrategies'] : ['binaryVersion', 'leaseName', 'strategy'],
      );
      // No Lease models leak into a LeaseCandidate version, and shared meta types are there.
      expect(gv.models.map((m) => m.name)).not.toContain('LeaseSpec');
      expect(gv.models.map((m) => m.name)).toEqual(
        expect.arrayContaining(['LeaseCandidate', 'LeaseCandidateList', 'ObjectMeta', 'Status', 'DeleteOptions']),
      );
    }
  });

  it('hold every Lease operation the reference pages list, with its action', () => {
    const byKind = Object.fromEntries(lease.operations.map((o) => [o.kind, o]));
    expect(Object.keys(byKind).sort()).toEqual(
      [
        'create',
        'delete',
        'deleteCollection',
        'getAPIResources',
        'list',
        'listForAllNamespaces',
        'patch',
        'read',
        'replace',
        'watch',
        'watchList',
        'watchListForAllNamespaces',
      ].sort(),
    );
    expect(byKind['read']).toMatchObject({
      action: 'get',
      method: 'GET',
      path: '/apis/coordination.k8s.io/v1/namespaces/{namespace}/leases/{name}',
    });
    expect(byKind['create']).toMatchObject({ action: 'post', method: 'POST' });
    expect(byKind['replace']).toMatchObject({ action: 'put', method: 'PUT' });
    expect(byKind['deleteCollection']).toMatchObject({ action: 'deletecollection', method: 'DELETE' });
    expect(byKind['watch']).toMatchObject({
      action: 'watch',
      deprecated: true,
      path: '/apis/coordination.k8s.io/v1/watch/namespaces/{namespace}/leases/{name}',
    });
    expect(byKind['watchList']).toMatchObject({ action: 'watchlist', deprecated: true });
    expect(byKind['list']?.deprecated).toBe(false);
  });

  it('types query parameters and response codes as the reference pages do', () => {
    const list = lease.operations.find((o) => o.kind === 'list')!;
    expect(list.queryParameters.map((p) => p.name)).toEqual(
      expect.arrayContaining([
        'allowWatchBookmarks',
        'continue',
        'fieldSelector',
        'labelSelector',
        'limit',
        'pretty',
        'resourceVersion',
        'resourceVersionMatch',
        'sendInitialEvents',
        'timeoutSeconds',
        'watch',
      ]),
    );
    expect(list.queryParameters.find((p) => p.name === 'limit')?.type).toEqual({ kind: 'integer' });
    expect(list.queryParameters.find((p) => p.name === 'watch')?.type).toEqual({ kind: 'boolean' });
    expect(list.queryParameters.find((p) => p.name === 'resourceVersionMatch')?.type).toEqual({
      kind: 'string',
      enum: ['Exact', 'NotOlderThan'],
    });
    const patch = lease.operations.find((o) => o.kind === 'patch')!;
    expect(patch.queryParameters.map((p) => p.name)).toEqual([
      'dryRun',
      'fieldManager',
      'fieldValidation',
      'force',
      'pretty',
    ]);
    expect(patch.requestBody?.contentTypes).toEqual(
      expect.arrayContaining([
        'application/apply-patch+yaml',
        'application/json-patch+json',
        'application/merge-patch+json',
        'application/strategic-merge-patch+json',
      ]),
    );
    const create = lease.operations.find((o) => o.kind === 'create')!;
    expect(create.responses.map((r) => [r.code, r.type?.kind === 'model' ? r.type.name : undefined])).toEqual([
      ['200', 'Lease'],
      ['201', 'Lease'],
      ['202', 'Lease'],
      ['401', undefined],
    ]);
    const del = lease.operations.find((o) => o.kind === 'delete')!;
    expect(del.requestBody).toMatchObject({ required: false, type: { kind: 'model', name: 'DeleteOptions' } });
    expect(del.queryParameters.map((p) => p.name)).toEqual(
      expect.arrayContaining(['dryRun', 'gracePeriodSeconds', 'orphanDependents', 'propagationPolicy']),
    );
  });
});

describe('differences between releases the tables must show', () => {
  it('ignoreStoreReadErrorWithClusterBreakingPotential and CBOR appear on deletes from 1.33', () => {
    const names = (release: string): string[] =>
      leaseIr(release)
        .operations.find((o) => o.kind === 'delete')!
        .queryParameters.map((p) => p.name);
    expect(names('1.31.1')).not.toContain('ignoreStoreReadErrorWithClusterBreakingPotential');
    expect(names('1.33.1')).toContain('ignoreStoreReadErrorWithClusterBreakingPotential');
    const contentTypes = (release: string): readonly string[] =>
      leaseIr(release).operations.find((o) => o.kind === 'read')!.responses[0]!.contentTypes;
    expect(contentTypes('1.31.1')).not.toContain('application/cbor');
    expect(contentTypes('1.33.1')).toContain('application/cbor');
  });

  it('LeaseSpec gains preferredHolder and strategy in 1.31', () => {
    const fields = (release: string): string[] => {
      const spec = leaseIr(release).models.find((m) => m.name === 'LeaseSpec')!;
      return spec.shape.kind === 'object' ? spec.shape.properties.map((p) => p.name) : [];
    };
    expect(fields('1.30.0')).not.toContain('preferredHolder');
    expect(fields('1.30.0')).not.toContain('strategy');
    expect(fields('1.31.1')).toEqual(expect.arrayContaining(['preferredHolder', 'strategy']));
  });
});
