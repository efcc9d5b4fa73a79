// The stored shape of a Lease, as Go's encoding/json writes the structs of k8s.io/api/coordination/v1 and
// k8s.io/apimachinery/pkg/apis/meta/v1: fields in struct order (ObjectMeta Name … ManagedFields, LeaseSpec
// HolderIdentity … PreferredHolder, OwnerReference, ManagedFieldsEntry), omitempty fields left out when empty,
// creationTimestamp (a non-pointer metav1.Time) written as null, pointer fields kept when zero.
import { describe, expect, it } from 'vitest';
import { canonicalLease, canonicalMetadata } from '../../templates/k8s-lease-api-server/src/lease-shape.js';

describe('canonicalMetadata', () => {
  it('orders ObjectMeta fields as the struct declares them and drops empty omitempty fields', () => {
    const meta = canonicalMetadata({
      managedFields: [],
      finalizers: ['f'],
      labels: { a: 'b' },
      annotations: {},
      creationTimestamp: '2026-01-01T00:00:00Z',
      resourceVersion: '5',
      uid: 'u',
      namespace: 'default',
      generateName: '',
      name: 'n',
      generation: 0,
    });
    expect(JSON.stringify(meta)).toBe(
      '{"name":"n","namespace":"default","uid":"u","resourceVersion":"5","creationTimestamp":"2026-01-01T00:00:00Z","labels":{"a":"b"},"finalizers":["f"]}',
    );
  });

  it('keeps a null creationTimestamp and a zero deletionGracePeriodSeconds', () => {
    expect(canonicalMetadata({ deletionGracePeriodSeconds: 0, creationTimestamp: null, name: 'n' })).toEqual({
      name: 'n',
      creationTimestamp: null,
      deletionGracePeriodSeconds: 0,
    });
  });

  it('orders ownerReferences and managedFields entries by their structs, dropping nulls', () => {
    const meta = canonicalMetadata({
      ownerReferences: [{ uid: 'u', controller: null, kind: 'Pod', name: 'p', apiVersion: 'v1' }],
      managedFields: [
        { fieldsV1: {}, time: 't', operation: 'Update', manager: 'm', fieldsType: 'FieldsV1', apiVersion: 'v1' },
      ],
    });
    expect(JSON.stringify(meta)).toBe(
      '{"ownerReferences":[{"apiVersion":"v1","kind":"Pod","name":"p","uid":"u"}],"managedFields":[{"manager":"m","operation":"Update","apiVersion":"v1","time":"t","fieldsType":"FieldsV1","fieldsV1":{}}]}',
    );
  });
});

describe('canonicalLease', () => {
  it('writes metadata then spec in LeaseSpec order, without type meta, always with a spec', () => {
    const lease = canonicalLease({
      spec: { preferredHolder: 'p', renewTime: 'r', holderIdentity: 'h', leaseDurationSeconds: 15, strategy: null },
      kind: 'Lease',
      apiVersion: 'coordination.k8s.io/v1',
      metadata: { name: 'n' },
    });
    expect(JSON.stringify(lease)).toBe(
      '{"metadata":{"name":"n","creationTimestamp":null},"spec":{"holderIdentity":"h","leaseDurationSeconds":15,"renewTime":"r","preferredHolder":"p"}}',
    );
    expect(canonicalLease({ metadata: { name: 'n', creationTimestamp: 'c' } })).toEqual({
      metadata: { name: 'n', creationTimestamp: 'c' },
      spec: {},
    });
  });
});
