// structured-merge-diff's typed-value operations on Leases (typed/tofieldset.go, typed/compare.go,
// typed/remove.go): the paths a value sets — leaves, list items, and struct fields only where they hold no
// members of their own (which is why the field manager runs EnsureNamedFieldsAreMembers) — and what changed
// between two values, a container counted added or removed with its members.
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../templates/k8s-lease-api-server/src/json.js';
import { pathToString, sortedPaths } from '../../../templates/k8s-lease-api-server/src/managed/field-set.js';
import {
  compareValues,
  emptiedContainerOf,
  removeItems,
  toFieldSet,
} from '../../../templates/k8s-lease-api-server/src/managed/typed-value.js';
import { LEASE_UPDATER } from '../helpers/smd-harness.js';

const TYPE = LEASE_UPDATER.type;
const printed = (paths: Iterable<string>): string[] => sortedPaths(new Set(paths)).map(pathToString);

describe('toFieldSet', () => {
  it('lists leaves, set values, keyed items and atomic values', () => {
    const lease: JsonObject = {
      metadata: {
        name: 'a',
        labels: { app: 'web' },
        finalizers: ['f1', 'f2'],
        ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'u1' }],
      },
      spec: { holderIdentity: 'h', leaseDurationSeconds: 15 },
    };
    expect(printed(toFieldSet(lease, TYPE))).toEqual([
      '.metadata.finalizers[="f1"]',
      '.metadata.finalizers[="f2"]',
      '.metadata.labels.app',
      '.metadata.name',
      '.metadata.ownerReferences[uid="u1"]',
      '.spec.holderIdentity',
      '.spec.leaseDurationSeconds',
    ]);
  });

  it('makes an empty struct a member, and a field the schema does not name', () => {
    expect(printed(toFieldSet({ spec: {}, metadata: { labels: {} } }, TYPE))).toEqual(['.metadata.labels', '.spec']);
    expect(printed(toFieldSet({ spec: { extra: { a: 1 } } }, TYPE))).toEqual(['.spec.extra', '.spec.extra.a']);
  });
});

describe('compareValues', () => {
  it('tells modified, added and removed leaves apart', () => {
    const cmp = compareValues(
      { spec: { holderIdentity: 'a', leaseDurationSeconds: 1 }, metadata: { finalizers: ['x'] } },
      { spec: { holderIdentity: 'b', acquireTime: 't' }, metadata: { finalizers: ['x', 'y'] } },
      TYPE,
    );
    expect(printed(cmp.modified)).toEqual(['.spec.holderIdentity']);
    expect(printed(cmp.added)).toEqual(['.metadata.finalizers[="y"]', '.spec.acquireTime']);
    expect(printed(cmp.removed)).toEqual(['.spec.leaseDurationSeconds']);
  });

  it('counts a whole container added or removed with its members', () => {
    const cmp = compareValues({ metadata: { name: 'a' } }, { metadata: { name: 'a', labels: { k: 'v' } } }, TYPE);
    expect(printed(cmp.added)).toEqual(['.metadata.labels', '.metadata.labels.k']);
    expect([...cmp.modified, ...cmp.removed]).toEqual([]);
  });
});

describe('removeItems (typed/remove.go)', () => {
  it('removes the given leaves and set values, keeping their siblings', () => {
    const lease: JsonObject = {
      metadata: { finalizers: ['a', 'b'], labels: { x: '1', y: '2' } },
      spec: { holderIdentity: 'h', leaseDurationSeconds: 15 },
    };
    const removed = removeItems(
      lease,
      new Set(['f:metadata\nf:finalizers\nv:"a"', 'f:metadata\nf:labels\nf:x', 'f:spec\nf:holderIdentity']),
      TYPE,
      'null',
    );
    expect(removed).toEqual({
      metadata: { finalizers: ['b'], labels: { y: '2' } },
      spec: { leaseDurationSeconds: 15 },
    });
    expect(lease['spec']).toEqual({ holderIdentity: 'h', leaseDurationSeconds: 15 });
  });

  it('removes a whole list by its own path', () => {
    const removed = removeItems(
      { metadata: { name: 'n', finalizers: ['a', 'b'] } },
      new Set(['f:metadata\nf:finalizers']),
      TYPE,
      'null',
    );
    expect(removed).toEqual({ metadata: { name: 'n' } });
  });

  // remove_test.go removeCases: `{"setBool":[false]}` without setBool[false] is `{"setBool":null}` up to v6.3.0
  // and `{"setBool":[]}` from v6.3.1; "top-level map" `{"mapOfMapsRecursive":{"a":…}}` without a is
  // `{"mapOfMapsRecursive"}` (null) then `{"mapOfMapsRecursive":{}}`. The emptied container keeps its key.
  it.each([
    {
      title: 'leaves null under the key of a map or list it empties, up to structured-merge-diff v6.3.0',
      emptied: 'null' as const,
      expected: { metadata: { finalizers: null, annotations: null }, spec: null },
    },
    {
      title: 'leaves the empty map or list under its key from structured-merge-diff v6.3.1 (Kubernetes 1.36)',
      emptied: 'empty' as const,
      expected: { metadata: { finalizers: [], annotations: {} }, spec: {} },
    },
  ])('$title', ({ emptied, expected }) => {
    const lease: JsonObject = {
      metadata: { finalizers: ['a'], annotations: { x: '1' } },
      spec: { holderIdentity: 'h' },
    };
    const paths = new Set([
      'f:metadata\nf:finalizers\nv:"a"',
      'f:metadata\nf:annotations\nf:x',
      'f:spec\nf:holderIdentity',
    ]);
    expect(removeItems(lease, paths, TYPE, emptied)).toEqual(expected);
  });

  it('follows the vendored structured-merge-diff: v6.3.0 through 1.35, v6.3.2 from 1.36', () => {
    expect([29, 33, 34, 35, 36, 37].map(emptiedContainerOf)).toEqual([
      'null',
      'null',
      'null',
      'null',
      'empty',
      'empty',
    ]);
  });
});
