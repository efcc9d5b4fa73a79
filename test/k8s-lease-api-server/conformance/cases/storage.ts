// Write semantics of the generic registry as the Lease strategy configures it: create-on-update,
// no unconditional update, URL/body checks, type meta defaulted from the URL, preconditions, finalizers,
// propagation policies, gated fields and etcd's size limit.
import { expect } from 'vitest';
import type { ConformanceCase, ConformanceResponse } from '../case.js';

const LEASES = '/apis/coordination.k8s.io/v1/namespaces/{ns}/leases';

const lease = (name: string, metadata: object = {}, spec: object = { holderIdentity: 'alice' }) => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name, ...metadata },
  spec,
});

const createStep = (name: string, metadata: object = {}, spec?: object) =>
  ({ method: 'POST', path: LEASES, body: lease(name, metadata, spec), expect: { status: 201 } }) as const;

const UID_CAUSE = {
  reason: 'FieldValueInvalid',
  message: 'Invalid value: "not-the-uid": field is immutable',
  field: 'metadata.uid',
};

/**
 * What a patch that changes metadata.uid is answered. Upstream lists the cause once per validation pass that
 * finds it (rest.BeforeUpdate's common fields, then the strategy's ValidateObjectMetaUpdate), so only its
 * presence and that it is the only cause are checked; the message says it once (ToAggregate de-duplicates).
 */
const UID_IMMUTABLE = {
  status: 422,
  json: {
    reason: 'Invalid',
    message:
      'Lease.coordination.k8s.io "uid" is invalid: metadata.uid: Invalid value: "not-the-uid": field is immutable',
    details: { name: 'uid', group: 'coordination.k8s.io', kind: 'Lease' },
  },
  check: (r: ConformanceResponse) => {
    const causes = (r.json as { details?: { causes?: unknown[] } }).details?.causes ?? [];
    expect(causes.length).toBeGreaterThan(0);
    for (const cause of causes) expect(cause).toEqual(UID_CAUSE);
  },
};

/** A PATCH of Lease "uid" that tries to change its uid. */
const uidPatch = (contentType: string, body: string, query = '') =>
  ({
    method: 'PATCH',
    path: `${LEASES}/uid${query}`,
    headers: { 'Content-Type': contentType },
    body,
    expect: UID_IMMUTABLE,
  }) as const;

export const cases: readonly ConformanceCase[] = [
  {
    name: 'a PUT of a missing Lease creates it with 201',
    source:
      'k8s.io/apiserver/pkg/registry/generic/registry/store.go Store.Update (AllowCreateOnUpdate); pkg/registry/coordination/lease/strategy.go AllowCreateOnUpdate true',
    steps: [
      {
        method: 'PUT',
        path: `${LEASES}/fresh`,
        body: lease('fresh'),
        expect: { status: 201, json: { kind: 'Lease', metadata: { name: 'fresh', namespace: '{ns}' } } },
      },
      { method: 'GET', path: `${LEASES}/fresh`, expect: { status: 200, json: { spec: { holderIdentity: 'alice' } } } },
    ],
  },
  {
    name: 'a PUT without metadata.resourceVersion is 422, naming the resource (the uint64 zero as JSON, the newest release)',
    source:
      'k8s.io/apiserver/pkg/registry/generic/registry/store.go Store.Update ("must be specified for an update"); lease/strategy.go AllowUnconditionalUpdate false; apimachinery field/errors.go Error.ErrorBody',
    steps: [
      createStep('u'),
      {
        method: 'PUT',
        path: `${LEASES}/u`,
        body: lease('u', {}, { holderIdentity: 'bob' }),
        expect: {
          status: 422,
          json: {
            reason: 'Invalid',
            message:
              'leases.coordination.k8s.io "u" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update',
            details: { name: 'u', group: 'coordination.k8s.io', kind: 'leases' },
          },
        },
      },
    ],
  },
  {
    name: 'a PUT with a stale resourceVersion is 409 with the optimistic-lock message',
    source: 'k8s.io/apiserver/pkg/registry/generic/registry/store.go Store.Update (OptimisticLockErrorMsg)',
    steps: [
      createStep('s'),
      {
        method: 'PUT',
        path: `${LEASES}/s`,
        body: lease('s', { resourceVersion: '1' }),
        expect: {
          status: 409,
          json: {
            reason: 'Conflict',
            message:
              'Operation cannot be fulfilled on leases.coordination.k8s.io "s": the object has been modified; please apply your changes to the latest version and try again',
          },
        },
      },
    ],
  },
  {
    name: 'a body naming another object than the URL is 400, even when the URL names nothing',
    source: 'k8s.io/apiserver/pkg/endpoints/handlers/rest.go checkName (called by UpdateResource before the store)',
    steps: [
      {
        method: 'PUT',
        path: `${LEASES}/missing`,
        body: lease('other'),
        expect: {
          status: 400,
          json: {
            reason: 'BadRequest',
            message: 'the name of the object (other) does not match the name on the URL (missing)',
          },
        },
      },
    ],
  },
  {
    name: 'a body without kind and apiVersion takes them from the URL (Lease and Namespace)',
    source:
      'k8s.io/apimachinery/pkg/runtime/serializer/json/json.go Serializer.Decode gvkWithDefaults; apiserver handlers/create.go defaultGVK',
    steps: [
      {
        method: 'POST',
        path: LEASES,
        body: { metadata: { name: 'bare' } },
        expect: { status: 201, json: { kind: 'Lease', apiVersion: 'coordination.k8s.io/v1' } },
      },
      {
        method: 'POST',
        path: '/api/v1/namespaces',
        body: { metadata: { name: '{ns}-kindless' } },
        expect: { status: 201, json: { kind: 'Namespace', apiVersion: 'v1', metadata: { name: '{ns}-kindless' } } },
      },
    ],
  },
  {
    name: 'another version of the Lease in the body is 400 naming both versions',
    source: 'k8s.io/apiserver/pkg/endpoints/handlers/create.go (AcceptsGroupVersion check after decoding)',
    steps: [
      {
        method: 'POST',
        path: LEASES,
        body: { ...lease('beta'), apiVersion: 'coordination.k8s.io/v1beta1' },
        expect: {
          status: 400,
          json: {
            message:
              'the API version in the data (coordination.k8s.io/v1beta1) does not match the expected API version (coordination.k8s.io/v1)',
          },
        },
      },
    ],
  },
  {
    name: 'a PATCH (JSON, merge, strategic merge or apply) that changes metadata.uid is 422 "field is immutable", not a precondition 409',
    source:
      'k8s.io/apiserver/pkg/endpoints/handlers/patch.go patchResource (rest.DefaultUpdatedObjectInfo(nil, …): no uid precondition); pkg/registry/rest/update.go BeforeUpdate (validateCommonFields); k8s.io/apimachinery/pkg/api/validation/objectmeta.go ValidateObjectMetaAccessorUpdate (ValidateImmutableField of metadata.uid)',
    steps: [
      createStep('uid'),
      uidPatch('application/json-patch+json', '[{"op":"replace","path":"/metadata/uid","value":"not-the-uid"}]'),
      uidPatch('application/merge-patch+json', '{"metadata":{"uid":"not-the-uid"}}'),
      uidPatch('application/strategic-merge-patch+json', '{"metadata":{"uid":"not-the-uid"}}'),
      uidPatch(
        'application/apply-patch+yaml',
        '{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"uid","uid":"not-the-uid"}}',
        '?fieldManager=applier',
      ),
    ],
  },
  {
    name: 'a PUT whose body carries another uid is 409: the body’s uid is a storage precondition',
    source:
      'k8s.io/apiserver/pkg/registry/rest/update.go defaultUpdatedObjectInfo.Preconditions; pkg/registry/generic/registry/store.go Store.Update (GuaranteedUpdate with storagePreconditions); pkg/storage/interfaces.go Preconditions.Check',
    steps: [
      createStep('puid'),
      {
        method: 'PUT',
        path: `${LEASES}/puid`,
        body: lease('puid', { uid: 'not-the-uid', resourceVersion: '{prev.metadata.resourceVersion}' }),
        expect: {
          status: 409,
          json: { reason: 'Conflict', details: { name: 'puid', group: 'coordination.k8s.io', kind: 'leases' } },
          text: /AdditionalErrorMsg: Precondition failed: UID in precondition: not-the-uid, UID in object meta: [0-9a-f-]{36}"/,
        },
      },
    ],
  },
  {
    name: 'a DELETE whose uid precondition fails is 409 from rest.BeforeDelete, naming the kind',
    source: 'k8s.io/apiserver/pkg/registry/rest/delete.go BeforeDelete (preconditions checked early)',
    steps: [
      createStep('p'),
      {
        method: 'DELETE',
        path: `${LEASES}/p`,
        body: { preconditions: { uid: 'nobody' } },
        expect: {
          status: 409,
          text: /^\{.*"message":"Operation cannot be fulfilled on Lease\.coordination\.k8s\.io \\"p\\": the UID in the precondition \(nobody\) does not match the UID in record \([0-9a-f-]{36}\)\. The object might have been deleted and then recreated"/,
          json: { details: { name: 'p', group: 'coordination.k8s.io', kind: 'Lease' } },
        },
      },
    ],
  },
  {
    name: 'a DELETE of a Lease with a finalizer marks it; removing the finalizer deletes it',
    source:
      'k8s.io/apiserver/pkg/registry/generic/registry/store.go Store.Delete (markAsDeleting) and Store.Update (ShouldDeleteDuringUpdate, deleteWithoutFinalizers)',
    steps: [
      createStep('f', { finalizers: ['example.com/keep'] }),
      {
        method: 'DELETE',
        path: `${LEASES}/f`,
        expect: {
          status: 200,
          json: { kind: 'Lease', metadata: { finalizers: ['example.com/keep'], deletionGracePeriodSeconds: 0 } },
          check: (r) => expect(JSON.stringify(r.json)).toMatch(/"deletionTimestamp":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"/),
        },
      },
      {
        method: 'PATCH',
        path: `${LEASES}/f`,
        headers: { 'content-type': 'application/merge-patch+json' },
        body: { metadata: { finalizers: null } },
        expect: { status: 200, check: (r) => expect(JSON.stringify(r.json)).not.toContain('example.com/keep') },
      },
      { method: 'GET', path: `${LEASES}/f`, expect: { status: 404 } },
    ],
  },
  {
    name: 'a new finalizer on an object under deletion is 422',
    source:
      'k8s.io/apimachinery/pkg/api/validation/objectmeta.go ValidateObjectMetaUpdate (no new finalizers while deleting)',
    steps: [
      createStep('nf', { finalizers: ['example.com/a'] }),
      { method: 'DELETE', path: `${LEASES}/nf`, expect: { status: 200 } },
      {
        method: 'PATCH',
        path: `${LEASES}/nf`,
        headers: { 'content-type': 'application/merge-patch+json' },
        body: { metadata: { finalizers: ['example.com/a', 'example.com/b'] } },
        expect: { status: 422, text: /no new finalizers can be added if the object is being deleted/ },
      },
    ],
  },
  {
    name: 'propagationPolicy Orphan answers with the orphan finalizer set',
    source: 'k8s.io/apiserver/pkg/registry/generic/registry/store.go deletionFinalizersForGarbageCollection',
    steps: [
      createStep('o'),
      {
        method: 'DELETE',
        path: `${LEASES}/o`,
        body: { propagationPolicy: 'Orphan' },
        expect: { status: 200, json: { kind: 'Lease', metadata: { finalizers: ['orphan'] } } },
      },
    ],
  },
  {
    name: 'orphanDependents beside propagationPolicy is 422',
    source: 'k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go ValidateDeleteOptions',
    steps: [
      createStep('v'),
      {
        method: 'DELETE',
        path: `${LEASES}/v`,
        body: { orphanDependents: false, propagationPolicy: 'Background' },
        expect: {
          status: 422,
          json: {
            message:
              'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Background": orphanDependents and deletionPropagation cannot be both set',
          },
        },
      },
    ],
  },
  {
    name: 'spec.strategy and spec.preferredHolder are dropped while CoordinatedLeaderElection is off',
    source: 'k8s.io/kubernetes/pkg/registry/coordination/lease/strategy.go PrepareForCreate',
    steps: [
      {
        method: 'POST',
        path: LEASES,
        body: lease('cle', {}, { holderIdentity: 'a', strategy: 'OldestEmulationVersion', preferredHolder: 'b' }),
        expect: {
          status: 201,
          json: { spec: { holderIdentity: 'a' } },
          check: (r) => expect(JSON.stringify((r.json as { spec?: object }).spec)).toBe('{"holderIdentity":"a"}'),
        },
      },
    ],
  },
  {
    name: "an object larger than etcd accepts is a 500 with etcd's message",
    source:
      'k8s.io/apiserver/pkg/storage/etcd3/store.go Create (etcd error passed through) and endpoints/handlers/responsewriters/status.go ErrorToAPIStatus',
    steps: [
      {
        method: 'POST',
        path: LEASES,
        body: lease('big', {}, { holderIdentity: 'x'.repeat(1.6 * 1024 * 1024) }),
        expect: {
          status: 500,
          json: { kind: 'Status', status: 'Failure', message: 'etcdserver: request is too large', code: 500 },
        },
      },
    ],
  },
];
