// Namespace deletion as kube-apiserver does it: REST.Delete's two steps, the NamespaceLifecycle admission
// plugin's refusals, the finalize subresource, the namespace watch, and the namespace controller's
// conditions. Each case runs in its own namespace ({ns}), which it deletes.
import { expect } from 'vitest';
import type { ConformanceCase, ConformanceStep } from '../case.js';

const NS = '/api/v1/namespaces/{ns}';
const LEASES = '/apis/coordination.k8s.io/v1/namespaces/{ns}/leases';

/** A Lease that keeps the namespace Terminating (its finalizer is nobody's to remove). */
const heldLease: ConformanceStep = {
  method: 'POST',
  path: LEASES,
  body: {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: 'held', finalizers: ['example.com/hold'] },
    spec: {},
  },
  expect: { status: 201 },
};

const deleteNs: ConformanceStep = { method: 'DELETE', path: NS, expect: { status: 200 } };

export const cases: readonly ConformanceCase[] = [
  {
    name: 'the first DELETE of a namespace answers 200 with it marked Terminating, spec.finalizers kept',
    source:
      'pkg/registry/core/namespace/storage/storage.go REST.Delete (first request: deletionTimestamp, phase Terminating; returns the updated object)',
    steps: [
      {
        method: 'DELETE',
        path: NS,
        body: { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' },
        expect: {
          status: 200,
          json: {
            kind: 'Namespace',
            apiVersion: 'v1',
            metadata: { name: '{ns}', deletionTimestamp: expect.stringMatching(/Z$/) },
            spec: { finalizers: ['kubernetes'] },
            status: { phase: 'Terminating' },
          },
        },
      },
    ],
  },
  {
    name: 'a DELETE with propagationPolicy Foreground adds the foregroundDeletion metadata finalizer',
    source: 'pkg/registry/core/namespace/storage/storage.go REST.Delete shouldHaveDeleteDependentsFinalizer',
    steps: [
      heldLease,
      {
        method: 'DELETE',
        path: NS,
        body: { propagationPolicy: 'Foreground' },
        expect: { status: 200, json: { metadata: { finalizers: ['foregroundDeletion'] } } },
      },
    ],
  },
  {
    name: 'a second DELETE of a terminating namespace answers it as it is',
    source:
      'pkg/registry/core/namespace/storage/storage.go REST.Delete ("prior to final deletion, we must ensure that finalizers is empty": returns the namespace)',
    steps: [
      heldLease,
      deleteNs,
      {
        method: 'DELETE',
        path: NS,
        expect: { status: 200, json: { kind: 'Namespace', status: { phase: 'Terminating' } } },
      },
    ],
  },
  {
    name: 'a DELETE with a uid precondition that does not match is 409 with REST.Delete wording',
    source:
      'pkg/registry/core/namespace/storage/storage.go REST.Delete (NewConflict "Precondition failed: UID in precondition")',
    steps: [
      {
        method: 'DELETE',
        path: NS,
        body: { preconditions: { uid: 'not-the-uid' } },
        expect: {
          status: 409,
          json: {
            reason: 'Conflict',
            message: expect.stringMatching(
              /^Operation cannot be fulfilled on namespaces "conformance-\d+": Precondition failed: UID in precondition: not-the-uid, UID in object meta: [0-9a-f-]{36}$/,
            ),
            details: { name: '{ns}', kind: 'namespaces' },
          },
        },
      },
      deleteNs,
    ],
  },
  {
    name: 'default, kube-system and kube-public may not be deleted (403)',
    source:
      'k8s.io/apiserver/pkg/admission/plugin/namespace/lifecycle/admission.go Lifecycle.Admit (immortalNamespaces: "this namespace may not be deleted")',
    steps: ['default', 'kube-system', 'kube-public'].map(
      (name): ConformanceStep => ({
        method: 'DELETE',
        path: `/api/v1/namespaces/${name}`,
        expect: {
          status: 403,
          json: {
            kind: 'Status',
            status: 'Failure',
            reason: 'Forbidden',
            code: 403,
            message: `namespaces "${name}" is forbidden: this namespace may not be deleted`,
            details: { name, kind: 'namespaces' },
          },
        },
      }),
    ),
  },
  {
    name: 'a Lease create into a terminating namespace is 403 with the NamespaceTerminating cause',
    source:
      'k8s.io/apiserver/pkg/admission/plugin/namespace/lifecycle/admission.go Lifecycle.Admit ("unable to create new content in namespace %s because it is being terminated", v1.NamespaceTerminatingCause)',
    steps: [
      heldLease,
      deleteNs,
      {
        method: 'POST',
        path: LEASES,
        body: { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'late' }, spec: {} },
        expect: {
          status: 403,
          json: {
            reason: 'Forbidden',
            message:
              'leases.coordination.k8s.io "late" is forbidden: unable to create new content in namespace {ns} because it is being terminated',
            details: {
              name: 'late',
              group: 'coordination.k8s.io',
              kind: 'leases',
              causes: [
                {
                  reason: 'NamespaceTerminating',
                  message: 'namespace {ns} is being terminated',
                  field: 'metadata.namespace',
                },
              ],
            },
          },
        },
      },
      {
        method: 'PUT',
        path: `${LEASES}/late2`,
        body: { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'late2' }, spec: {} },
        expect: { status: 403, json: { details: { causes: [{ reason: 'NamespaceTerminating' }] } } },
      },
    ],
  },
  {
    name: 're-creating a terminating namespace is 409 "object is being deleted"',
    source:
      'k8s.io/apiserver/pkg/registry/generic/registry/store.go Store.Create (AlreadyExists prefixed "object is being deleted: " when the existing object has a deletionTimestamp)',
    steps: [
      heldLease,
      deleteNs,
      {
        method: 'POST',
        path: '/api/v1/namespaces',
        body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: '{ns}' } },
        expect: {
          status: 409,
          json: {
            reason: 'AlreadyExists',
            message: 'object is being deleted: namespaces "{ns}" already exists',
            details: { name: '{ns}', kind: 'namespaces' },
          },
        },
      },
    ],
  },
  {
    name: 'content held by finalizers keeps the namespace, with the deleter conditions saying why',
    source:
      'pkg/controller/namespace/deletion/status_condition_utils.go ProcessContentTotals, updateConditions; namespaced_resources_deleter.go deleteAllContent',
    steps: [
      heldLease,
      { method: 'GET', path: NS, save: { rv: 'metadata.resourceVersion' }, expect: { status: 200 } },
      deleteNs,
      {
        method: 'GET',
        path: '/api/v1/namespaces?watch=1&fieldSelector=metadata.name%3D{ns}&resourceVersion={saved.rv}',
        readEvents: 2,
        expect: {
          status: 200,
          json: [
            { type: 'MODIFIED', object: { status: { phase: 'Terminating' } } },
            {
              type: 'MODIFIED',
              object: {
                status: {
                  phase: 'Terminating',
                  conditions: [
                    { type: 'NamespaceDeletionDiscoveryFailure', status: 'False', reason: 'ResourcesDiscovered' },
                    {
                      type: 'NamespaceDeletionGroupVersionParsingFailure',
                      status: 'False',
                      reason: 'ParsedGroupVersions',
                    },
                    { type: 'NamespaceDeletionContentFailure', status: 'False', reason: 'ContentDeleted' },
                    {
                      type: 'NamespaceContentRemaining',
                      status: 'True',
                      reason: 'SomeResourcesRemain',
                      message: 'Some resources are remaining: leases.coordination.k8s.io has 1 resource instances',
                    },
                    {
                      type: 'NamespaceFinalizersRemaining',
                      status: 'True',
                      reason: 'SomeFinalizerRemain',
                      message: 'Some finalizers are remaining: example.com/hold in 1 resource instances',
                    },
                  ],
                },
              },
            },
          ],
        },
      },
    ],
  },
  {
    name: 'PUT finalize with no finalizers removes a terminating namespace (the update deletes it)',
    source:
      'pkg/registry/core/namespace/storage/storage.go FinalizeREST.Update, ShouldDeleteNamespaceDuringUpdate; pkg/registry/core/namespace/strategy.go namespaceFinalizeStrategy',
    steps: [
      heldLease,
      deleteNs,
      {
        method: 'PUT',
        path: `${NS}/finalize`,
        body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: '{ns}' }, spec: { finalizers: [] } },
        expect: { status: 200, json: { kind: 'Namespace', metadata: { name: '{ns}' } } },
      },
      { method: 'GET', path: NS, expect: { status: 404, json: { reason: 'NotFound' } } },
    ],
  },
  {
    name: 'an empty namespace is removed by the controller, and its watch ends with DELETED',
    source:
      'pkg/controller/namespace/deletion/namespaced_resources_deleter.go Delete (finalizeNamespace); storage.go ShouldDeleteNamespaceDuringUpdate',
    steps: [
      { method: 'GET', path: NS, save: { rv: 'metadata.resourceVersion' }, expect: { status: 200 } },
      deleteNs,
      {
        method: 'GET',
        path: '/api/v1/namespaces?watch=1&fieldSelector=metadata.name%3D{ns}&resourceVersion={saved.rv}',
        readEvents: 3,
        expect: {
          status: 200,
          check: (response) => {
            // The mark, the controller's conditions, then the finalize that deletes it.
            const events = response.json as { type: string }[];
            expect(events.map((e) => e.type)).toEqual(['MODIFIED', 'MODIFIED', 'DELETED']);
          },
        },
      },
    ],
  },
  {
    name: '/api/v1 lists namespaces with delete and watch, and the finalize and status subresources',
    source: 'pkg/registry/core/rest/storage_core.go (namespaces, namespaces/status, namespaces/finalize)',
    steps: [
      {
        method: 'GET',
        path: '/api/v1',
        expect: {
          status: 200,
          json: {
            resources: [
              { name: 'namespaces', verbs: expect.arrayContaining(['delete', 'watch']) },
              { name: 'namespaces/finalize', verbs: ['update'] },
              { name: 'namespaces/status', verbs: expect.arrayContaining(['get']) },
            ],
          },
        },
      },
      deleteNs,
    ],
  },
];
