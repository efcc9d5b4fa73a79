// The protobuf field numbers of every message the server reads or writes, as k8s.io/apimachinery
// pkg/apis/meta/v1/generated.proto, pkg/runtime/generated.proto and k8s.io/api coordination/v1, coordination/v1beta1 and core/v1
// generated.proto number them (read from the protos of the current main branches).
import { describe, expect, it } from 'vitest';
import { MESSAGES, type MessageName } from '../../../templates/k8s-lease-api-server/src/protobuf/schema.js';

const UPSTREAM: [MessageName, [string, number][]][] = [
  [
    'ObjectMeta',
    [
      ['name', 1],
      ['generateName', 2],
      ['namespace', 3],
      ['selfLink', 4],
      ['uid', 5],
      ['resourceVersion', 6],
      ['generation', 7],
      ['creationTimestamp', 8],
      ['deletionTimestamp', 9],
      ['deletionGracePeriodSeconds', 10],
      ['labels', 11],
      ['annotations', 12],
      ['ownerReferences', 13],
      ['finalizers', 14],
      ['managedFields', 17],
    ],
  ],
  [
    'ListMeta',
    [
      ['selfLink', 1],
      ['resourceVersion', 2],
      ['continue', 3],
      ['remainingItemCount', 4],
      ['shardInfo', 5],
    ],
  ],
  [
    'OwnerReference',
    [
      ['kind', 1],
      ['name', 3],
      ['uid', 4],
      ['apiVersion', 5],
      ['controller', 6],
      ['blockOwnerDeletion', 7],
    ],
  ],
  [
    'ManagedFieldsEntry',
    [
      ['manager', 1],
      ['operation', 2],
      ['apiVersion', 3],
      ['time', 4],
      ['fieldsType', 6],
      ['fieldsV1', 7],
      ['subresource', 8],
    ],
  ],
  [
    'Preconditions',
    [
      ['uid', 1],
      ['resourceVersion', 2],
    ],
  ],
  [
    'Status',
    [
      ['metadata', 1],
      ['status', 2],
      ['message', 3],
      ['reason', 4],
      ['details', 5],
      ['code', 6],
    ],
  ],
  [
    'StatusCause',
    [
      ['reason', 1],
      ['message', 2],
      ['field', 3],
    ],
  ],
  // runtime.TypeMeta (pkg/runtime/generated.proto), the envelope's: not meta/v1's, which numbers kind first.
  [
    'TypeMeta',
    [
      ['apiVersion', 1],
      ['kind', 2],
    ],
  ],
  [
    'Lease',
    [
      ['metadata', 1],
      ['spec', 2],
    ],
  ],
  [
    'LeaseSpec',
    [
      ['holderIdentity', 1],
      ['leaseDurationSeconds', 2],
      ['acquireTime', 3],
      ['renewTime', 4],
      ['leaseTransitions', 5],
      ['strategy', 6],
      ['preferredHolder', 7],
    ],
  ],
  [
    'LeaseList',
    [
      ['metadata', 1],
      ['items', 2],
    ],
  ],
  [
    'LeaseCandidateSpec',
    [
      ['leaseName', 1],
      ['pingTime', 2],
      ['renewTime', 3],
      ['binaryVersion', 4],
      ['emulationVersion', 5],
      ['strategy', 6],
    ],
  ],
  [
    'Namespace',
    [
      ['metadata', 1],
      ['spec', 2],
      ['status', 3],
    ],
  ],
  [
    'NamespaceStatus',
    [
      ['phase', 1],
      ['conditions', 2],
    ],
  ],
];

describe('MESSAGES', () => {
  it.each(UPSTREAM)('numbers the fields of %s as generated.proto does, in ascending order', (name, expected) => {
    expect(MESSAGES[name].map((f): [string, number] => [f.json, f.number])).toEqual(
      [...expected].sort((a, b) => a[1] - b[1]),
    );
  });

  it('holds DeleteOptions and StatusDetails fields at their upstream numbers', () => {
    const numbers = (name: MessageName): Record<string, number> =>
      Object.fromEntries(MESSAGES[name].map((f) => [f.json, f.number]));
    expect(numbers('DeleteOptions')).toMatchObject({
      gracePeriodSeconds: 1,
      preconditions: 2,
      orphanDependents: 3,
      propagationPolicy: 4,
      dryRun: 5,
    });
    expect(numbers('StatusDetails')).toMatchObject({
      name: 1,
      group: 2,
      kind: 3,
      causes: 4,
      retryAfterSeconds: 5,
      uid: 6,
    });
  });

  it('marks the Go pointers, which gogo writes only when set', () => {
    const pointers = (name: MessageName): string[] => MESSAGES[name].filter((f) => f.pointer).map((f) => f.json);
    // Every LeaseSpec field is a pointer in k8s.io/api/coordination/v1 types.go.
    expect(pointers('LeaseSpec')).toEqual(MESSAGES.LeaseSpec.map((f) => f.json));
    expect(pointers('LeaseSpec')).toHaveLength(7);
    expect(pointers('ObjectMeta')).toEqual(['deletionTimestamp', 'deletionGracePeriodSeconds']);
  });
});
