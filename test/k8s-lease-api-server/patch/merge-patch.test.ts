import { describe, expect, it } from 'vitest';
import { applyMergePatch } from '../../../templates/k8s-lease-api-server/src/patch/merge-patch.js';

describe('applyMergePatch', () => {
  it('merges RFC 7386 patches, deleting on null', () => {
    expect(applyMergePatch({ a: 1, b: { c: 2, d: 3 }, l: [1] }, { a: null, b: { c: null, e: 4 }, l: [2] })).toEqual({
      b: { d: 3, e: 4 },
      l: [2],
    });
  });
});
