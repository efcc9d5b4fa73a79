// The garbage collector's graph (graph_builder.go's uidToNode and node.dependents), kept from store changes.
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../templates/k8s-lease-api-server/src/json.js';
import { GcGraph, ownerLinks } from '../../../templates/k8s-lease-api-server/src/operations/gc-graph.js';

function lease(name: string, uid: string, owners: [string, boolean][] = []): JsonObject {
  const ownerReferences = owners.map(([ownerUid, blockOwnerDeletion]) => ({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    name: 'o',
    uid: ownerUid,
    blockOwnerDeletion,
  }));
  return { metadata: { name, uid, ...(owners.length === 0 ? {} : { ownerReferences }) } };
}

describe('GcGraph', () => {
  it('finds an object by uid within its namespace only', () => {
    const graph = new GcGraph();
    graph.apply('ns/o', undefined, lease('o', 'u-o'));
    expect(graph.keyOf('ns', 'u-o')).toBe('ns/o');
    expect(graph.keyOf('other', 'u-o')).toBeUndefined();
    graph.apply('ns/o', lease('o', 'u-o'), undefined);
    expect(graph.keyOf('ns', 'u-o')).toBeUndefined();
  });

  it('follows dependents and the blocking count through changes of the ownerReferences', () => {
    const graph = new GcGraph();
    const blocking = lease('d', 'u-d', [['u-o', true]]);
    graph.apply('ns/d', undefined, blocking);
    graph.apply('ns/e', undefined, lease('e', 'u-e', [['u-o', false]]));
    expect([...graph.dependentsOf('ns', 'u-o')]).toEqual([
      ['ns/d', true],
      ['ns/e', false],
    ]);
    expect(graph.blockingCount('ns', 'u-o')).toBe(1);
    const unblocked = lease('d', 'u-d', [['u-o', false]]);
    graph.apply('ns/d', blocking, unblocked);
    expect(graph.blockingCount('ns', 'u-o')).toBe(0);
    graph.apply('ns/d', unblocked, lease('d', 'u-d', [['u-p', true]]));
    expect([...graph.dependentsOf('ns', 'u-o').keys()]).toEqual(['ns/e']);
    expect(graph.blockingCount('ns', 'u-p')).toBe(1);
    graph.apply('ns/d', lease('d', 'u-d', [['u-p', true]]), undefined);
    expect(graph.blockingCount('ns', 'u-p')).toBe(0);
    expect(graph.dependentsOf('ns', 'u-p').size).toBe(0);
    // A dependent's owner is looked for in the dependent's namespace.
    expect(graph.dependentsOf('other', 'u-o').size).toBe(0);
  });

  it('reads a uid listed twice as blocking when either entry blocks', () => {
    expect([
      ...ownerLinks(
        lease('d', 'u-d', [
          ['u-o', true],
          ['u-o', false],
        ]),
      ),
    ]).toEqual([['u-o', true]]);
    expect(ownerLinks({ metadata: { ownerReferences: 'not a list' } }).size).toBe(0);
  });
});
