// A compact OpenAPI 3 document for coordination.k8s.io/v1, served when the caller passes none.
// It carries what clients read from it: Lease schemas for `kubectl explain` and strict decoding, and the
// PATCH operation's `fieldValidation` parameter that kubectl checks before trusting server-side validation.
import type { JsonObject } from '../json.js';

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
const ref = (name: string): JsonObject => ({ $ref: `#/components/schemas/${name}` });
const refWith = (name: string, description: string): JsonObject => ({ allOf: [ref(name)], description });
const str = (description: string): JsonObject => ({ type: 'string', description });
const int = (description: string, format = 'int32'): JsonObject => ({ type: 'integer', format, description });
const strMap = (description: string): JsonObject => ({
  type: 'object',
  additionalProperties: { type: 'string', default: '' },
  description,
});
const gvk = [{ group: 'coordination.k8s.io', kind: 'Lease', version: 'v1' }];

function schemas(): JsonObject {
  return {
    'io.k8s.api.coordination.v1.Lease': {
      description: 'Lease defines a lease concept.',
      type: 'object',
      properties: {
        apiVersion: str('APIVersion defines the versioned schema of this representation of an object.'),
        kind: str('Kind is a string value representing the REST resource this object represents.'),
        metadata: { ...refWith(`${META}.ObjectMeta`, 'Standard object metadata.'), default: {} },
        spec: {
          ...refWith('io.k8s.api.coordination.v1.LeaseSpec', 'spec contains the specification of the Lease.'),
          default: {},
        },
      },
      'x-kubernetes-group-version-kind': gvk,
    },
    'io.k8s.api.coordination.v1.LeaseList': {
      description: 'LeaseList is a list of Lease objects.',
      type: 'object',
      required: ['items'],
      properties: {
        apiVersion: str('APIVersion defines the versioned schema of this representation of an object.'),
        items: {
          type: 'array',
          items: { ...ref('io.k8s.api.coordination.v1.Lease'), default: {} },
          description: 'items is a list of schema objects.',
        },
        kind: str('Kind is a string value representing the REST resource this object represents.'),
        metadata: { ...refWith(`${META}.ListMeta`, 'Standard list metadata.'), default: {} },
      },
      'x-kubernetes-group-version-kind': [{ group: 'coordination.k8s.io', kind: 'LeaseList', version: 'v1' }],
    },
    'io.k8s.api.coordination.v1.LeaseSpec': {
      description: 'LeaseSpec is a specification of a Lease.',
      type: 'object',
      properties: {
        acquireTime: refWith(`${META}.MicroTime`, 'acquireTime is a time when the current lease was acquired.'),
        holderIdentity: str('holderIdentity contains the identity of the holder of a current lease.'),
        leaseDurationSeconds: int(
          'leaseDurationSeconds is a duration that candidates for a lease need to wait to force acquire it.',
        ),
        leaseTransitions: int('leaseTransitions is the number of transitions of a lease between holders.'),
        preferredHolder: str(
          'PreferredHolder signals to a lease holder that the lease has a more optimal holder and should be given up.',
        ),
        renewTime: refWith(
          `${META}.MicroTime`,
          'renewTime is a time when the current holder of a lease has last updated the lease.',
        ),
        strategy: str('Strategy indicates the strategy for picking the leader for coordinated leader election.'),
      },
    },
    [`${META}.ObjectMeta`]: {
      description: 'ObjectMeta is metadata that all persisted resources must have.',
      type: 'object',
      properties: {
        annotations: strMap('Annotations is an unstructured key value map stored with a resource.'),
        creationTimestamp: refWith(
          `${META}.Time`,
          'CreationTimestamp is a timestamp representing the server time when this object was created.',
        ),
        deletionGracePeriodSeconds: int('Number of seconds allowed for this object to gracefully terminate.', 'int64'),
        deletionTimestamp: refWith(
          `${META}.Time`,
          'DeletionTimestamp is RFC 3339 date and time at which this resource will be deleted.',
        ),
        finalizers: {
          type: 'array',
          items: { type: 'string', default: '' },
          description: 'Must be empty before the object is deleted from the registry.',
          'x-kubernetes-list-type': 'set',
          'x-kubernetes-patch-strategy': 'merge',
        },
        generateName: str('GenerateName is an optional prefix, used by the server, to generate a unique name.'),
        generation: int('A sequence number representing a specific generation of the desired state.', 'int64'),
        labels: strMap('Map of string keys and values that can be used to organize and categorize objects.'),
        managedFields: {
          type: 'array',
          items: { ...ref(`${META}.ManagedFieldsEntry`), default: {} },
          description:
            'ManagedFields maps workflow-id and version to the set of fields that are managed by that workflow.',
          'x-kubernetes-list-type': 'atomic',
        },
        name: str('Name must be unique within a namespace.'),
        namespace: str('Namespace defines the space within which each name must be unique.'),
        ownerReferences: {
          type: 'array',
          items: { ...ref(`${META}.OwnerReference`), default: {} },
          description: 'List of objects depended by this object.',
          'x-kubernetes-list-map-keys': ['uid'],
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-patch-merge-key': 'uid',
          'x-kubernetes-patch-strategy': 'merge',
        },
        resourceVersion: str('An opaque value that represents the internal version of this object.'),
        selfLink: str('Deprecated: selfLink is a legacy read-only field that is no longer populated by the system.'),
        uid: str('UID is the unique in time and space value for this object.'),
      },
    },
    [`${META}.OwnerReference`]: {
      description: 'OwnerReference contains enough information to let you identify an owning object.',
      type: 'object',
      required: ['apiVersion', 'kind', 'name', 'uid'],
      properties: {
        apiVersion: str('API version of the referent.'),
        blockOwnerDeletion: {
          type: 'boolean',
          description: 'If true, the owner cannot be deleted from the key-value store until this reference is removed.',
        },
        controller: { type: 'boolean', description: 'If true, this reference points to the managing controller.' },
        kind: str('Kind of the referent.'),
        name: str('Name of the referent.'),
        uid: str('UID of the referent.'),
      },
      'x-kubernetes-map-type': 'atomic',
    },
    [`${META}.ManagedFieldsEntry`]: {
      description:
        'ManagedFieldsEntry is a workflow-id, a FieldSet and the group version of the resource that the fieldset applies to.',
      type: 'object',
      properties: {
        apiVersion: str('APIVersion defines the version of this resource that this field set applies to.'),
        fieldsType: str('FieldsType is the discriminator for the different fields format and version.'),
        fieldsV1: refWith(
          `${META}.FieldsV1`,
          'FieldsV1 holds the first JSON version format as described in the "FieldsV1" type.',
        ),
        manager: str('Manager is an identifier of the workflow managing these fields.'),
        operation: str('Operation is the type of operation which lead to this ManagedFieldsEntry being created.'),
        subresource: str('Subresource is the name of the subresource used to update that object.'),
        time: refWith(`${META}.Time`, 'Time is the timestamp of when the ManagedFields entry was added.'),
      },
    },
    [`${META}.FieldsV1`]: {
      description: 'FieldsV1 stores a set of fields in a data structure like a Trie, in JSON format.',
      type: 'object',
    },
    [`${META}.ListMeta`]: {
      description: 'ListMeta describes metadata that synthetic resources must have.',
      type: 'object',
      properties: {
        continue: str('continue may be set if the user set a limit on the number of items returned.'),
        remainingItemCount: int(
          'remainingItemCount is the number of subsequent items in the list which are not included in this list response.',
          'int64',
        ),
        resourceVersion: str("String that identifies the server's internal version of this object."),
        selfLink: str('Deprecated: selfLink is a legacy read-only field that is no longer populated by the system.'),
      },
    },
    [`${META}.Time`]: {
      description: 'Time is a wrapper around time.Time which supports correct marshaling to YAML and JSON.',
      type: 'string',
      format: 'date-time',
    },
    [`${META}.MicroTime`]: {
      description: 'MicroTime is version of Time with microsecond level precision.',
      type: 'string',
      format: 'date-time',
    },
  };
}

function queryParam(name: string, type: 'string' | 'boolean' | 'integer' = 'string'): JsonObject {
  return { in: 'query', name, schema: { type, uniqueItems: true } };
}

function jsonResponse(schema: string): JsonObject {
  return { description: 'OK', content: { 'application/json': { schema: ref(schema) } } };
}

function paths(): JsonObject {
  const lease = 'io.k8s.api.coordination.v1.Lease';
  const leaseList = 'io.k8s.api.coordination.v1.LeaseList';
  const extension = { 'x-kubernetes-action': '', 'x-kubernetes-group-version-kind': gvk[0] ?? {} };
  const listParams = [
    'allowWatchBookmarks',
    'continue',
    'fieldSelector',
    'labelSelector',
    'limit',
    'resourceVersion',
    'resourceVersionMatch',
    'sendInitialEvents',
    'timeoutSeconds',
    'watch',
  ].map((n) => queryParam(n));
  const writeParams = ['dryRun', 'fieldManager', 'fieldValidation'].map((n) => queryParam(n));
  return {
    '/apis/coordination.k8s.io/v1/leases': {
      get: {
        operationId: 'listCoordinationV1LeaseForAllNamespaces',
        parameters: listParams,
        responses: { '200': jsonResponse(leaseList) },
        ...extension,
        'x-kubernetes-action': 'list',
      },
    },
    '/apis/coordination.k8s.io/v1/namespaces/{namespace}/leases': {
      get: {
        operationId: 'listCoordinationV1NamespacedLease',
        parameters: listParams,
        responses: { '200': jsonResponse(leaseList) },
        ...extension,
        'x-kubernetes-action': 'list',
      },
      post: {
        operationId: 'createCoordinationV1NamespacedLease',
        parameters: writeParams,
        requestBody: { content: { 'application/json': { schema: ref(lease) } } },
        responses: { '201': jsonResponse(lease) },
        ...extension,
        'x-kubernetes-action': 'post',
      },
      parameters: [{ in: 'path', name: 'namespace', required: true, schema: { type: 'string' } }],
    },
    '/apis/coordination.k8s.io/v1/namespaces/{namespace}/leases/{name}': {
      get: {
        operationId: 'readCoordinationV1NamespacedLease',
        responses: { '200': jsonResponse(lease) },
        ...extension,
        'x-kubernetes-action': 'get',
      },
      put: {
        operationId: 'replaceCoordinationV1NamespacedLease',
        parameters: writeParams,
        requestBody: { content: { 'application/json': { schema: ref(lease) } } },
        responses: { '200': jsonResponse(lease) },
        ...extension,
        'x-kubernetes-action': 'put',
      },
      patch: {
        operationId: 'patchCoordinationV1NamespacedLease',
        parameters: [...writeParams, queryParam('force', 'boolean')],
        requestBody: {
          content: Object.fromEntries(
            [
              'application/apply-patch+yaml',
              'application/json-patch+json',
              'application/merge-patch+json',
              'application/strategic-merge-patch+json',
            ].map((t) => [t, { schema: { type: 'object' } }]),
          ),
        },
        responses: { '200': jsonResponse(lease) },
        ...extension,
        'x-kubernetes-action': 'patch',
      },
      delete: {
        operationId: 'deleteCoordinationV1NamespacedLease',
        parameters: [queryParam('dryRun'), queryParam('gracePeriodSeconds', 'integer')],
        responses: { '200': jsonResponse(lease) },
        ...extension,
        'x-kubernetes-action': 'delete',
      },
      parameters: [
        { in: 'path', name: 'name', required: true, schema: { type: 'string' } },
        { in: 'path', name: 'namespace', required: true, schema: { type: 'string' } },
      ],
    },
  };
}

export function fallbackOpenApi(): JsonObject {
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: 'unversioned' },
    paths: paths(),
    components: { schemas: schemas() },
  };
}
