/**
 * Differential test: for every Lease operation and a spread of parameter
 * combinations, the HTTP request our generated client sends is captured next
 * to the one `@kubernetes/client-node` (1.4.0, `CoordinationV1Api`) sends for
 * the same call, both against one loopback `node:http` server that answers
 * with a plausible 200 body, and the two are compared field by field (see
 * ./wire.ts for what is compared and what is not).
 *
 * They must agree, except for the deliberate differences listed in
 * DELIBERATE_DIFFERENCES. Each case is asserted to differ in exactly the
 * listed ways: an unlisted difference fails, and so does a listed one that
 * disappears. Differences that are not on the wire (what each API accepts)
 * are in ACCEPTED_PARAMETER_DIFFERENCES and checked at the type level.
 */
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { CoordinationV1Api, KubeConfig, PatchStrategy, V1MicroTime, setHeaderOptions } from '@kubernetes/client-node';
import type {
  CoordinationV1ApiCreateNamespacedLeaseRequest,
  CoordinationV1ApiDeleteNamespacedLeaseRequest,
  CoordinationV1ApiListLeaseForAllNamespacesRequest,
  CoordinationV1ApiListNamespacedLeaseRequest,
  CoordinationV1ApiPatchNamespacedLeaseRequest,
  CoordinationV1ApiReadNamespacedLeaseRequest,
  V1Lease,
  V1LeaseSpec,
  V1ObjectMeta,
} from '@kubernetes/client-node';
import {
  asMicroTime,
  asTime,
  createClient,
  createNamespacedLease,
  deleteCollectionNamespacedLease,
  deleteNamespacedLease,
  getAPIResources,
  listLeaseForAllNamespaces,
  listNamespacedLease,
  patchNamespacedLease,
  readNamespacedLease,
  replaceNamespacedLease,
} from '../../../generated/k8s-lease-client/src/v1_35/index.js';
import type {
  Client,
  CreateNamespacedLeaseParams,
  DeleteCollectionNamespacedLeaseParams,
  DeleteNamespacedLeaseParams,
  Lease,
  MicroTime,
  ListLeaseForAllNamespacesParams,
  ListNamespacedLeaseParams,
  PatchNamespacedLeaseParams,
  ReadNamespacedLeaseParams,
} from '../../../generated/k8s-lease-client/src/v1_35/index.js';
import * as v1_30 from '../../../generated/k8s-lease-client/src/v1_30/index.js';
import { startPlausibleApiServer } from './plausible-api-server.js';
import type { RecordingServer } from './plausible-api-server.js';
import { ABSENT, compareWire, queryOrderDiffers, toWire } from './wire.js';
import type { WireDifference, WireRequest } from './wire.js';

type Operation =
  | 'getAPIResources'
  | 'listLeaseForAllNamespaces'
  | 'listNamespacedLease'
  | 'createNamespacedLease'
  | 'readNamespacedLease'
  | 'replaceNamespacedLease'
  | 'patchNamespacedLease'
  | 'deleteNamespacedLease'
  | 'deleteCollectionNamespacedLease';

interface Case {
  name: string;
  operation: Operation;
  ours: (client: Client) => Promise<unknown>;
  theirs: (api: CoordinationV1Api) => Promise<unknown>;
}

// ---------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------

const NS = 'kube-system';
const NAME = 'kube-scheduler';
const UID = '9f6c2f5e-1a1b-4c3d-8e9f-0a1b2c3d4e5f';
/** Needs percent-encoding; `(`, `)` and `!` are where encodeURIComponent and URLSearchParams disagree. */
const LABEL_SELECTOR = 'app in (a,b),tier!=x';
const FIELD_SELECTOR = 'metadata.name!=kube-scheduler';
/** A continue token with the base64 characters that need encoding (`+`, `/`, `=`). */
const CONTINUE = 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTIzfQ+/x==';

const ACQUIRE = '2024-05-01T12:00:00.123456Z';
const RENEW = '2024-05-01T12:00:05.654321Z';
const ACQUIRE_WHOLE_MS = '2024-05-01T12:00:00.123000Z';
const CREATED = '2024-05-01T11:00:00Z';
const MANAGED_AT = '2024-05-01T11:30:00Z';

const oursLease = (acquire: string, renew: string): Lease => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name: NAME, namespace: NS, labels: { app: 'scheduler' } },
  spec: {
    holderIdentity: 'node-a_4f1c',
    leaseDurationSeconds: 15,
    leaseTransitions: 0,
    acquireTime: asMicroTime(acquire),
    renewTime: asMicroTime(renew),
  },
});

const theirsLease = (acquire: Date, renew: Date): V1Lease => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name: NAME, namespace: NS, labels: { app: 'scheduler' } },
  spec: {
    holderIdentity: 'node-a_4f1c',
    leaseDurationSeconds: 15,
    leaseTransitions: 0,
    acquireTime: acquire,
    renewTime: renew,
  },
});

const minimalOurs: Lease = {
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name: NAME },
  spec: { holderIdentity: 'node-a', leaseDurationSeconds: 0 },
};
const minimalTheirs: V1Lease = {
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name: NAME },
  spec: { holderIdentity: 'node-a', leaseDurationSeconds: 0 },
};

/** What a read-modify-write sends back: server-set metadata including `Time` values. */
const readBackOurs = (): Lease => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: {
    name: NAME,
    namespace: NS,
    uid: UID,
    resourceVersion: '4242',
    creationTimestamp: asTime(CREATED),
    managedFields: [
      {
        manager: 'kube-scheduler',
        operation: 'Update',
        apiVersion: 'coordination.k8s.io/v1',
        time: asTime(MANAGED_AT),
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:spec': { 'f:holderIdentity': {} } },
      },
    ],
  },
  spec: {
    holderIdentity: 'node-b',
    leaseDurationSeconds: 15,
    leaseTransitions: 4,
    acquireTime: asMicroTime(ACQUIRE),
    renewTime: asMicroTime(RENEW),
  },
});
const readBackTheirs = (): V1Lease => {
  const metadata: V1ObjectMeta = {
    name: NAME,
    namespace: NS,
    uid: UID,
    resourceVersion: '4242',
    creationTimestamp: new Date(CREATED),
    managedFields: [
      {
        manager: 'kube-scheduler',
        operation: 'Update',
        apiVersion: 'coordination.k8s.io/v1',
        time: new Date(MANAGED_AT),
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:spec': { 'f:holderIdentity': {} } },
      },
    ],
  };
  const spec: V1LeaseSpec = {
    holderIdentity: 'node-b',
    leaseDurationSeconds: 15,
    leaseTransitions: 4,
    acquireTime: new V1MicroTime(ACQUIRE),
    renewTime: new V1MicroTime(RENEW),
  };
  return { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata, spec };
};

const PRECONDITIONS = { uid: UID, resourceVersion: '4242' };
const JSON_PATCH_OPS = [
  { op: 'test', path: '/metadata/resourceVersion', value: '4242' },
  { op: 'replace', path: '/spec/holderIdentity', value: 'node-b' },
  { op: 'replace', path: '/spec/renewTime', value: RENEW },
  { op: 'remove', path: '/spec/preferredHolder' },
] as const;
const OWNER = { apiVersion: 'v1', kind: 'Node', name: 'node-a', uid: UID, controller: true };
const APPLY_BODY = {
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name: NAME, namespace: NS },
  spec: { holderIdentity: 'node-a', leaseDurationSeconds: 15, renewTime: asMicroTime(RENEW) },
} as const;

const viaContentType = (strategy: string) => setHeaderOptions('Content-Type', strategy);

// ---------------------------------------------------------------------------
// Cases: one table. `ours` and `theirs` make the same call.
// ---------------------------------------------------------------------------

const CASES: readonly Case[] = [
  // getAPIResources
  {
    name: 'getAPIResources',
    operation: 'getAPIResources',
    ours: (c) => getAPIResources(c),
    theirs: (api) => api.getAPIResources(),
  },

  // listLeaseForAllNamespaces
  {
    name: 'listLeaseForAllNamespaces: no params',
    operation: 'listLeaseForAllNamespaces',
    ours: (c) => listLeaseForAllNamespaces(c, {}),
    theirs: (api) => api.listLeaseForAllNamespaces(),
  },
  {
    name: 'listLeaseForAllNamespaces: every query parameter',
    operation: 'listLeaseForAllNamespaces',
    ours: (c) =>
      listLeaseForAllNamespaces(c, {
        continue: CONTINUE,
        fieldSelector: FIELD_SELECTOR,
        labelSelector: LABEL_SELECTOR,
        limit: 500,
        pretty: true,
        resourceVersion: '4242',
        resourceVersionMatch: 'NotOlderThan',
        timeoutSeconds: 30,
      }),
    theirs: (api) =>
      api.listLeaseForAllNamespaces({
        _continue: CONTINUE,
        fieldSelector: FIELD_SELECTOR,
        labelSelector: LABEL_SELECTOR,
        limit: 500,
        pretty: 'true',
        resourceVersion: '4242',
        resourceVersionMatch: 'NotOlderThan',
        timeoutSeconds: 30,
      }),
  },
  {
    name: 'listLeaseForAllNamespaces: zeros, false and empty strings',
    operation: 'listLeaseForAllNamespaces',
    ours: (c) =>
      listLeaseForAllNamespaces(c, {
        limit: 0,
        timeoutSeconds: 0,
        pretty: false,
        resourceVersion: '',
        labelSelector: '',
        resourceVersionMatch: 'Exact',
      }),
    theirs: (api) =>
      api.listLeaseForAllNamespaces({
        limit: 0,
        timeoutSeconds: 0,
        pretty: 'false',
        resourceVersion: '',
        labelSelector: '',
        resourceVersionMatch: 'Exact',
      }),
  },

  // listNamespacedLease
  {
    name: 'listNamespacedLease: no params',
    operation: 'listNamespacedLease',
    ours: (c) => listNamespacedLease(c, { namespace: NS }),
    theirs: (api) => api.listNamespacedLease({ namespace: NS }),
  },
  {
    name: 'listNamespacedLease: every query parameter',
    operation: 'listNamespacedLease',
    ours: (c) =>
      listNamespacedLease(c, {
        namespace: NS,
        continue: CONTINUE,
        fieldSelector: FIELD_SELECTOR,
        labelSelector: LABEL_SELECTOR,
        limit: 1,
        pretty: true,
        resourceVersion: '0',
        resourceVersionMatch: 'NotOlderThan',
        timeoutSeconds: 5,
      }),
    theirs: (api) =>
      api.listNamespacedLease({
        namespace: NS,
        _continue: CONTINUE,
        fieldSelector: FIELD_SELECTOR,
        labelSelector: LABEL_SELECTOR,
        limit: 1,
        pretty: 'true',
        resourceVersion: '0',
        resourceVersionMatch: 'NotOlderThan',
        timeoutSeconds: 5,
      }),
  },
  {
    name: 'listNamespacedLease: zeros and false',
    operation: 'listNamespacedLease',
    ours: (c) => listNamespacedLease(c, { namespace: 'default', limit: 0, timeoutSeconds: 0, pretty: false }),
    theirs: (api) => api.listNamespacedLease({ namespace: 'default', limit: 0, timeoutSeconds: 0, pretty: 'false' }),
  },
  {
    name: 'listNamespacedLease: non-ASCII, plus and slash in selectors',
    operation: 'listNamespacedLease',
    ours: (c) =>
      listNamespacedLease(c, {
        namespace: NS,
        labelSelector: 'team=café,env notin (prod,stage)',
        fieldSelector: 'spec.holderIdentity=a+b/c',
      }),
    theirs: (api) =>
      api.listNamespacedLease({
        namespace: NS,
        labelSelector: 'team=café,env notin (prod,stage)',
        fieldSelector: 'spec.holderIdentity=a+b/c',
      }),
  },

  // createNamespacedLease
  {
    name: 'createNamespacedLease: minimal body',
    operation: 'createNamespacedLease',
    ours: (c) => createNamespacedLease(c, { namespace: NS, body: minimalOurs }),
    theirs: (api) => api.createNamespacedLease({ namespace: NS, body: minimalTheirs }),
  },
  {
    name: 'createNamespacedLease: MicroTimes with microseconds',
    operation: 'createNamespacedLease',
    ours: (c) => createNamespacedLease(c, { namespace: NS, body: oursLease(ACQUIRE, RENEW) }),
    theirs: (api) =>
      api.createNamespacedLease({ namespace: NS, body: theirsLease(new V1MicroTime(ACQUIRE), new V1MicroTime(RENEW)) }),
  },
  {
    name: 'createNamespacedLease: MicroTimes on whole milliseconds',
    operation: 'createNamespacedLease',
    ours: (c) => createNamespacedLease(c, { namespace: NS, body: oursLease(ACQUIRE_WHOLE_MS, ACQUIRE_WHOLE_MS) }),
    theirs: (api) =>
      api.createNamespacedLease({
        namespace: NS,
        body: theirsLease(new V1MicroTime(ACQUIRE_WHOLE_MS), new V1MicroTime(ACQUIRE_WHOLE_MS)),
      }),
  },
  {
    name: 'createNamespacedLease: client-node given plain Dates as MicroTimes',
    operation: 'createNamespacedLease',
    ours: (c) => createNamespacedLease(c, { namespace: NS, body: oursLease(ACQUIRE_WHOLE_MS, ACQUIRE_WHOLE_MS) }),
    theirs: (api) =>
      api.createNamespacedLease({
        namespace: NS,
        body: theirsLease(new Date(ACQUIRE_WHOLE_MS), new Date(ACQUIRE_WHOLE_MS)),
      }),
  },
  {
    name: 'createNamespacedLease: every query parameter',
    operation: 'createNamespacedLease',
    ours: (c) =>
      createNamespacedLease(c, {
        namespace: NS,
        body: minimalOurs,
        dryRun: 'All',
        fieldManager: 'leader-elector',
        fieldValidation: 'Strict',
        pretty: true,
      }),
    theirs: (api) =>
      api.createNamespacedLease({
        namespace: NS,
        body: minimalTheirs,
        dryRun: 'All',
        fieldManager: 'leader-elector',
        fieldValidation: 'Strict',
        pretty: 'true',
      }),
  },
  {
    name: 'createNamespacedLease: fieldValidation Ignore, pretty false',
    operation: 'createNamespacedLease',
    ours: (c) =>
      createNamespacedLease(c, { namespace: NS, body: minimalOurs, fieldValidation: 'Ignore', pretty: false }),
    theirs: (api) =>
      api.createNamespacedLease({ namespace: NS, body: minimalTheirs, fieldValidation: 'Ignore', pretty: 'false' }),
  },

  // readNamespacedLease
  {
    name: 'readNamespacedLease: no params',
    operation: 'readNamespacedLease',
    ours: (c) => readNamespacedLease(c, { namespace: NS, name: NAME }),
    theirs: (api) => api.readNamespacedLease({ namespace: NS, name: NAME }),
  },
  {
    name: 'readNamespacedLease: pretty true, dotted name',
    operation: 'readNamespacedLease',
    ours: (c) => readNamespacedLease(c, { namespace: NS, name: 'kube-controller-manager.v2', pretty: true }),
    theirs: (api) => api.readNamespacedLease({ namespace: NS, name: 'kube-controller-manager.v2', pretty: 'true' }),
  },
  {
    name: 'readNamespacedLease: pretty false',
    operation: 'readNamespacedLease',
    ours: (c) => readNamespacedLease(c, { namespace: NS, name: NAME, pretty: false }),
    theirs: (api) => api.readNamespacedLease({ namespace: NS, name: NAME, pretty: 'false' }),
  },

  // replaceNamespacedLease
  {
    name: 'replaceNamespacedLease: every query parameter',
    operation: 'replaceNamespacedLease',
    ours: (c) =>
      replaceNamespacedLease(c, {
        namespace: NS,
        name: NAME,
        body: { ...minimalOurs, metadata: { name: NAME, resourceVersion: '4242' } },
        dryRun: 'All',
        fieldManager: 'leader-elector',
        fieldValidation: 'Warn',
        pretty: true,
      }),
    theirs: (api) =>
      api.replaceNamespacedLease({
        namespace: NS,
        name: NAME,
        body: { ...minimalTheirs, metadata: { name: NAME, resourceVersion: '4242' } },
        dryRun: 'All',
        fieldManager: 'leader-elector',
        fieldValidation: 'Warn',
        pretty: 'true',
      }),
  },
  {
    name: 'replaceNamespacedLease: read-modify-write body with Time and MicroTime values',
    operation: 'replaceNamespacedLease',
    ours: (c) => replaceNamespacedLease(c, { namespace: NS, name: NAME, body: readBackOurs() }),
    theirs: (api) => api.replaceNamespacedLease({ namespace: NS, name: NAME, body: readBackTheirs() }),
  },

  // patchNamespacedLease: client-node picks the patch Content-Type through its middleware options.
  {
    name: 'patchNamespacedLease: json patch',
    operation: 'patchNamespacedLease',
    ours: (c) =>
      patchNamespacedLease(c, { namespace: NS, name: NAME, patch: { type: 'json', operations: JSON_PATCH_OPS } }),
    theirs: (api) =>
      api.patchNamespacedLease(
        { namespace: NS, name: NAME, body: JSON_PATCH_OPS },
        viaContentType(PatchStrategy.JsonPatch),
      ),
  },
  {
    name: 'patchNamespacedLease: json patch, client-node default Content-Type',
    operation: 'patchNamespacedLease',
    ours: (c) =>
      patchNamespacedLease(c, { namespace: NS, name: NAME, patch: { type: 'json', operations: JSON_PATCH_OPS } }),
    theirs: (api) => api.patchNamespacedLease({ namespace: NS, name: NAME, body: JSON_PATCH_OPS }),
  },
  {
    name: 'patchNamespacedLease: merge patch with null and MicroTime',
    operation: 'patchNamespacedLease',
    ours: (c) =>
      patchNamespacedLease(c, {
        namespace: NS,
        name: NAME,
        patch: {
          type: 'merge',
          body: {
            metadata: { labels: { stale: null } },
            spec: { holderIdentity: null, renewTime: asMicroTime(RENEW) },
          },
        },
      }),
    theirs: (api) =>
      api.patchNamespacedLease(
        {
          namespace: NS,
          name: NAME,
          body: { metadata: { labels: { stale: null } }, spec: { holderIdentity: null, renewTime: RENEW } },
        },
        viaContentType(PatchStrategy.MergePatch),
      ),
  },
  {
    name: 'patchNamespacedLease: merge patch, client-node without Content-Type option',
    operation: 'patchNamespacedLease',
    ours: (c) =>
      patchNamespacedLease(c, {
        namespace: NS,
        name: NAME,
        patch: { type: 'merge', body: { spec: { holderIdentity: 'node-b' } } },
      }),
    theirs: (api) =>
      api.patchNamespacedLease({ namespace: NS, name: NAME, body: { spec: { holderIdentity: 'node-b' } } }),
  },
  {
    name: 'patchNamespacedLease: merge patch with every query parameter',
    operation: 'patchNamespacedLease',
    ours: (c) =>
      patchNamespacedLease(c, {
        namespace: NS,
        name: NAME,
        patch: { type: 'merge', body: { spec: { leaseDurationSeconds: 0 } } },
        dryRun: 'All',
        fieldManager: 'leader-elector',
        fieldValidation: 'Ignore',
        pretty: false,
      }),
    theirs: (api) =>
      api.patchNamespacedLease(
        {
          namespace: NS,
          name: NAME,
          body: { spec: { leaseDurationSeconds: 0 } },
          dryRun: 'All',
          fieldManager: 'leader-elector',
          fieldValidation: 'Ignore',
          pretty: 'false',
        },
        viaContentType(PatchStrategy.MergePatch),
      ),
  },
  {
    name: 'patchNamespacedLease: strategic merge patch',
    operation: 'patchNamespacedLease',
    ours: (c) =>
      patchNamespacedLease(c, {
        namespace: NS,
        name: NAME,
        patch: { type: 'strategic', body: { $patch: 'merge', metadata: { ownerReferences: [OWNER] } } },
      }),
    theirs: (api) =>
      api.patchNamespacedLease(
        { namespace: NS, name: NAME, body: { $patch: 'merge', metadata: { ownerReferences: [OWNER] } } },
        viaContentType(PatchStrategy.StrategicMergePatch),
      ),
  },
  {
    name: 'patchNamespacedLease: apply with force true',
    operation: 'patchNamespacedLease',
    ours: (c) =>
      patchNamespacedLease(c, {
        namespace: NS,
        name: NAME,
        patch: { type: 'apply', body: APPLY_BODY },
        fieldManager: 'leader-elector',
        force: true,
      }),
    theirs: (api) =>
      api.patchNamespacedLease(
        { namespace: NS, name: NAME, body: APPLY_BODY, fieldManager: 'leader-elector', force: true },
        viaContentType(PatchStrategy.ServerSideApply),
      ),
  },
  {
    name: 'patchNamespacedLease: apply with force false, dryRun, fieldValidation Strict, pretty',
    operation: 'patchNamespacedLease',
    ours: (c) =>
      patchNamespacedLease(c, {
        namespace: NS,
        name: NAME,
        patch: { type: 'apply', body: APPLY_BODY },
        fieldManager: 'leader-elector',
        force: false,
        dryRun: 'All',
        fieldValidation: 'Strict',
        pretty: true,
      }),
    theirs: (api) =>
      api.patchNamespacedLease(
        {
          namespace: NS,
          name: NAME,
          body: APPLY_BODY,
          fieldManager: 'leader-elector',
          force: false,
          dryRun: 'All',
          fieldValidation: 'Strict',
          pretty: 'true',
        },
        viaContentType(PatchStrategy.ServerSideApply),
      ),
  },

  // deleteNamespacedLease
  {
    name: 'deleteNamespacedLease: no params, no body',
    operation: 'deleteNamespacedLease',
    ours: (c) => deleteNamespacedLease(c, { namespace: NS, name: NAME }),
    theirs: (api) => api.deleteNamespacedLease({ namespace: NS, name: NAME }),
  },
  {
    name: 'deleteNamespacedLease: preconditions body',
    operation: 'deleteNamespacedLease',
    ours: (c) => deleteNamespacedLease(c, { namespace: NS, name: NAME, body: { preconditions: PRECONDITIONS } }),
    theirs: (api) => api.deleteNamespacedLease({ namespace: NS, name: NAME, body: { preconditions: PRECONDITIONS } }),
  },
  {
    name: 'deleteNamespacedLease: every query parameter, gracePeriodSeconds 0, no body',
    operation: 'deleteNamespacedLease',
    ours: (c) =>
      deleteNamespacedLease(c, {
        namespace: NS,
        name: NAME,
        dryRun: 'All',
        gracePeriodSeconds: 0,
        ignoreStoreReadErrorWithClusterBreakingPotential: true,
        orphanDependents: false,
        pretty: true,
        propagationPolicy: 'Foreground',
      }),
    theirs: (api) =>
      api.deleteNamespacedLease({
        namespace: NS,
        name: NAME,
        dryRun: 'All',
        gracePeriodSeconds: 0,
        ignoreStoreReadErrorWithClusterBreakingPotential: true,
        orphanDependents: false,
        pretty: 'true',
        propagationPolicy: 'Foreground',
      }),
  },
  {
    name: 'deleteNamespacedLease: query parameters and a full DeleteOptions body',
    operation: 'deleteNamespacedLease',
    ours: (c) =>
      deleteNamespacedLease(c, {
        namespace: NS,
        name: NAME,
        gracePeriodSeconds: 30,
        propagationPolicy: 'Orphan',
        orphanDependents: true,
        ignoreStoreReadErrorWithClusterBreakingPotential: false,
        pretty: false,
        body: {
          apiVersion: 'v1',
          kind: 'DeleteOptions',
          dryRun: ['All'],
          gracePeriodSeconds: 0,
          propagationPolicy: 'Background',
          ignoreStoreReadErrorWithClusterBreakingPotential: false,
          preconditions: PRECONDITIONS,
        },
      }),
    theirs: (api) =>
      api.deleteNamespacedLease({
        namespace: NS,
        name: NAME,
        gracePeriodSeconds: 30,
        propagationPolicy: 'Orphan',
        orphanDependents: true,
        ignoreStoreReadErrorWithClusterBreakingPotential: false,
        pretty: 'false',
        body: {
          apiVersion: 'v1',
          kind: 'DeleteOptions',
          dryRun: ['All'],
          gracePeriodSeconds: 0,
          propagationPolicy: 'Background',
          ignoreStoreReadErrorWithClusterBreakingPotential: false,
          preconditions: PRECONDITIONS,
        },
      }),
  },

  // deleteCollectionNamespacedLease
  {
    name: 'deleteCollectionNamespacedLease: no params, no body',
    operation: 'deleteCollectionNamespacedLease',
    ours: (c) => deleteCollectionNamespacedLease(c, { namespace: NS }),
    theirs: (api) => api.deleteCollectionNamespacedLease({ namespace: NS }),
  },
  {
    name: 'deleteCollectionNamespacedLease: every query parameter, zeros and false, with body',
    operation: 'deleteCollectionNamespacedLease',
    ours: (c) =>
      deleteCollectionNamespacedLease(c, {
        namespace: NS,
        continue: CONTINUE,
        dryRun: 'All',
        fieldSelector: FIELD_SELECTOR,
        gracePeriodSeconds: 0,
        ignoreStoreReadErrorWithClusterBreakingPotential: false,
        labelSelector: LABEL_SELECTOR,
        limit: 0,
        orphanDependents: false,
        pretty: false,
        propagationPolicy: 'Background',
        resourceVersion: '0',
        resourceVersionMatch: 'NotOlderThan',
        sendInitialEvents: false,
        timeoutSeconds: 0,
        body: { preconditions: PRECONDITIONS, propagationPolicy: 'Background' },
      }),
    theirs: (api) =>
      api.deleteCollectionNamespacedLease({
        namespace: NS,
        _continue: CONTINUE,
        dryRun: 'All',
        fieldSelector: FIELD_SELECTOR,
        gracePeriodSeconds: 0,
        ignoreStoreReadErrorWithClusterBreakingPotential: false,
        labelSelector: LABEL_SELECTOR,
        limit: 0,
        orphanDependents: false,
        pretty: 'false',
        propagationPolicy: 'Background',
        resourceVersion: '0',
        resourceVersionMatch: 'NotOlderThan',
        sendInitialEvents: false,
        timeoutSeconds: 0,
        body: { preconditions: PRECONDITIONS, propagationPolicy: 'Background' },
      }),
  },
  {
    name: 'deleteCollectionNamespacedLease: booleans true, no body',
    operation: 'deleteCollectionNamespacedLease',
    ours: (c) =>
      deleteCollectionNamespacedLease(c, {
        namespace: NS,
        ignoreStoreReadErrorWithClusterBreakingPotential: true,
        orphanDependents: true,
        pretty: true,
        sendInitialEvents: true,
        propagationPolicy: 'Orphan',
        gracePeriodSeconds: 10,
        limit: 100,
        timeoutSeconds: 60,
      }),
    theirs: (api) =>
      api.deleteCollectionNamespacedLease({
        namespace: NS,
        ignoreStoreReadErrorWithClusterBreakingPotential: true,
        orphanDependents: true,
        pretty: 'true',
        sendInitialEvents: true,
        propagationPolicy: 'Orphan',
        gracePeriodSeconds: 10,
        limit: 100,
        timeoutSeconds: 60,
      }),
  },

  // An older release subpath: same runtime, 1.30 operation set (no ignoreStoreReadErrorWithClusterBreakingPotential).
  {
    name: 'v1.30 getAPIResources',
    operation: 'getAPIResources',
    ours: (c) => v1_30.getAPIResources(c),
    theirs: (api) => api.getAPIResources(),
  },
  {
    name: 'v1.30 listNamespacedLease: every query parameter',
    operation: 'listNamespacedLease',
    ours: (c) =>
      v1_30.listNamespacedLease(c, {
        namespace: NS,
        continue: CONTINUE,
        fieldSelector: FIELD_SELECTOR,
        labelSelector: LABEL_SELECTOR,
        limit: 0,
        pretty: false,
        resourceVersion: '4242',
        resourceVersionMatch: 'Exact',
        timeoutSeconds: 0,
      }),
    theirs: (api) =>
      api.listNamespacedLease({
        namespace: NS,
        _continue: CONTINUE,
        fieldSelector: FIELD_SELECTOR,
        labelSelector: LABEL_SELECTOR,
        limit: 0,
        pretty: 'false',
        resourceVersion: '4242',
        resourceVersionMatch: 'Exact',
        timeoutSeconds: 0,
      }),
  },
  {
    name: 'v1.30 createNamespacedLease: MicroTimes with microseconds',
    operation: 'createNamespacedLease',
    ours: (c) =>
      v1_30.createNamespacedLease(c, {
        namespace: NS,
        body: oursLease(ACQUIRE, RENEW),
        dryRun: 'All',
        fieldValidation: 'Strict',
      }),
    theirs: (api) =>
      api.createNamespacedLease({
        namespace: NS,
        body: theirsLease(new V1MicroTime(ACQUIRE), new V1MicroTime(RENEW)),
        dryRun: 'All',
        fieldValidation: 'Strict',
      }),
  },
  {
    name: 'v1.30 readNamespacedLease: pretty true',
    operation: 'readNamespacedLease',
    ours: (c) => v1_30.readNamespacedLease(c, { namespace: NS, name: NAME, pretty: true }),
    theirs: (api) => api.readNamespacedLease({ namespace: NS, name: NAME, pretty: 'true' }),
  },
  {
    name: 'v1.30 replaceNamespacedLease: read-modify-write body with Time and MicroTime values',
    operation: 'replaceNamespacedLease',
    ours: (c) =>
      v1_30.replaceNamespacedLease(c, {
        namespace: NS,
        name: NAME,
        body: readBackOurs(),
        fieldManager: 'leader-elector',
      }),
    theirs: (api) =>
      api.replaceNamespacedLease({ namespace: NS, name: NAME, body: readBackTheirs(), fieldManager: 'leader-elector' }),
  },
  {
    name: 'v1.30 patchNamespacedLease: apply with force',
    operation: 'patchNamespacedLease',
    ours: (c) =>
      v1_30.patchNamespacedLease(c, {
        namespace: NS,
        name: NAME,
        patch: { type: 'apply', body: APPLY_BODY },
        fieldManager: 'leader-elector',
        force: true,
      }),
    theirs: (api) =>
      api.patchNamespacedLease(
        { namespace: NS, name: NAME, body: APPLY_BODY, fieldManager: 'leader-elector', force: true },
        viaContentType(PatchStrategy.ServerSideApply),
      ),
  },
  {
    name: 'v1.30 patchNamespacedLease: strategic merge patch',
    operation: 'patchNamespacedLease',
    ours: (c) =>
      v1_30.patchNamespacedLease(c, {
        namespace: NS,
        name: NAME,
        patch: { type: 'strategic', body: { metadata: { ownerReferences: [OWNER] } } },
        dryRun: 'All',
      }),
    theirs: (api) =>
      api.patchNamespacedLease(
        { namespace: NS, name: NAME, body: { metadata: { ownerReferences: [OWNER] } }, dryRun: 'All' },
        viaContentType(PatchStrategy.StrategicMergePatch),
      ),
  },
  {
    name: 'v1.30 deleteNamespacedLease: preconditions body, propagationPolicy, gracePeriodSeconds 0',
    operation: 'deleteNamespacedLease',
    ours: (c) =>
      v1_30.deleteNamespacedLease(c, {
        namespace: NS,
        name: NAME,
        gracePeriodSeconds: 0,
        propagationPolicy: 'Background',
        body: { preconditions: PRECONDITIONS },
      }),
    theirs: (api) =>
      api.deleteNamespacedLease({
        namespace: NS,
        name: NAME,
        gracePeriodSeconds: 0,
        propagationPolicy: 'Background',
        body: { preconditions: PRECONDITIONS },
      }),
  },
  {
    name: 'v1.30 deleteCollectionNamespacedLease: no params, no body',
    operation: 'deleteCollectionNamespacedLease',
    ours: (c) => v1_30.deleteCollectionNamespacedLease(c, { namespace: NS }),
    theirs: (api) => api.deleteCollectionNamespacedLease({ namespace: NS }),
  },
];

// ---------------------------------------------------------------------------
// Deliberate differences on the wire: the only ones allowed, each asserted.
// ---------------------------------------------------------------------------

interface DeliberateDifference {
  operation: Operation | readonly Operation[];
  /** The case names it shows up in; omitted: every case of the operation(s). */
  cases?: readonly string[];
  field: string;
  ours: string;
  theirs: string;
  why: string;
}

const SELECTOR_CASES = [
  'listLeaseForAllNamespaces: every query parameter',
  'listNamespacedLease: every query parameter',
  'deleteCollectionNamespacedLease: every query parameter, zeros and false, with body',
  'v1.30 listNamespacedLease: every query parameter',
] as const;
const MICROSECOND_CASES = [
  'createNamespacedLease: MicroTimes with microseconds',
  'v1.30 createNamespacedLease: MicroTimes with microseconds',
  'replaceNamespacedLease: read-modify-write body with Time and MicroTime values',
  'v1.30 replaceNamespacedLease: read-modify-write body with Time and MicroTime values',
] as const;
const READ_BACK_CASES = [
  'replaceNamespacedLease: read-modify-write body with Time and MicroTime values',
  'v1.30 replaceNamespacedLease: read-modify-write body with Time and MicroTime values',
] as const;
const BODILESS_DELETE_CASES = [
  'deleteNamespacedLease: no params, no body',
  'deleteNamespacedLease: every query parameter, gracePeriodSeconds 0, no body',
  'deleteCollectionNamespacedLease: no params, no body',
  'deleteCollectionNamespacedLease: booleans true, no body',
  'v1.30 deleteCollectionNamespacedLease: no params, no body',
] as const;

const WHY_QUERY_ENCODING =
  "Same decoded value, different escaping. Ours uses encodeURIComponent (space as %20; ( ) ! ~ * ' left literal, all RFC 3986 sub-delims/unreserved that are legal in a query); client-node uses URLSearchParams (application/x-www-form-urlencoded: space as +, ( ) ! ~ ' escaped). The API server decodes both with Go url.ParseQuery to the identical selector, so this is cosmetic; ours avoids the + ambiguity and a URLSearchParams allocation per request.";
const WHY_MICROTIME =
  'MicroTime is kept as its exact wire string in our models, so microseconds survive read-modify-write and are sent verbatim. client-node types MicroTime as V1MicroTime, a Date subclass: the value is truncated to milliseconds on construction and written back as .SSS000Z, silently changing acquireTime/renewTime on every write.';
const WHY_PLAIN_DATE =
  'client-node accepts any Date where a MicroTime is expected (V1MicroTime is structurally a Date) and serialises a plain Date with Date#toISOString, i.e. three fractional digits. The API server parses MicroTime with Go layout RFC3339Micro (.000000, exactly six digits), which rejects this value. Ours only takes a branded MicroTime string (asMicroTime/formatMicroTime validate six digits).';
const WHY_TIME =
  "metav1.Time is kept as the server's exact RFC 3339 string (second precision), so a read-modify-write sends back what was read. client-node deserialises Time into Date and re-serialises with toISOString, adding .000; the server accepts both (Go RFC3339 parsing allows a fraction), so the value is equal but the bytes are not.";

const DELIBERATE_DIFFERENCES: readonly DeliberateDifference[] = [
  {
    operation: 'getAPIResources',
    field: 'path',
    ours: '/apis/coordination.k8s.io/v1/',
    theirs: '/apis/coordination.k8s.io/v1',
    why: 'Ours sends the path exactly as the OpenAPI document declares it (with the trailing slash). client-node builds the same path but its RequestContext.getUrl() strips a trailing "/" whenever there is no query string. The API server answers the discovery document on both forms (client-go discovery itself requests the form without the slash).',
  },
  {
    operation: ['listLeaseForAllNamespaces', 'listNamespacedLease', 'deleteCollectionNamespacedLease'],
    cases: SELECTOR_CASES,
    field: 'query.labelSelector (raw encoding)',
    ours: 'app%20in%20(a%2Cb)%2Ctier!%3Dx',
    theirs: 'app+in+%28a%2Cb%29%2Ctier%21%3Dx',
    why: WHY_QUERY_ENCODING,
  },
  {
    operation: ['listLeaseForAllNamespaces', 'listNamespacedLease', 'deleteCollectionNamespacedLease'],
    cases: SELECTOR_CASES,
    field: 'query.fieldSelector (raw encoding)',
    ours: 'metadata.name!%3Dkube-scheduler',
    theirs: 'metadata.name%21%3Dkube-scheduler',
    why: WHY_QUERY_ENCODING,
  },
  {
    operation: 'listNamespacedLease',
    cases: ['listNamespacedLease: non-ASCII, plus and slash in selectors'],
    field: 'query.labelSelector (raw encoding)',
    ours: 'team%3Dcaf%C3%A9%2Cenv%20notin%20(prod%2Cstage)',
    theirs: 'team%3Dcaf%C3%A9%2Cenv+notin+%28prod%2Cstage%29',
    why: WHY_QUERY_ENCODING,
  },
  {
    operation: ['createNamespacedLease', 'replaceNamespacedLease'],
    cases: MICROSECOND_CASES,
    field: 'body.spec.acquireTime',
    ours: JSON.stringify(ACQUIRE),
    theirs: '"2024-05-01T12:00:00.123000Z"',
    why: WHY_MICROTIME,
  },
  {
    operation: ['createNamespacedLease', 'replaceNamespacedLease'],
    cases: MICROSECOND_CASES,
    field: 'body.spec.renewTime',
    ours: JSON.stringify(RENEW),
    theirs: '"2024-05-01T12:00:05.654000Z"',
    why: WHY_MICROTIME,
  },
  {
    operation: 'createNamespacedLease',
    cases: ['createNamespacedLease: client-node given plain Dates as MicroTimes'],
    field: 'body.spec.acquireTime',
    ours: JSON.stringify(ACQUIRE_WHOLE_MS),
    theirs: '"2024-05-01T12:00:00.123Z"',
    why: WHY_PLAIN_DATE,
  },
  {
    operation: 'createNamespacedLease',
    cases: ['createNamespacedLease: client-node given plain Dates as MicroTimes'],
    field: 'body.spec.renewTime',
    ours: JSON.stringify(ACQUIRE_WHOLE_MS),
    theirs: '"2024-05-01T12:00:00.123Z"',
    why: WHY_PLAIN_DATE,
  },
  {
    operation: 'replaceNamespacedLease',
    cases: READ_BACK_CASES,
    field: 'body.metadata.creationTimestamp',
    ours: JSON.stringify(CREATED),
    theirs: '"2024-05-01T11:00:00.000Z"',
    why: WHY_TIME,
  },
  {
    operation: 'replaceNamespacedLease',
    cases: READ_BACK_CASES,
    field: 'body.metadata.managedFields[0].time',
    ours: JSON.stringify(MANAGED_AT),
    theirs: '"2024-05-01T11:30:00.000Z"',
    why: WHY_TIME,
  },
  {
    operation: 'patchNamespacedLease',
    cases: ['patchNamespacedLease: merge patch, client-node without Content-Type option'],
    field: 'content-type',
    ours: 'application/merge-patch+json',
    theirs: 'application/json-patch+json',
    why: "Ours derives the Content-Type from the patch argument's type, so the body is always read as what it is. client-node's patchNamespacedLease takes an untyped body and, unless the caller adds setHeaderOptions('Content-Type', PatchStrategy.X) middleware, sends the first media type of the spec list (application/json-patch+json) via ObjectSerializer.getPreferredMediaType; a merge body sent under that type fails on the server (it is not a JSON-patch operation list). With the option set (every other patch case here) the two agree byte for byte.",
  },
  {
    operation: ['deleteNamespacedLease', 'deleteCollectionNamespacedLease'],
    cases: BODILESS_DELETE_CASES,
    field: 'content-type',
    ours: ABSENT,
    theirs: 'application/json',
    why: 'With no DeleteOptions body there is nothing to describe: ours sends no body and no Content-Type. client-node always sets Content-Type: application/json on operations that declare a body parameter, even when the body is undefined and nothing is sent. The server ignores Content-Type on an empty body.',
  },
];

// ---------------------------------------------------------------------------
// Differences in what each API accepts (not on the wire). Each is asserted at
// the type level in the last test below (checked by `tsc`; a no-op at run time).
// ---------------------------------------------------------------------------

interface AcceptedParameterDifference {
  operation: Operation | readonly Operation[] | 'all';
  parameter: string;
  ours: string;
  theirs: string;
  why: string;
}

const ACCEPTED_PARAMETER_DIFFERENCES: readonly AcceptedParameterDifference[] = [
  {
    operation: ['listLeaseForAllNamespaces', 'listNamespacedLease'],
    parameter: 'watch, allowWatchBookmarks, sendInitialEvents',
    ours: 'not accepted',
    theirs: 'accepted (boolean)',
    why: 'Our list functions return Promise<LeaseList>; with watch=true the server answers with an open-ended stream of watch events instead, which such a function cannot honestly type. Watching is a separate, streaming concern: the generated watch functions (watchNamespacedLeases, …). deleteCollectionNamespacedLease still accepts sendInitialEvents in both, as the spec lists it there.',
  },
  {
    operation: ['listLeaseForAllNamespaces', 'listNamespacedLease', 'deleteCollectionNamespacedLease'],
    parameter: 'continue',
    ours: 'continue',
    theirs: '_continue',
    why: 'Ours keeps the wire name (a reserved word is a valid property name); client-node renames it. Same query key on the wire.',
  },
  {
    operation: 'all',
    parameter: 'pretty',
    ours: 'boolean',
    theirs: 'string',
    why: 'The server parses pretty with strconv.ParseBool; ours takes a boolean and writes true/false, client-node passes whatever string it is given. Same bytes for true/false.',
  },
  {
    operation: 'all',
    parameter: 'dryRun, fieldValidation, propagationPolicy, resourceVersionMatch',
    ours: "string literal unions ('All'; 'Ignore' | 'Strict' | 'Warn'; 'Background' | 'Foreground' | 'Orphan'; 'Exact' | 'NotOlderThan')",
    theirs: 'string',
    why: 'Ours types the values the spec documents, so a typo is a compile error instead of a 400.',
  },
  {
    operation: 'patchNamespacedLease',
    parameter: 'patch type / Content-Type',
    ours: "patch: { type: 'json' | 'merge' | 'strategic' | 'apply', … } picks the Content-Type",
    theirs:
      "body: any; Content-Type via setHeaderOptions('Content-Type', PatchStrategy.X) (default application/json-patch+json)",
    why: 'See the content-type row of DELIBERATE_DIFFERENCES: the body and its media type cannot disagree in ours.',
  },
  {
    operation: 'patchNamespacedLease',
    parameter: 'fieldManager, force',
    ours: "fieldManager required and force allowed only when patch.type is 'apply'",
    theirs: 'both optional for every patch',
    why: 'The server rejects apply without fieldManager and force on non-apply patches (422/400); ours makes both compile errors.',
  },
  {
    operation: ['createNamespacedLease', 'replaceNamespacedLease'],
    parameter: 'body.spec.acquireTime / renewTime (MicroTime), metadata Time fields',
    ours: 'branded strings MicroTime / Time (exact wire text)',
    theirs: 'V1MicroTime (a Date subclass) / Date',
    why: 'See the MicroTime and Time rows of DELIBERATE_DIFFERENCES. (client-node also does not convert these on responses: its ObjectSerializer leaves V1MicroTime values as the received strings despite the Date type.)',
  },
];

/**
 * Headers deliberately not compared (see ./wire.ts): Accept (ours
 * `application/json`, client-node `application/json, *\/*;q=0.8`),
 * User-Agent (undici vs node-fetch), Host, Connection and Content-Length.
 */

// ---------------------------------------------------------------------------
// The test
// ---------------------------------------------------------------------------

let server: RecordingServer;
let client: Client;
let api: CoordinationV1Api;
const orderReport: string[] = [];

beforeAll(async () => {
  server = await startPlausibleApiServer();
  client = createClient({ baseUrl: server.baseUrl });
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'loopback', server: server.baseUrl, skipTLSVerify: true }],
    users: [{ name: 'anonymous' }],
    contexts: [{ name: 'loopback', cluster: 'loopback', user: 'anonymous' }],
    currentContext: 'loopback',
  });
  api = kubeConfig.makeApiClient(CoordinationV1Api);
});

afterAll(async () => {
  await server?.close();
  if (process.env['DIFFERENTIAL_REPORT'] !== undefined && orderReport.length > 0) {
    console.info(`Query parameters sent in a different order (allowed):\n${orderReport.join('\n')}`);
  }
});

/** Runs one call; returns the single request it sent and what the call resolved to. */
async function captureOne(run: () => Promise<unknown>): Promise<{ wire: WireRequest; result: unknown }> {
  server.take();
  const result = await run();
  const requests = server.take();
  expect(requests).toHaveLength(1);
  const [request] = requests;
  if (request === undefined) throw new Error('no request recorded');
  return { wire: toWire(request), result };
}

function expectedFor(testCase: Case): WireDifference[] {
  return DELIBERATE_DIFFERENCES.filter((d) => appliesTo(d, testCase)).map(({ field, ours, theirs }) => ({
    field,
    ours,
    theirs,
  }));
}

function appliesTo(d: DeliberateDifference, testCase: Case): boolean {
  const operations: readonly Operation[] = typeof d.operation === 'string' ? [d.operation] : d.operation;
  return operations.includes(testCase.operation) && (d.cases === undefined || d.cases.includes(testCase.name));
}

const byField = (a: WireDifference, b: WireDifference): number => a.field.localeCompare(b.field);

describe('differential: generated client vs @kubernetes/client-node CoordinationV1Api', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, testCase) => {
    const { wire: ours, result: oursResult } = await captureOne(() => testCase.ours(client));
    const { wire: theirs, result: theirsResult } = await captureOne(() => testCase.theirs(api));
    // Both succeeded against the same canned answer and got the same kind of object back.
    expect(kindOf(oursResult)).toBeDefined();
    expect(kindOf(oursResult)).toBe(kindOf(theirsResult));
    if (queryOrderDiffers(ours, theirs))
      orderReport.push(`  ${testCase.name}: ours ${ours.queryOrder.join(',')} | theirs ${theirs.queryOrder.join(',')}`);
    const actual = compareWire(ours, theirs).sort(byField);
    if (process.env['DIFFERENTIAL_DEBUG'] !== undefined && actual.length > 0) console.info(testCase.name, actual);
    expect(actual).toEqual(expectedFor(testCase).sort(byField));
  });

  it('client-node hands MicroTimes back as the received string, not the V1MicroTime (Date) it declares', async () => {
    const lease = await api.readNamespacedLease({ namespace: NS, name: NAME });
    const ours = await readNamespacedLease(client, { namespace: NS, name: NAME });
    expect(typeof lease.spec?.acquireTime).toBe('string');
    expect(lease.spec?.acquireTime).toBe('2024-05-01T12:00:00.123456Z');
    expect(ours.spec?.acquireTime).toBe('2024-05-01T12:00:00.123456Z');
    server.take();
  });

  it('covers every operation', () => {
    const operations = new Set(CASES.map((c) => c.operation));
    expect([...operations].sort()).toEqual(
      [
        'createNamespacedLease',
        'deleteCollectionNamespacedLease',
        'deleteNamespacedLease',
        'getAPIResources',
        'listLeaseForAllNamespaces',
        'listNamespacedLease',
        'patchNamespacedLease',
        'readNamespacedLease',
        'replaceNamespacedLease',
      ].sort(),
    );
  });

  it('has unique case names, and every listed difference names existing cases and applies somewhere', () => {
    const names = CASES.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    for (const d of DELIBERATE_DIFFERENCES) {
      for (const name of d.cases ?? []) {
        const found = CASES.find((c) => c.name === name);
        expect(found, `${d.field}: unknown case ${name}`).toBeDefined();
        if (found !== undefined)
          expect(appliesTo(d, found), `${d.field}: case ${name} is not a ${String(d.operation)} case`).toBe(true);
      }
      expect(
        CASES.some((c) => appliesTo(d, c)),
        `${d.field} applies to no case`,
      ).toBe(true);
      expect(d.ours, `${d.field}: ours and theirs must differ`).not.toBe(d.theirs);
    }
  });

  it('accepted-parameter differences hold at the type level', () => {
    // Watch-only parameters: not accepted by our list functions, accepted by client-node's.
    expectTypeOf<ListNamespacedLeaseParams>().not.toHaveProperty('watch');
    expectTypeOf<ListNamespacedLeaseParams>().not.toHaveProperty('allowWatchBookmarks');
    expectTypeOf<ListNamespacedLeaseParams>().not.toHaveProperty('sendInitialEvents');
    expectTypeOf<ListLeaseForAllNamespacesParams>().not.toHaveProperty('watch');
    expectTypeOf<ListLeaseForAllNamespacesParams>().not.toHaveProperty('allowWatchBookmarks');
    expectTypeOf<ListLeaseForAllNamespacesParams>().not.toHaveProperty('sendInitialEvents');
    expectTypeOf<v1_30.ListNamespacedLeaseParams>().not.toHaveProperty('watch');
    expectTypeOf<CoordinationV1ApiListNamespacedLeaseRequest>().toHaveProperty('watch');
    expectTypeOf<CoordinationV1ApiListNamespacedLeaseRequest>().toHaveProperty('allowWatchBookmarks');
    expectTypeOf<CoordinationV1ApiListLeaseForAllNamespacesRequest>().toHaveProperty('sendInitialEvents');
    expectTypeOf<DeleteCollectionNamespacedLeaseParams>().toHaveProperty('sendInitialEvents');
    // continue vs _continue.
    expectTypeOf<ListNamespacedLeaseParams>().toHaveProperty('continue');
    expectTypeOf<CoordinationV1ApiListNamespacedLeaseRequest>().toHaveProperty('_continue');
    // pretty: boolean vs string.
    expectTypeOf<ReadNamespacedLeaseParams['pretty']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<CoordinationV1ApiReadNamespacedLeaseRequest['pretty']>().toEqualTypeOf<string | undefined>();
    // Literal unions vs string.
    expectTypeOf<CreateNamespacedLeaseParams['dryRun']>().toEqualTypeOf<'All' | undefined>();
    expectTypeOf<CoordinationV1ApiCreateNamespacedLeaseRequest['dryRun']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<DeleteNamespacedLeaseParams['propagationPolicy']>().toEqualTypeOf<
      'Background' | 'Foreground' | 'Orphan' | undefined
    >();
    expectTypeOf<CoordinationV1ApiDeleteNamespacedLeaseRequest['propagationPolicy']>().toEqualTypeOf<
      string | undefined
    >();
    // Patch: typed, discriminated argument vs an untyped body; fieldManager/force tied to apply.
    expectTypeOf<CoordinationV1ApiPatchNamespacedLeaseRequest['body']>().toBeAny();
    expectTypeOf<
      Extract<PatchNamespacedLeaseParams, { patch: { type: 'apply' } }>['fieldManager']
    >().toEqualTypeOf<string>();
    expectTypeOf<Extract<PatchNamespacedLeaseParams, { patch: { type: 'merge' } }>['force']>().toBeNever();
    expectTypeOf<CoordinationV1ApiPatchNamespacedLeaseRequest['fieldManager']>().toEqualTypeOf<string | undefined>();
    // MicroTime: branded string vs Date subclass.
    expectTypeOf<NonNullable<Lease['spec']>['acquireTime']>().toEqualTypeOf<MicroTime | undefined>();
    expectTypeOf<NonNullable<V1Lease['spec']>['acquireTime']>().toEqualTypeOf<V1MicroTime | undefined>();
    expect(ACCEPTED_PARAMETER_DIFFERENCES.length).toBeGreaterThan(0);
  });
});

function kindOf(value: unknown): unknown {
  return typeof value === 'object' && value !== null && 'kind' in value ? value.kind : undefined;
}
