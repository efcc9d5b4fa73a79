import { describe, expect, it } from 'vitest';
import { diffReleases } from '../../../generator/diff/diff-releases.js';
import { unexportedOperations } from '../../../generator/ir/client-surface.js';
import type { ReleaseIr } from '../../../generator/ir/types.js';
import { clusterMinors, operationRows, whatItAdds } from '../../../generator/emit/readme-tables.js';
import { leaseIr, releaseIr } from '../../helpers/project.js';

const [v131, v133] = ['1.31.1', '1.33.1'].map(releaseIr) as [ReleaseIr, ReleaseIr];

describe("the client README's release table", () => {
  it('says which cluster minors a release subpath serves: its own and those up to the next supported release', () => {
    expect(clusterMinors('1.31.1', '1.33.1')).toBe('1.31.x – 1.32.x');
    expect(clusterMinors('1.33.1', '1.34.0')).toBe('1.33.x');
    expect(clusterMinors('1.36.0', undefined)).toBe('1.36.x');
  });

  it('names what a release adds or breaks for users of the exported functions, media types in one phrase', () => {
    const diffs = [diffReleases(v131, v133)];
    const cell = whatItAdds('1.33.1', diffs, unexportedOperations([v131, v133]));
    expect(cell).toContain('**breaking** `coordination.k8s.io/v1alpha1`');
    expect(cell).toContain('`deleteNamespacedLease ?ignoreStoreReadErrorWithClusterBreakingPotential`');
    expect(cell).toContain(
      'media types `application/apply-patch+cbor`, `application/cbor`, `application/cbor-seq` on 15 requests/responses (not used by this JSON client)',
    );
    expect(cell).not.toContain('watch');
    expect(whatItAdds('1.31.1', diffs, new Set())).toBe('oldest supported release');
  });
});

describe("the client README's operations table", () => {
  it('has one row per exported function, with the query parameters it takes and the names exported beside it', () => {
    const rows = operationRows(leaseIr('1.33.1'));
    expect(rows.map((r) => r.name)).not.toContain('watchNamespacedLease');
    const list = rows.find((r) => r.name === 'listNamespacedLease')!;
    expect(list.query).toContain('labelSelector');
    expect(list.query).not.toContain('watch');
    expect(list.example).toContain("await listNamespacedLease(client, { namespace: 'default'");
    const patch = rows.find((r) => r.name === 'patchNamespacedLease')!;
    expect(patch.companions[0]).toBe('patchNamespacedLeaseWithResponse');
    expect(patch.companions).toEqual(
      expect.arrayContaining([
        'PatchNamespacedLeaseParams',
        'PatchNamespacedLeaseApplyPatch',
        'PatchNamespacedLeaseResponses',
      ]),
    );
  });
});
