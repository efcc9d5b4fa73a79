// The two Lease lists with a patch strategy, both in ObjectMeta (k8s.io/apimachinery/pkg/apis/meta/v1/types.go):
// ownerReferences `patchStrategy:"merge" patchMergeKey:"uid"` and finalizers `patchStrategy:"merge"`.
import { describe, expect, it } from 'vitest';
import {
  FINALIZERS_PATH,
  OWNER_MERGE_KEY,
  OWNER_REFERENCES_PATH,
  childPath,
} from '../../../templates/k8s-lease-api-server/src/patch/list-strategies.js';

describe('list strategies', () => {
  it('name the ObjectMeta lists by the dotted paths childPath builds, ownerReferences merged by uid', () => {
    expect(childPath(childPath('', 'metadata'), 'ownerReferences')).toBe(OWNER_REFERENCES_PATH);
    expect(childPath(childPath('', 'metadata'), 'finalizers')).toBe(FINALIZERS_PATH);
    expect(childPath('spec', 'holderIdentity')).toBe('spec.holderIdentity');
    expect(OWNER_MERGE_KEY).toBe('uid');
  });
});
