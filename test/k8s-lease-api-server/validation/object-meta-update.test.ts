import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../templates/k8s-lease-api-server/src/json.js';
import { validateUidUpdate } from '../../../templates/k8s-lease-api-server/src/validation/object-meta-update.js';

const withUid = (uid: string): JsonObject => ({ metadata: { name: 'a', uid } });

// apimachinery api/validation/objectmeta.go ValidateObjectMetaAccessorUpdate: ValidateImmutableField(uid).
describe('validateUidUpdate', () => {
  it('refuses a uid that differs from the live one, quoting the new one', () => {
    expect(validateUidUpdate(withUid('u2'), withUid('u1'), 'json')).toEqual([
      {
        type: 'Invalid',
        field: 'metadata.uid',
        value: { style: 'json', goType: 'types.UID', uid: 'u2' },
        detail: 'field is immutable',
      },
    ]);
  });

  it('accepts the live uid, and checks nothing on create', () => {
    expect(validateUidUpdate(withUid('u1'), withUid('u1'), 'go-syntax')).toEqual([]);
    expect(validateUidUpdate(withUid('u1'), undefined, 'go-syntax')).toEqual([]);
  });
});
