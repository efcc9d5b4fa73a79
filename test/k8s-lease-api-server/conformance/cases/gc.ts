// What the garbage collector does after a DELETE, as a client sees it through a watch: kube-controller-manager's
// collector (pkg/controller/garbagecollector) works beside the API, so each case watches from the DELETE's
// answer for the collector's writes instead of expecting them in that answer.
import { expect } from 'vitest';
import type { ConformanceCase, ConformanceResponse } from '../case.js';

const LEASES = '/apis/coordination.k8s.io/v1/namespaces/{ns}/leases';
const WATCH_FROM_PREVIOUS = `${LEASES}?watch=true&resourceVersion={prev.metadata.resourceVersion}`;

const lease = (name: string, metadata: object = {}) => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name, ...metadata },
});

/** An owner, its uid saved as `uid`, and one dependent of it, its resourceVersion saved as `rv`. */
const ownerAndDependent = (owner: string, dependent: string, metadata: object = {}, blockOwnerDeletion = false) =>
  [
    { method: 'POST', path: LEASES, body: lease(owner), save: { uid: 'metadata.uid' }, expect: { status: 201 } },
    {
      method: 'POST',
      path: LEASES,
      body: lease(dependent, {
        ...metadata,
        ownerReferences: [
          { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', name: owner, uid: '{saved.uid}', blockOwnerDeletion },
        ],
      }),
      save: { rv: 'metadata.resourceVersion' },
      expect: { status: 201 },
    },
  ] as const;

/** The watch events of a `readEvents` step: [type, name] pairs. */
function eventNames(response: ConformanceResponse): [string, string][] {
  const events = response.json as { type: string; object: { metadata: { name: string } } }[];
  return events.map((e) => [e.type, e.object.metadata.name]);
}

export const cases: readonly ConformanceCase[] = [
  {
    name: 'a Foreground delete completes once its last blocking dependent goes, even one its finalizer held; the name is free again',
    source:
      'k8s.io/kubernetes/pkg/controller/garbagecollector/graph_builder.go processGraphChanges (a removed dependent queues its owners that are deleting dependents) and garbagecollector.go processDeletingDependentsItem (no blocking dependent left: the foregroundDeletion finalizer goes)',
    steps: [
      ...ownerAndDependent('fg-owner', 'fg-held', { finalizers: ['example.com/hold'] }, true),
      {
        method: 'DELETE',
        path: `${LEASES}/fg-owner`,
        body: { propagationPolicy: 'Foreground' },
        expect: { status: 200, json: { metadata: { name: 'fg-owner', finalizers: ['foregroundDeletion'] } } },
      },
      // The collector deletes the dependent; its own finalizer keeps it, marked.
      {
        method: 'GET',
        path: WATCH_FROM_PREVIOUS,
        readEvents: 1,
        expect: {
          status: 200,
          json: [{ type: 'MODIFIED', object: { metadata: { name: 'fg-held', finalizers: ['example.com/hold'] } } }],
          check: (r) => expect(JSON.stringify(r.json)).toContain('"deletionTimestamp"'),
        },
      },
      {
        method: 'PATCH',
        path: `${LEASES}/fg-held`,
        headers: { 'Content-Type': 'application/merge-patch+json' },
        body: { metadata: { finalizers: null } },
        expect: { status: 200 },
      },
      {
        method: 'GET',
        path: WATCH_FROM_PREVIOUS,
        readEvents: 2,
        expect: {
          status: 200,
          check: (r) =>
            expect(eventNames(r)).toEqual([
              ['DELETED', 'fg-held'],
              ['DELETED', 'fg-owner'],
            ]),
        },
      },
      { method: 'POST', path: LEASES, body: lease('fg-owner'), expect: { status: 201 } },
    ],
  },
  {
    name: 'a Background delete removes the owner at once; the collector then deletes its dependent',
    source:
      'k8s.io/kubernetes/pkg/controller/garbagecollector/graph_builder.go processGraphChanges (a removed owner queues its dependents) and garbagecollector.go attemptToDeleteItem (no owner left: deleted with Background)',
    steps: [
      ...ownerAndDependent('bg-owner', 'bg-dependent'),
      { method: 'DELETE', path: `${LEASES}/bg-owner`, expect: { status: 200, json: { kind: 'Status' } } },
      {
        method: 'GET',
        path: `${LEASES}?watch=true&resourceVersion={saved.rv}`,
        readEvents: 2,
        expect: {
          status: 200,
          check: (r) =>
            expect(eventNames(r)).toEqual([
              ['DELETED', 'bg-owner'],
              ['DELETED', 'bg-dependent'],
            ]),
        },
      },
    ],
  },
  {
    name: 'an Orphan delete takes the owner reference off its dependent, then removes the owner',
    source:
      'k8s.io/kubernetes/pkg/controller/garbagecollector/garbagecollector.go attemptToOrphanWorker (orphanDependents, then removeFinalizer of "orphan")',
    steps: [
      ...ownerAndDependent('or-owner', 'or-dependent'),
      {
        method: 'DELETE',
        path: `${LEASES}/or-owner`,
        body: { propagationPolicy: 'Orphan' },
        expect: { status: 200, json: { metadata: { finalizers: ['orphan'] } } },
      },
      {
        method: 'GET',
        path: WATCH_FROM_PREVIOUS,
        readEvents: 2,
        expect: {
          status: 200,
          check: (r) => {
            expect(eventNames(r)).toEqual([
              ['MODIFIED', 'or-dependent'],
              ['DELETED', 'or-owner'],
            ]);
            const [orphaned] = r.json as { object: { metadata: Record<string, unknown> } }[];
            expect(orphaned?.object.metadata['ownerReferences']).toBeUndefined();
          },
        },
      },
    ],
  },
];
