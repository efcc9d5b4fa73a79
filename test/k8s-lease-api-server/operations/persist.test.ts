// The next state of an updated Lease: the metadata the server owns comes from the live object whatever the
// request says (k8s.io/apiserver/pkg/registry/rest/update.go BeforeUpdate: uid, creationTimestamp, deletion
// fields, generation and selfLink kept; the store then sets resourceVersion), managedFields are the field
// manager's, and the object takes the stored shape.
import { describe, expect, it } from 'vitest';
import { type JsonObject, objectAt } from '../../../templates/k8s-lease-api-server/src/json.js';
import { carryOver } from '../../../templates/k8s-lease-api-server/src/operations/persist.js';

const MANAGED: JsonObject[] = [{ manager: 'kubectl', operation: 'Update', apiVersion: 'coordination.k8s.io/v1' }];
const LIVE: JsonObject = {
  metadata: {
    name: 'a',
    namespace: 'ns',
    uid: 'u1',
    resourceVersion: '7',
    generation: 1,
    creationTimestamp: '2026-01-01T00:00:00Z',
    managedFields: MANAGED,
  },
  spec: { holderIdentity: 'old' },
};

describe('carryOver', () => {
  it('keeps the server-owned metadata of the live object and takes the rest from the request', () => {
    const next = carryOver(
      LIVE,
      {
        metadata: {
          name: 'a',
          namespace: 'ns',
          uid: 'forged',
          generation: 9,
          creationTimestamp: '1999-01-01T00:00:00Z',
          deletionTimestamp: '2026-01-02T00:00:00Z',
          labels: { new: 'label' },
        },
        spec: { holderIdentity: 'new' },
      },
      MANAGED,
    );
    // rest.BeforeUpdate keeps a uid the request provides (validation then refuses it as immutable).
    expect(next).toEqual({
      metadata: { ...objectAt(LIVE, 'metadata'), uid: 'forged', labels: { new: 'label' } },
      spec: { holderIdentity: 'new' },
    });
    const unset = carryOver(LIVE, { metadata: { name: 'a', namespace: 'ns' }, spec: {} }, MANAGED);
    expect(objectAt(unset, 'metadata')?.['uid']).toBe(objectAt(LIVE, 'metadata')?.['uid']);
  });

  it('writes the managedFields it is given, and none when there are none', () => {
    const same = carryOver(LIVE, { metadata: { name: 'a' }, spec: {} }, [{ ...MANAGED[0] }]);
    expect(objectAt(same, 'metadata')?.['managedFields']).toEqual(MANAGED);
    const none = carryOver(LIVE, { metadata: { name: 'a', managedFields: MANAGED }, spec: {} }, undefined);
    expect(none['metadata']).not.toHaveProperty('managedFields');
  });
});
