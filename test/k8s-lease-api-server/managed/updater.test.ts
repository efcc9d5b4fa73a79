// structured-merge-diff's merge test tables, translated to Lease-shaped objects. Each case keeps the
// upstream operation sequence and expected object / managed sets / conflicts. Translation: SMD's
// leafFields (numeric, string, bool) → spec.leaseDurationSeconds, spec.holderIdentity,
// spec.preferredHolder; its set list of strings → metadata.finalizers (x-kubernetes-list-type: set);
// its list keyed by name → metadata.ownerReferences keyed by uid (whose items are atomic, so an item's
// own fields are not listed); its "struct" → spec.
import { describe, expect, it } from 'vitest';
import type { ManagedFields, UpdaterSchema } from '../../../templates/k8s-lease-api-server/src/managed/updater.js';
import { updaterApply } from '../../../templates/k8s-lease-api-server/src/managed/updater.js';
import type { SmdCase } from '../helpers/smd-harness.js';
import { LEASE_UPDATER, runCase } from '../helpers/smd-harness.js';

const N = '.spec.leaseDurationSeconds';
const S = '.spec.holderIdentity';
const B = '.spec.preferredHolder';
const spec = (fields: Record<string, string | number>) => ({ spec: fields });
const fin = (...names: string[]) => ({ metadata: { finalizers: names } });
const finPath = (name: string) => `.metadata.finalizers[="${name}"]`;
const owner = (uid: string) => ({ apiVersion: 'v1', kind: 'Pod', name: uid, uid });
const owners = (...uids: string[]) => ({ metadata: { ownerReferences: uids.map(owner) } });
const ownerPath = (uid: string) => `.metadata.ownerReferences[uid="${uid}"]`;

const LEAF = 'structured-merge-diff merge/leaf_test.go TestUpdateLeaf';
const SET = 'structured-merge-diff merge/set_test.go TestUpdateSet';
const MULTI = 'structured-merge-diff merge/multiple_appliers_test.go';

const cases: SmdCase[] = [
  {
    source: `${LEAF} apply_twice`,
    ops: [
      { op: 'apply', manager: 'default', object: spec({ leaseDurationSeconds: 1, holderIdentity: 'string' }) },
      {
        op: 'apply',
        manager: 'default',
        object: spec({ leaseDurationSeconds: 2, holderIdentity: 'string', preferredHolder: 'false' }),
      },
    ],
    object: spec({ leaseDurationSeconds: 2, holderIdentity: 'string', preferredHolder: 'false' }),
    managed: { default: [N, S, B] },
  },
  {
    source: `${LEAF} apply_update_apply_no_conflict`,
    ops: [
      { op: 'apply', manager: 'default', object: spec({ leaseDurationSeconds: 1, holderIdentity: 'string' }) },
      {
        op: 'update',
        manager: 'controller',
        object: spec({ leaseDurationSeconds: 1, holderIdentity: 'string', preferredHolder: 'true' }),
      },
      { op: 'apply', manager: 'default', object: spec({ leaseDurationSeconds: 2, holderIdentity: 'string' }) },
    ],
    object: spec({ leaseDurationSeconds: 2, holderIdentity: 'string', preferredHolder: 'true' }),
    managed: { default: [N, S], controller: [B] },
  },
  {
    source: `${LEAF} apply_update_apply_with_conflict`,
    ops: [
      { op: 'apply', manager: 'default', object: spec({ leaseDurationSeconds: 1, holderIdentity: 'string' }) },
      {
        op: 'update',
        manager: 'controller',
        object: spec({ leaseDurationSeconds: 1, holderIdentity: 'controller string', preferredHolder: 'true' }),
      },
      {
        op: 'apply',
        manager: 'default',
        object: spec({ leaseDurationSeconds: 2, holderIdentity: 'user string' }),
        conflicts: [`controller: ${S}`],
      },
      {
        op: 'forceApply',
        manager: 'default',
        object: spec({ leaseDurationSeconds: 2, holderIdentity: 'user string' }),
      },
    ],
    object: spec({ leaseDurationSeconds: 2, holderIdentity: 'user string', preferredHolder: 'true' }),
    managed: { default: [N, S], controller: [B] },
  },
  {
    source: `${LEAF} apply_twice_remove`,
    ops: [
      {
        op: 'apply',
        manager: 'default',
        object: spec({ leaseDurationSeconds: 1, holderIdentity: 'string', preferredHolder: 'false' }),
      },
      { op: 'apply', manager: 'default', object: spec({ holderIdentity: 'new string' }) },
    ],
    object: spec({ holderIdentity: 'new string' }),
    managed: { default: [S] },
  },
  {
    source: `${LEAF} update_apply_omits`,
    ops: [
      { op: 'apply', manager: 'default', object: spec({ leaseDurationSeconds: 2 }) },
      { op: 'update', manager: 'controller', object: spec({ leaseDurationSeconds: 1 }) },
      { op: 'apply', manager: 'default', object: {} },
    ],
    object: spec({ leaseDurationSeconds: 1 }),
    managed: { controller: [N] },
  },
  {
    source: `${LEAF} update_remove_empty_set`,
    ops: [
      { op: 'apply', manager: 'default', object: spec({ holderIdentity: 'string' }) },
      { op: 'update', manager: 'controller', object: spec({ holderIdentity: 'new string' }) },
    ],
    object: spec({ holderIdentity: 'new string' }),
    managed: { controller: [S] },
  },
  {
    // SMD leaves a nil `spec`, which the typed Lease drops.
    source: `${LEAF} apply_remove_empty_set`,
    ops: [
      { op: 'apply', manager: 'default', object: spec({ holderIdentity: 'string' }) },
      { op: 'apply', manager: 'default', object: {} },
    ],
    object: {},
    managed: {},
  },
  {
    source: `${SET} apply_twice`,
    ops: [
      { op: 'apply', manager: 'default', object: fin('a', 'c') },
      { op: 'apply', manager: 'default', object: fin('a', 'b', 'c', 'd') },
    ],
    object: fin('a', 'b', 'c', 'd'),
    managed: { default: ['a', 'b', 'c', 'd'].map(finPath) },
  },
  {
    source: `${SET} apply_update_apply_no_overlap`,
    ops: [
      { op: 'apply', manager: 'default', object: fin('a', 'c') },
      { op: 'update', manager: 'controller', object: fin('a', 'b', 'c', 'd') },
      { op: 'apply', manager: 'default', object: fin('a', 'aprime', 'c', 'cprime') },
    ],
    object: fin('a', 'b', 'aprime', 'c', 'd', 'cprime'),
    managed: { default: ['a', 'aprime', 'c', 'cprime'].map(finPath), controller: ['b', 'd'].map(finPath) },
  },
  {
    source: `${SET} apply_update_apply_with_overlap`,
    ops: [
      { op: 'apply', manager: 'default', object: fin('a', 'c') },
      { op: 'update', manager: 'controller', object: fin('a', 'b', 'c', 'd') },
      { op: 'apply', manager: 'default', object: fin('a', 'b', 'c') },
    ],
    object: fin('a', 'b', 'c', 'd'),
    managed: { default: ['a', 'b', 'c'].map(finPath), controller: ['b', 'd'].map(finPath) },
  },
  {
    source: `${SET} apply_twice_reorder`,
    ops: [
      { op: 'apply', manager: 'default', object: fin('a', 'b', 'c', 'd') },
      { op: 'apply', manager: 'default', object: fin('a', 'd', 'c', 'b') },
    ],
    object: fin('a', 'd', 'c', 'b'),
    managed: { default: ['a', 'b', 'c', 'd'].map(finPath) },
  },
  {
    source: `${SET} apply_update_apply_reorder`,
    ops: [
      { op: 'apply', manager: 'default', object: fin('a', 'b', 'c', 'd') },
      { op: 'update', manager: 'controller', object: fin('a', 'd', 'c', 'b') },
      { op: 'apply', manager: 'default', object: fin('a', 'b', 'c', 'd') },
    ],
    object: fin('a', 'b', 'c', 'd'),
    managed: { default: ['a', 'b', 'c', 'd'].map(finPath) },
  },
  {
    source: `${SET} apply_twice_remove`,
    ops: [
      { op: 'apply', manager: 'default', object: fin('a', 'b', 'c', 'd') },
      { op: 'apply', manager: 'default', object: fin('a', 'c') },
    ],
    object: fin('a', 'c'),
    managed: { default: ['a', 'c'].map(finPath) },
  },
  {
    source: `${MULTI} TestMultipleAppliersSet remove_one`,
    ops: [
      { op: 'apply', manager: 'apply-one', object: owners('a', 'b') },
      { op: 'apply', manager: 'apply-two', object: owners('c') },
      { op: 'apply', manager: 'apply-one', object: owners('a') },
    ],
    object: owners('a', 'c'),
    managed: { 'apply-one': [ownerPath('a')], 'apply-two': [ownerPath('c')] },
  },
  {
    source: `${MULTI} TestMultipleAppliersSet same_value_no_conflict`,
    ops: [
      { op: 'apply', manager: 'apply-one', object: owners('a', 'b') },
      { op: 'apply', manager: 'apply-two', object: owners('b') },
    ],
    object: owners('a', 'b'),
    managed: { 'apply-one': [ownerPath('a'), ownerPath('b')], 'apply-two': [ownerPath('b')] },
  },
  {
    source: `${MULTI} TestMultipleAppliersNestedType unset_scalar_shared_with_updater`,
    ops: [
      { op: 'update', manager: 'updater', object: spec({ holderIdentity: 'a', leaseDurationSeconds: 1 }) },
      { op: 'apply', manager: 'applier', object: spec({ holderIdentity: 'a', leaseDurationSeconds: 1 }) },
      { op: 'apply', manager: 'applier', object: spec({ holderIdentity: 'a' }) },
    ],
    object: spec({ holderIdentity: 'a', leaseDurationSeconds: 1 }),
    managed: { updater: ['.spec', S, N], applier: [S] },
  },
  {
    source: `${MULTI} TestMultipleAppliersNestedType updater_claims_field`,
    ops: [
      { op: 'apply', manager: 'applier', object: spec({ holderIdentity: 'a', leaseDurationSeconds: 1 }) },
      { op: 'update', manager: 'updater', object: spec({ holderIdentity: 'a', leaseDurationSeconds: 2 }) },
    ],
    object: spec({ holderIdentity: 'a', leaseDurationSeconds: 2 }),
    managed: { updater: [N], applier: [S] },
  },
  {
    source: `${MULTI} TestMultipleAppliersNestedType unset_scalar_sole_owner`,
    ops: [
      { op: 'apply', manager: 'apply-one', object: spec({ holderIdentity: 'a', leaseDurationSeconds: 1 }) },
      { op: 'apply', manager: 'apply-one', object: spec({ holderIdentity: 'a' }) },
    ],
    object: spec({ holderIdentity: 'a' }),
    managed: { 'apply-one': [S] },
  },
  {
    source: `${MULTI} TestMultipleAppliersNestedType unset_scalar_shared_with_applier`,
    ops: [
      { op: 'apply', manager: 'apply-one', object: spec({ holderIdentity: 'a', leaseDurationSeconds: 1 }) },
      { op: 'apply', manager: 'apply-two', object: spec({ leaseDurationSeconds: 1 }) },
      { op: 'apply', manager: 'apply-one', object: spec({ holderIdentity: 'a' }) },
    ],
    object: spec({ holderIdentity: 'a', leaseDurationSeconds: 1 }),
    managed: { 'apply-one': [S], 'apply-two': [N] },
  },
  {
    // An applied empty map is a member of the applier's set (typed/tofieldset.go visitMapItems inserts
    // empty and null map values); dropping it later releases nothing another manager owns
    // (merge/update.go prune → addBackOwnedItems keeps named parents of owned fields).
    source: 'structured-merge-diff typed/tofieldset.go + merge/update.go prune (apply `spec: {}`, then a field)',
    ops: [
      { op: 'apply', manager: 'applier', object: { spec: {} } },
      { op: 'update', manager: 'controller', object: spec({ holderIdentity: 'h' }) },
      { op: 'apply', manager: 'applier', object: spec({ leaseDurationSeconds: 5 }) },
    ],
    object: spec({ holderIdentity: 'h', leaseDurationSeconds: 5 }),
    managed: { applier: [N], controller: [S] },
  },
  {
    source: 'structured-merge-diff merge/extract_apply_test.go extract_apply_empty_structure_map (labels for map)',
    ops: [
      { op: 'apply', manager: 'apply-one', object: { metadata: { labels: null } } },
      { op: 'apply', manager: 'apply-two', object: { metadata: { labels: { a: 'c', b: 'd' } } } },
      { op: 'apply', manager: 'apply-two', object: { metadata: { labels: { b: 'd' } } } },
    ],
    object: { metadata: { labels: { b: 'd' } } },
    managed: { 'apply-one': ['.metadata.labels'], 'apply-two': ['.metadata.labels.b'] },
  },
];

describe('structured-merge-diff tables on Lease-shaped objects', () => {
  it.each(cases.map((c) => [c.source, c] as const))('%s', (_source, test) => runCase(test));
});

describe('structured-merge-diff merge/obsolete_versions_test.go', () => {
  it('TestApplyObsoleteVersion: nothing is pruned when the last applied version no longer converts', () => {
    let accepted = ['v1'];
    const schema: UpdaterSchema = {
      type: LEASE_UPDATER.type,
      convertible: (v) => accepted.includes(v),
      emptied: 'null',
    };
    const first = updaterApply(schema, {}, fin('a', 'b', 'c', 'd'), 'v1', new Map(), 'apply', false);
    if (!first.ok) throw new Error('first apply conflicted');
    accepted = ['v2'];
    const managers: ManagedFields = first.value.managers;
    const second = updaterApply(schema, first.value.object ?? {}, fin('a'), 'v2', managers, 'apply', false);
    if (!second.ok) throw new Error('second apply conflicted');
    expect(second.value.object ?? first.value.object).toEqual(fin('a', 'b', 'c', 'd'));
    expect([...(second.value.managers.get('apply')?.set ?? [])]).toEqual(['f:metadata\nf:finalizers\nv:"a"']);
  });
});
