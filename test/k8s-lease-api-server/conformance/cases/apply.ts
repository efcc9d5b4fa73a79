// Server-side apply and managedFields bookkeeping, as kube-apiserver's field manager
// (k8s.io/apimachinery/pkg/util/managedfields/internal) over structured-merge-diff answers them.
import { expect } from 'vitest';
import type { ConformanceCase, ConformanceStep } from '../case.js';

const LEASES = '/apis/coordination.k8s.io/v1/namespaces/{ns}/leases';
const APPLY = { 'Content-Type': 'application/apply-patch+yaml' };
const MERGE = { 'Content-Type': 'application/merge-patch+json' };

const lease = (name: string, spec: object, metadata: object = {}) => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name, ...metadata },
  spec,
});

const apply = (name: string, manager: string, body: object, expect?: ConformanceStep['expect'], force = false) => ({
  method: 'PATCH' as const,
  path: `${LEASES}/${name}?fieldManager=${manager}${force ? '&force=true' : ''}`,
  headers: APPLY,
  body,
  ...(expect === undefined ? {} : { expect }),
});

const mergePatch = (name: string, manager: string, body: object, expect?: ConformanceStep['expect']) => ({
  method: 'PATCH' as const,
  path: `${LEASES}/${name}?fieldManager=${manager}`,
  headers: MERGE,
  body,
  ...(expect === undefined ? {} : { expect }),
});

interface Entry {
  manager?: string;
  operation?: string;
  fieldsV1?: unknown;
}

/** The managedFields of a Lease response as [manager, operation, fieldsV1]. */
function entries(json: unknown): unknown[] {
  const meta = (json as { metadata?: { managedFields?: Entry[] } } | undefined)?.metadata;
  return (meta?.managedFields ?? []).map((e) => [e.manager, e.operation, e.fieldsV1]);
}

function managedFieldsOf(json: unknown): unknown {
  return (json as { metadata?: { managedFields?: unknown } } | undefined)?.metadata?.managedFields;
}

const createBy = (manager: string, body: object) => ({
  method: 'POST' as const,
  path: `${LEASES}?fieldManager=${manager}`,
  body,
  expect: { status: 201 },
});

const annotated = (name: string, annotations?: Record<string, string>) => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name, ...(annotations === undefined ? {} : { annotations }) },
});

export const cases: readonly ConformanceCase[] = [
  {
    name: 'an apply that creates answers 201 with one Apply entry listing the applied fields',
    source:
      'k8s.io/apimachinery/pkg/util/managedfields/internal/structuredmerge.go Apply + managedfields.go encodeManagedFields',
    steps: [
      apply('a', 'applier', lease('a', { holderIdentity: 'h' }, { labels: { x: '1' } }), {
        status: 201,
        check: (r) =>
          expect(entries(r.json)).toEqual([
            ['applier', 'Apply', { 'f:metadata': { 'f:labels': { 'f:x': {} } }, 'f:spec': { 'f:holderIdentity': {} } }],
          ]),
      }),
    ],
  },
  {
    name: 'an apply changing a field another manager owns is 409 naming the manager and the field',
    source: 'k8s.io/apimachinery/pkg/util/managedfields/internal/conflict.go NewConflictError',
    steps: [
      apply('c', 'alpha', lease('c', { holderIdentity: 'a' })),
      apply('c', 'beta', lease('c', { holderIdentity: 'b' }), {
        status: 409,
        json: {
          kind: 'Status',
          status: 'Failure',
          reason: 'Conflict',
          code: 409,
          message: 'Apply failed with 1 conflict: conflict with "alpha": .spec.holderIdentity',
          details: {
            causes: [
              { reason: 'FieldManagerConflict', message: 'conflict with "alpha"', field: '.spec.holderIdentity' },
            ],
          },
        },
      }),
    ],
  },
  {
    name: 'force=true takes the conflicting field from its owner',
    source:
      'sigs.k8s.io/structured-merge-diff merge/leaf_test.go TestUpdateLeaf apply_update_apply_with_conflict (ForceApply)',
    steps: [
      apply('f', 'alpha', lease('f', { holderIdentity: 'a', leaseDurationSeconds: 5 })),
      apply(
        'f',
        'beta',
        lease('f', { holderIdentity: 'b' }),
        {
          status: 200,
          json: { spec: { holderIdentity: 'b', leaseDurationSeconds: 5 } },
          check: (r) =>
            expect(entries(r.json)).toEqual([
              ['alpha', 'Apply', { 'f:spec': { 'f:leaseDurationSeconds': {} } }],
              ['beta', 'Apply', { 'f:spec': { 'f:holderIdentity': {} } }],
            ]),
        },
        true,
      ),
    ],
  },
  {
    name: 'an applier that applied `spec: {}` and then applies a field keeps what another manager owns',
    source:
      'sigs.k8s.io/structured-merge-diff typed/tofieldset.go (empty map is a member) + merge/update.go prune addBackOwnedItems',
    steps: [
      apply('e', 'applier', lease('e', {}), { status: 201 }),
      mergePatch('e', 'controller', { spec: { holderIdentity: 'h' } }),
      apply('e', 'applier', lease('e', { leaseDurationSeconds: 5 }), {
        status: 200,
        json: { spec: { holderIdentity: 'h', leaseDurationSeconds: 5 } },
      }),
    ],
  },
  {
    name: 'a field an applier stops applying is removed when nobody else owns it',
    source: 'kubernetes test/integration/apiserver/apply/apply_test.go TestApplyUnsetExclusivelyOwnedFields',
    steps: [
      apply('u', 'applier', lease('u', { holderIdentity: 'h', leaseDurationSeconds: 5 })),
      apply('u', 'applier', lease('u', { holderIdentity: 'h' }), {
        status: 200,
        json: { spec: { holderIdentity: 'h' } },
      }),
      {
        method: 'GET',
        path: `${LEASES}/u`,
        expect: { check: (r) => expect((r.json as { spec?: object }).spec).toEqual({ holderIdentity: 'h' }) },
      },
    ],
  },
  {
    name: 'a field an applier stops applying stays when another manager shares it',
    source: 'kubernetes test/integration/apiserver/apply/apply_test.go TestApplyUnsetSharedFields',
    steps: [
      apply('s', 'one', lease('s', { holderIdentity: 'h', leaseDurationSeconds: 5 })),
      apply('s', 'two', lease('s', { leaseDurationSeconds: 5 })),
      apply('s', 'one', lease('s', { holderIdentity: 'h' }), {
        status: 200,
        json: { spec: { holderIdentity: 'h', leaseDurationSeconds: 5 } },
      }),
    ],
  },
  {
    name: 'a PUT with managedFields [] clears them and later updates are not tracked',
    source: 'kubernetes test/integration/apiserver/apply/apply_test.go TestClearManagedFieldsWithUpdateEmptyList',
    steps: [
      apply('r', 'apply_test', lease('r', { holderIdentity: 'h' }, { labels: { 'test-label': 'test' } })),
      {
        method: 'PUT',
        path: `${LEASES}/r`,
        // Lease, unlike the test's ConfigMap, refuses an unconditional update: the PUT carries what the apply answered.
        body: lease(
          'r',
          { holderIdentity: 'h' },
          { labels: { 'test-label': 'test' }, managedFields: [], resourceVersion: '{prev.metadata.resourceVersion}' },
        ),
        expect: { status: 200, check: (r) => expect(managedFieldsOf(r.json)).toBeUndefined() },
      },
      mergePatch(
        'r',
        'editor',
        { metadata: { labels: { 'test-label': 'v1' } } },
        {
          status: 200,
          json: { metadata: { labels: { 'test-label': 'v1' } } },
          check: (r) => expect(managedFieldsOf(r.json)).toBeUndefined(),
        },
      ),
    ],
  },
  {
    name: 'a merge patch with managedFields [{}] clears them',
    source: 'kubernetes test/integration/apiserver/apply/apply_test.go TestClearManagedFieldsWithMergePatch',
    steps: [
      apply('m', 'apply_test', lease('m', { holderIdentity: 'h' })),
      mergePatch(
        'm',
        'editor',
        { metadata: { managedFields: [{}] } },
        {
          status: 200,
          check: (r) => expect(managedFieldsOf(r.json)).toBeUndefined(),
        },
      ),
    ],
  },
  {
    name: 'the first apply after tracking stopped conflicts with before-first-apply',
    source: 'k8s.io/apimachinery/pkg/util/managedfields/internal/skipnonapplied_test.go TestUpdateBeforeFirstApply',
    steps: [
      apply('b', 'applier', lease('b', {}, { labels: { app: 'my-nginx' } })),
      mergePatch('b', 'editor', { metadata: { managedFields: [] } }),
      mergePatch('b', 'editor', { metadata: { labels: { app: 'changed' } } }),
      apply('b', 'applier', lease('b', {}, { labels: { app: 'nginx' } }), {
        status: 409,
        json: {
          details: {
            causes: [
              {
                reason: 'FieldManagerConflict',
                message: 'conflict with "before-first-apply" using coordination.k8s.io/v1',
                field: '.metadata.labels.app',
              },
            ],
          },
        },
      }),
      apply(
        'b',
        'applier',
        lease('b', {}, { labels: { app: 'nginx' } }),
        {
          status: 200,
          check: (r) =>
            expect(entries(r.json).map((e) => (e as unknown[])[0])).toEqual(['applier', 'before-first-apply']),
        },
        true,
      ),
    ],
  },
  {
    name: 'an applied configuration carrying managedFields is 400',
    source:
      'k8s.io/apimachinery/pkg/util/managedfields/internal/structuredmerge.go Apply ("metadata.managedFields must be nil")',
    steps: [
      apply('x', 'applier', lease('x', {}, { managedFields: [] }), {
        status: 400,
        json: { reason: 'BadRequest', message: 'metadata.managedFields must be nil' },
      }),
    ],
  },
  {
    name: 'an applied configuration of another version is 400 invalid object type',
    source: 'k8s.io/apimachinery/pkg/util/managedfields/internal/versioncheck.go Apply',
    steps: [
      apply(
        'v',
        'applier',
        { ...lease('v', {}), apiVersion: 'coordination.k8s.io/v1beta1' },
        {
          status: 400,
          json: { reason: 'BadRequest', message: 'invalid object type: coordination.k8s.io/v1beta1, Kind=Lease' },
        },
      ),
    ],
  },
  {
    name: 'an applied configuration without kind is 400 invalid object type',
    source:
      'k8s.io/apimachinery/pkg/util/managedfields/internal/versioncheck.go Apply (schema.GroupVersionKind String)',
    steps: [
      apply(
        'k',
        'applier',
        { apiVersion: 'coordination.k8s.io/v1', metadata: { name: 'k' } },
        {
          status: 400,
          json: { reason: 'BadRequest', message: 'invalid object type: coordination.k8s.io/v1, Kind=' },
        },
      ),
    ],
  },
  {
    name: 'an applied configuration with an undeclared field is a reasonless 500, even with fieldValidation=Ignore',
    source:
      'k8s.io/apimachinery/pkg/util/managedfields/internal/structuredmerge.go Apply (ObjectToTyped of the patch) + apiserver responsewriters ErrorToAPIStatus',
    steps: [
      {
        method: 'PATCH',
        path: `${LEASES}/t?fieldManager=applier&fieldValidation=Ignore`,
        headers: APPLY,
        body: lease('t', { holderIdentity: 'h', bogus: true }),
        expect: {
          status: 500,
          json: {
            kind: 'Status',
            status: 'Failure',
            code: 500,
            message:
              'failed to create typed patch object (/t; coordination.k8s.io/v1, Kind=Lease): .spec.bogus: field not declared in schema',
          },
          check: (r) => expect((r.json as { reason?: string }).reason).toBeUndefined(),
        },
      },
    ],
  },
  {
    name: 'force on a merge patch is 422',
    source: 'k8s.io/apiserver/pkg/endpoints/handlers/patch.go PatchResource (ValidatePatchOptions)',
    steps: [
      {
        method: 'PATCH',
        path: `${LEASES}/x?fieldManager=m&force=true`,
        headers: MERGE,
        body: {},
        expect: {
          status: 422,
          json: {
            reason: 'Invalid',
            message:
              'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
          },
        },
      },
    ],
  },
  {
    name: 'an apply without fieldManager is 422',
    source: 'k8s.io/apiserver/pkg/endpoints/handlers/patch.go PatchResource (ValidatePatchOptions)',
    steps: [
      {
        method: 'PATCH',
        path: `${LEASES}/x`,
        headers: APPLY,
        body: lease('x', {}),
        expect: {
          status: 422,
          json: {
            message:
              'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
          },
        },
      },
    ],
  },
  {
    name: 'an update records an Update entry with the fields it changed',
    source:
      'k8s.io/apimachinery/pkg/util/managedfields/internal/managedfieldsupdater.go Update + structured-merge-diff merge/update.go Update',
    steps: [
      apply('w', 'applier', lease('w', { holderIdentity: 'h' })),
      mergePatch(
        'w',
        'editor',
        { metadata: { labels: { a: 'b' } }, spec: { leaseDurationSeconds: 9 } },
        {
          status: 200,
          check: (r) =>
            expect(entries(r.json)).toEqual([
              ['applier', 'Apply', { 'f:spec': { 'f:holderIdentity': {} } }],
              [
                'editor',
                'Update',
                { 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } }, 'f:spec': { 'f:leaseDurationSeconds': {} } },
              ],
            ]),
        },
      ),
    ],
  },
  {
    name: 'annotations emptied by an apply stay owned by their updater, so a third applier conflicts on the map',
    source:
      'sigs.k8s.io/structured-merge-diff typed/remove.go removingWalker.doMap (emptied map kept under its key) + merge/update.go Updater.update',
    // `u` creates with `a` by update, `p` applies `b`, `u` updates `a` away (owning the map itself, "."), `p` applies
    // without annotations, which empties the map: RemoveItems keeps it under its key (null before v6.3.1, {} from
    // it), so comparing the live object with the pruned one (Updater.update) removes nothing `u` owns.
    steps: [
      createBy('u', annotated('emptied', { a: 'x' })),
      apply('emptied', 'p', annotated('emptied', { b: 'x' })),
      mergePatch('emptied', 'u', { metadata: { annotations: { a: null } } }),
      apply('emptied', 'p', annotated('emptied'), {
        status: 200,
        check: (r) => expect(entries(r.json)).toEqual([['u', 'Update', { 'f:metadata': { 'f:annotations': {} } }]]),
      }),
      apply('emptied', 'q', annotated('emptied', { c: 'x' }), {
        status: 409,
        json: {
          reason: 'Conflict',
          message:
            'Apply failed with 1 conflict: conflict with "u" using coordination.k8s.io/v1: .metadata.annotations',
          details: {
            causes: [
              {
                reason: 'FieldManagerConflict',
                message: 'conflict with "u" using coordination.k8s.io/v1',
                field: '.metadata.annotations',
              },
            ],
          },
        },
      }),
    ],
  },
  {
    name: 'a spec emptied by an apply stays owned by the applier of `spec: {}`; a later applier of a spec field does not conflict',
    source:
      'sigs.k8s.io/structured-merge-diff typed/remove.go removingWalker.doMap + merge/update.go Updater.update; the live Lease always has spec (a struct)',
    steps: [
      apply('emptied-spec', 'u', lease('emptied-spec', {}), { status: 201 }),
      apply('emptied-spec', 'p', lease('emptied-spec', { holderIdentity: 'h' })),
      apply(
        'emptied-spec',
        'p',
        { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'emptied-spec' } },
        {
          status: 200,
          json: { spec: {} },
          check: (r) => expect(entries(r.json)).toEqual([['u', 'Apply', { 'f:spec': {} }]]),
        },
      ),
      // Comparing the live `spec: {}` with the merged spec adds only holderIdentity, which nobody owns.
      apply('emptied-spec', 'q', lease('emptied-spec', { holderIdentity: 'q' }), {
        status: 200,
        json: { spec: { holderIdentity: 'q' } },
      }),
    ],
  },
];
