import { describe, expect, it } from 'vitest';
import {
  clientOperations,
  isClientMediaType,
  isWatchOnlyParameter,
  patchVariants,
  queryParameters,
  unexportedOperations,
} from '../../../generator/ir/client-surface.js';
import type { OperationIr } from '../../../generator/ir/types.js';
import { leaseIr, releaseIr } from '../../helpers/project.js';

const lease = leaseIr('1.33.1');

function operation(name: string): OperationIr {
  const found = lease.operations.find((o) => o.name === name);
  if (found === undefined) throw new Error(`no operation ${name} in the 1.33.1 Lease API`);
  return found;
}

const names = (parameters: ReadonlyArray<{ name: string }>): string[] => parameters.map((p) => p.name);

describe('the operations the client serves', () => {
  it('are every Lease operation but the deprecated /watch/ ones', () => {
    expect(clientOperations(lease).map((o) => o.name)).toEqual([
      'getAPIResources',
      'listLeaseForAllNamespaces',
      'listNamespacedLease',
      'createNamespacedLease',
      'deleteCollectionNamespacedLease',
      'readNamespacedLease',
      'replaceNamespacedLease',
      'patchNamespacedLease',
      'deleteNamespacedLease',
    ]);
  });

  it('leave out exactly the watch operations, named as the diff names them', () => {
    const ir = releaseIr('1.33.1');
    const unexported = unexportedOperations([ir]);
    expect([...unexported].sort()).toEqual([
      'v1alpha2.watchLeaseCandidateListForAllNamespaces',
      'v1alpha2.watchNamespacedLeaseCandidate',
      'v1alpha2.watchNamespacedLeaseCandidateList',
      'v1beta1.watchLeaseCandidateListForAllNamespaces',
      'v1beta1.watchNamespacedLeaseCandidate',
      'v1beta1.watchNamespacedLeaseCandidateList',
      'watchLeaseListForAllNamespaces',
      'watchNamespacedLease',
      'watchNamespacedLeaseList',
    ]);
    // Only names without an exported function: v1's readNamespacedLease has one.
    expect(unexported.has('readNamespacedLease')).toBe(false);
  });
});

describe('the query parameters a client function takes', () => {
  it('drop the parameters that would turn a list into a watch stream', () => {
    const list = operation('listNamespacedLease');
    const taken = names(queryParameters(list));
    expect(names(list.queryParameters).filter((name) => !taken.includes(name))).toEqual([
      'allowWatchBookmarks',
      'sendInitialEvents',
      'watch',
    ]);
    expect(taken).toContain('labelSelector');
  });

  it('keep a parameter named like a watch one on an operation that is not a list', () => {
    const deleteCollection = operation('deleteCollectionNamespacedLease');
    const sendInitialEvents = deleteCollection.queryParameters.find((p) => p.name === 'sendInitialEvents');
    expect(sendInitialEvents).toBeDefined();
    expect(isWatchOnlyParameter(deleteCollection, sendInitialEvents!)).toBe(false);
    expect(names(queryParameters(deleteCollection))).toEqual(names(deleteCollection.queryParameters));
  });
});

describe('the media types the client speaks', () => {
  it('offers a patch variant for each JSON patch type the operation accepts, never CBOR', () => {
    const patch = operation('patchNamespacedLease');
    expect(patch.requestBody?.contentTypes).toContain('application/apply-patch+cbor');
    expect(patchVariants(patch).map((v) => [v.typeName, v.apply])).toEqual([
      ['JsonPatch', false],
      ['MergePatch', false],
      ['StrategicMergePatch', false],
      ['ApplyPatch', true],
    ]);
    expect(patchVariants(operation('readNamespacedLease'))).toEqual([]);
  });

  it('are JSON and the patch types, which the changelog treats as changes users meet', () => {
    for (const type of ['application/json', 'application/merge-patch+json', 'application/apply-patch+yaml'])
      expect(isClientMediaType(type), type).toBe(true);
    for (const type of [
      'application/cbor',
      'application/apply-patch+cbor',
      'application/vnd.kubernetes.protobuf',
      '*/*',
    ])
      expect(isClientMediaType(type), type).toBe(false);
  });
});
