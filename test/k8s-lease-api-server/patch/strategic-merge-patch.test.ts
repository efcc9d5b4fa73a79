import { describe, expect, it } from 'vitest';
import { applyStrategicMergePatch } from '../../../templates/k8s-lease-api-server/src/patch/strategic-merge-patch.js';

const owner = (uid: string, name = uid): Record<string, string> => ({ apiVersion: 'v1', kind: 'Pod', name, uid });

describe('applyStrategicMergePatch', () => {
  it('merges ownerReferences by uid and finalizers as a set in strategic merge patches', () => {
    const original = { metadata: { ownerReferences: [owner('a'), owner('b')], finalizers: ['x'] } };
    const merged = applyStrategicMergePatch(original, {
      metadata: {
        ownerReferences: [{ uid: 'b', name: 'renamed' }, owner('c'), { uid: 'a', $patch: 'delete' }],
        finalizers: ['y', 'x'],
      },
    });
    expect(merged.ok && merged.value).toEqual({
      metadata: { ownerReferences: [{ ...owner('b'), name: 'renamed' }, owner('c')], finalizers: ['x', 'y'] },
    });
    const replaced = applyStrategicMergePatch({ spec: { a: 1, b: 2 } }, { spec: { $patch: 'replace', c: 3 } });
    expect(replaced.ok && replaced.value).toEqual({ spec: { c: 3 } });
    const removed = applyStrategicMergePatch(
      { metadata: { finalizers: ['x', 'y'] } },
      { metadata: { '$deleteFromPrimitiveList/finalizers': ['x'] } },
    );
    expect(removed.ok && removed.value).toEqual({ metadata: { finalizers: ['y'] } });
  });
});
