// The API server's field manager around server-side apply, over HTTP: managedFields resets, tracking
// that stops after a reset, "before-first-apply", per-manager times, the cap on Update managers, and
// the checks on an applied configuration. Each test names the upstream test or function it follows.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import type { JsonBody } from '../helpers.js';
import { NS_BASE, api, lease, start } from '../helpers.js';

const APPLY = 'application/apply-patch+yaml';
const MERGE = 'application/merge-patch+json';
const T0 = Date.parse('2024-05-01T10:00:00Z');

describe('field manager', () => {
  let server: LeaseApiServer;
  let now = T0;
  beforeEach(async () => {
    now = T0;
    server = await start({ clock: () => now });
  });
  afterEach(() => server.close());

  const apply = (name: string, manager: string, body: unknown, force = false) =>
    api(server, 'PATCH', `${NS_BASE}/${name}?fieldManager=${manager}${force ? '&force=true' : ''}`, {
      contentType: APPLY,
      body,
    });
  const mergePatch = (name: string, manager: string, body: unknown) =>
    api(server, 'PATCH', `${NS_BASE}/${name}?fieldManager=${manager}`, { contentType: MERGE, body });
  const managers = (body: JsonBody) =>
    (body.metadata?.managedFields ?? []).map((m) => [m.manager, m.operation, m.fieldsV1]);

  it('keeps what another manager owns when an applier that applied `spec: {}` applies a field', async () => {
    // structured-merge-diff typed/tofieldset.go (an applied empty map is a member) and merge/update.go
    // prune/addBackOwnedItems (a field another manager owns survives the applier's prune).
    expect((await apply('l', 'applier', lease('l', {}))).status).toBe(201);
    await mergePatch('l', 'controller', { spec: { holderIdentity: 'h' } });
    const res = await apply('l', 'applier', lease('l', { leaseDurationSeconds: 5 }));
    expect(res.status).toBe(200);
    expect(res.body.spec).toEqual({ holderIdentity: 'h', leaseDurationSeconds: 5 });
    expect(managers(res.body)).toEqual([
      ['applier', 'Apply', { 'f:spec': { 'f:leaseDurationSeconds': {} } }],
      ['controller', 'Update', { 'f:spec': { 'f:holderIdentity': {} } }],
    ]);
  });

  // structured-merge-diff typed/remove.go removingWalker.doMap keeps a map pruning empties under its key (null up
  // to v6.3.0, {} from v6.3.1), so merge/update.go Updater.update finds nothing of it removed and its updater keeps
  // owning it; a third applier then conflicts on the map (issue 29 item 14).
  for (const release of ['1.35', '1.36']) {
    it(`keeps an annotations map emptied by pruning owned by its updater, so a third applier conflicts (${release})`, async () => {
      await server.close();
      server = await start({ clock: () => now, release });
      const withAnnotations = (annotations?: Record<string, string>) => ({
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name: 'm', ...(annotations === undefined ? {} : { annotations }) },
      });
      const created = await api(server, 'POST', `${NS_BASE}?fieldManager=u`, { body: withAnnotations({ a: 'x' }) });
      expect(created.status).toBe(201);
      expect((await apply('m', 'p', withAnnotations({ b: 'x' }))).status).toBe(200);
      expect((await mergePatch('m', 'u', { metadata: { annotations: { a: null } } })).status).toBe(200);
      const emptied = await apply('m', 'p', withAnnotations());
      expect(emptied.status).toBe(200);
      expect(emptied.body.metadata?.annotations).toBeUndefined();
      expect(managers(emptied.body)).toEqual([['u', 'Update', { 'f:metadata': { 'f:annotations': {} } }]]);
      const third = await apply('m', 'q', withAnnotations({ c: 'x' }));
      expect(third.status).toBe(409);
      expect(third.body.message).toBe(
        'Apply failed with 1 conflict: conflict with "u" using coordination.k8s.io/v1: .metadata.annotations',
      );
    });
  }

  it('records an applied empty spec as a member of the applier set', async () => {
    // typed/tofieldset.go visitMapItems: an empty map value is inserted as a path.
    const res = await apply('e', 'applier', lease('e', {}));
    expect(managers(res.body)).toEqual([['applier', 'Apply', { 'f:spec': {} }]]);
  });

  it('resets managedFields with [] in a PUT and stops tracking until the next apply', async () => {
    // apimachinery managedfields/fieldmanager_test.go TestResetManagedFieldsEmptyList, then
    // internal/skipnonapplied_test.go TestUpdateBeforeFirstApply (no tracking on update only; the first
    // apply conflicts with "before-first-apply" and, forced, leaves two entries).
    await apply('r', 'applier', lease('r', { holderIdentity: 'a' }, { labels: { a: 'b' } }));
    const current = (await api(server, 'GET', `${NS_BASE}/r`)).body;
    const put = await api(server, 'PUT', `${NS_BASE}/r?fieldManager=update_manager`, {
      body: { ...current, metadata: { ...current.metadata, managedFields: [] } },
    });
    expect(put.status).toBe(200);
    expect(put.body.metadata?.managedFields).toBeUndefined();
    const edited = await mergePatch('r', 'editor', { metadata: { labels: { a: 'changed' } } });
    expect(edited.body.metadata?.managedFields).toBeUndefined();
    const conflict = await apply('r', 'applier', lease('r', { holderIdentity: 'a' }, { labels: { a: 'b' } }));
    expect(conflict.status).toBe(409);
    expect(conflict.body.details?.causes).toEqual([
      {
        reason: 'FieldManagerConflict',
        message: 'conflict with "before-first-apply" using coordination.k8s.io/v1',
        field: '.metadata.labels.a',
      },
    ]);
    const forced = await apply('r', 'applier', lease('r', { holderIdentity: 'a' }, { labels: { a: 'b' } }), true);
    expect(forced.status).toBe(200);
    expect(managers(forced.body)).toEqual([
      ['applier', 'Apply', { 'f:metadata': { 'f:labels': { 'f:a': {} } }, 'f:spec': { 'f:holderIdentity': {} } }],
      // The unchanged holderIdentity stays shared; the label map itself stays with before-first-apply.
      ['before-first-apply', 'Update', { 'f:metadata': { 'f:labels': {} }, 'f:spec': { 'f:holderIdentity': {} } }],
    ]);
  });

  it('resets managedFields with [{}] in a patch', async () => {
    // apimachinery managedfields/fieldmanager_test.go TestResetManagedFieldsEmptyItem.
    await apply('p', 'applier', lease('p', { holderIdentity: 'a' }, { labels: { a: 'b' } }));
    const res = await mergePatch('p', 'update_manager', { metadata: { managedFields: [{}] } });
    expect(res.status).toBe(200);
    expect(res.body.metadata?.managedFields).toBeUndefined();
    const again = await mergePatch('p', 'update_manager', { spec: { holderIdentity: 'b' } });
    expect(again.body.metadata?.managedFields).toBeUndefined();
  });

  it('keeps the live managedFields when a write sends none or ones that do not decode', async () => {
    // fieldmanager.go decodeLiveOrNew: an empty or undecodable request list falls back to the live one.
    await apply('k', 'applier', lease('k', { holderIdentity: 'a' }));
    const res = await mergePatch('k', 'editor', {
      metadata: { managedFields: [{ manager: 'x', operation: 'Bogus', fieldsType: 'FieldsV1', fieldsV1: {} }] },
      spec: { leaseDurationSeconds: 3 },
    });
    expect(res.status).toBe(200);
    expect(managers(res.body)).toEqual([
      ['applier', 'Apply', { 'f:spec': { 'f:holderIdentity': {} } }],
      ['editor', 'Update', { 'f:spec': { 'f:leaseDurationSeconds': {} } }],
    ]);
  });

  it('takes managedFields a client sends when they decode', async () => {
    // fieldmanager.go decodeLiveOrNew: a decodable, non-empty list in the request replaces the live one.
    await apply('c', 'applier', lease('c', { holderIdentity: 'a' }));
    const sent = [
      {
        manager: 'imported',
        operation: 'Update',
        apiVersion: 'coordination.k8s.io/v1',
        time: '2020-01-01T00:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:spec': { 'f:holderIdentity': {} } },
      },
    ];
    const res = await mergePatch('c', 'editor', { metadata: { managedFields: sent } });
    expect(res.body.metadata?.managedFields).toEqual(sent);
  });

  it('records Update entries with the changed fields and the time of each manager', async () => {
    // managedfieldsupdater.go Update (time per manager) over merge/update.go Update; a map added by an
    // update is itself a member ("." in FieldsV1), as typed/compare.go adds the new map's path.
    const created = await api(server, 'POST', `${NS_BASE}?fieldManager=creator`, {
      body: lease('u', { holderIdentity: 'a' }, { labels: { x: '1' } }),
    });
    expect(managers(created.body)).toEqual([
      [
        'creator',
        'Update',
        { 'f:metadata': { 'f:labels': { '.': {}, 'f:x': {} } }, 'f:spec': { 'f:holderIdentity': {} } },
      ],
    ]);
    now = T0 + 60_000;
    const res = await mergePatch('u', 'editor', { spec: { leaseDurationSeconds: 7 } });
    expect(res.body.metadata?.managedFields?.map((m) => [m.manager, m.time])).toEqual([
      ['creator', '2024-05-01T10:00:00Z'],
      ['editor', '2024-05-01T10:01:00Z'],
    ]);
    now = T0 + 120_000;
    const noop = await mergePatch('u', 'editor', { spec: { leaseDurationSeconds: 7 } });
    expect(noop.body.metadata?.resourceVersion).toBe(res.body.metadata?.resourceVersion);
  });

  it('records nothing for empty metadata collections, which the typed object omits', async () => {
    // apimachinery runtime/converter.go toUnstructured drops omitempty empty maps and slices, so the
    // field manager's compare (merge/update.go Update) sees no labels or finalizers; what remains is
    // server metadata that stripmeta.go removes, leaving no entry at all.
    const res = await api(server, 'POST', `${NS_BASE}?fieldManager=creator`, {
      body: lease('empty', {}, { labels: {}, finalizers: [], annotations: {} }),
    });
    expect(res.status).toBe(201);
    expect(res.body.metadata?.managedFields).toBeUndefined();
  });

  it('folds the oldest Update managers beyond ten into ancient-changes', async () => {
    // internal/capmanagers_test.go TestCapUpdateManagers: eleven Update managers, the two oldest merge.
    await api(server, 'POST', `${NS_BASE}?fieldManager=m00`, { body: lease('m', {}, { labels: { l00: 'v' } }) });
    for (let i = 1; i <= 10; i++) {
      now = T0 + i * 1000;
      const label = `l${String(i).padStart(2, '0')}`;
      await mergePatch('m', `m${String(i).padStart(2, '0')}`, { metadata: { labels: { [label]: 'v' } } });
    }
    const res = await api(server, 'GET', `${NS_BASE}/m`);
    const names = (res.body.metadata?.managedFields ?? []).map((m) => m.manager);
    expect(names).toEqual(['ancient-changes', 'm02', 'm03', 'm04', 'm05', 'm06', 'm07', 'm08', 'm09', 'm10']);
    const ancient = res.body.metadata?.managedFields?.[0];
    expect(ancient?.time).toBe('2024-05-01T10:00:01Z');
    expect(ancient?.fieldsV1).toEqual({ 'f:metadata': { 'f:labels': { '.': {}, 'f:l00': {}, 'f:l01': {} } } });
  });

  it('rejects an applied configuration that carries managedFields', async () => {
    // internal/structuredmerge.go Apply: "metadata.managedFields must be nil".
    const body = lease('x', { holderIdentity: 'a' }, { managedFields: [] });
    const res = await apply('x', 'applier', body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('metadata.managedFields must be nil');
  });

  it('rejects an applied configuration of another version or kind', async () => {
    // internal/versioncheck.go Apply and apimachinery managedfields/fieldmanager_test.go TestVersionCheck.
    const wrongVersion = await apply('x', 'applier', { ...lease('x'), apiVersion: 'coordination.k8s.io/v1beta1' });
    expect(wrongVersion.status).toBe(400);
    expect(wrongVersion.body.message).toBe('invalid object type: coordination.k8s.io/v1beta1, Kind=Lease');
    const wrongKind = await apply('x', 'applier', { ...lease('x'), kind: 'Pod', apiVersion: 'v1' });
    expect(wrongKind.body.message).toBe('invalid object type: /v1, Kind=Pod');
  });

  it('refuses force on a non-apply patch', async () => {
    // apiserver handlers/rest.go / validation of PatchOptions: force only with apply patches.
    const res = await api(server, 'PATCH', `${NS_BASE}/x?fieldManager=m&force=true`, {
      contentType: MERGE,
      body: {},
    });
    expect(res.status).toBe(422);
    expect(res.body.message).toContain('force: Forbidden: may not be specified for non-apply patch');
  });

  it('survives hostile managedFields and keys: deep fieldsV1, __proto__ keys, unknown path elements', async () => {
    // fieldmanager.go decodeLiveOrNew: what does not decode falls back to the live managedFields.
    await apply('h', 'applier', lease('h', { holderIdentity: 'a' }));
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 200; i++) deep = { 'f:x': deep };
    const hostile = [
      {
        manager: 'deep',
        operation: 'Update',
        apiVersion: 'coordination.k8s.io/v1',
        fieldsType: 'FieldsV1',
        fieldsV1: deep,
      },
    ];
    const res = await mergePatch('h', 'editor', { metadata: { managedFields: hostile } });
    expect(res.status).toBe(200);
    expect(managers(res.body)).toEqual([['applier', 'Apply', { 'f:spec': { 'f:holderIdentity': {} } }]]);
    const proto = JSON.parse(
      '[{"manager":"p","operation":"Update","apiVersion":"coordination.k8s.io/v1","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:ownerReferences":{"k:{\\"__proto__\\":\\"x\\"}":{}}}}}]',
    );
    const kept = await mergePatch('h', 'editor', { metadata: { managedFields: proto } });
    expect(kept.status).toBe(200);
    expect(kept.body.metadata?.managedFields?.[0]?.fieldsV1).toEqual({
      'f:metadata': { 'f:ownerReferences': { 'k:{"__proto__":"x"}': {} } },
    });
    const badLabel = await api(server, 'PATCH', `${NS_BASE}/h?fieldManager=applier`, {
      contentType: APPLY,
      body: '{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"h","labels":{"__proto__":"x"}}}',
    });
    expect(badLabel.status).toBe(422);
  });

  it('drops managers recorded at a version the resource is not served in', async () => {
    // structured-merge-diff merge/obsolete_versions_test.go TestObsoleteVersions: a manager whose
    // version no longer converts disappears on the next update.
    await apply('o', 'applier', lease('o', { holderIdentity: 'a' }));
    const entry = (manager: string, apiVersion: string, fieldsV1: object) => ({
      manager,
      operation: 'Update',
      apiVersion,
      time: '2024-05-01T09:00:00Z',
      fieldsType: 'FieldsV1',
      fieldsV1,
    });
    const seeded = await mergePatch('o', 'editor', {
      metadata: {
        managedFields: [
          entry('obsolete', 'coordination.k8s.io/v1alpha9', { 'f:spec': { 'f:holderIdentity': {} } }),
          entry('current', 'coordination.k8s.io/v1', { 'f:spec': { 'f:holderIdentity': {} } }),
        ],
      },
      spec: { leaseDurationSeconds: 4 },
    });
    expect(seeded.body.metadata?.managedFields?.map((m) => m.manager)).toEqual(['current', 'editor']);
  });

  it('answers an applied configuration with undeclared fields with 500, whatever fieldValidation says', async () => {
    // internal/structuredmerge.go Apply: "failed to create typed patch object (<ns>/<name>; <gvk>): …"
    // is a plain error, which responsewriters ErrorToAPIStatus answers as a 500 without a reason
    // (kubernetes/kubernetes issue 122480 shows the body).
    for (const validation of ['Strict', 'Ignore']) {
      const res = await api(server, 'PATCH', `${NS_BASE}/z?fieldManager=m&fieldValidation=${validation}`, {
        contentType: APPLY,
        body: { ...lease('z', { holderIdentity: 'a', foo: 1 }, { namespace: 'default' }) },
      });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message:
          'failed to create typed patch object (default/z; coordination.k8s.io/v1, Kind=Lease): .spec.foo: field not declared in schema',
        code: 500,
      });
    }
    const two = await apply('z', 'm', { ...lease('z'), status: {}, extra: 1 });
    expect(two.body.message).toBe(
      'failed to create typed patch object (/z; coordination.k8s.io/v1, Kind=Lease): errors:\n  .extra: field not declared in schema\n  .status: field not declared in schema',
    );
  });

  it('handles long sets and many conflicts in bounded time', async () => {
    // Hostile sizes: prune of a long set (merge/update.go prune over typed/remove.go) and a conflict on
    // thousands of labels must stay linear, not quadratic.
    const finalizers = Array.from({ length: 20_000 }, (_, i) => `example.com/f${i}`);
    expect((await apply('big', 'applier', lease('big', {}, { finalizers }))).status).toBe(201);
    const pruned = await apply('big', 'applier', lease('big', {}, { finalizers: ['example.com/f7'] }));
    expect(pruned.status).toBe(200);
    expect(pruned.body.metadata?.finalizers).toEqual(['example.com/f7']);
    const labels = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`l${i}`, 'a']));
    await apply('many', 'one', lease('many', {}, { labels }));
    const changed = Object.fromEntries(Object.keys(labels).map((k) => [k, 'b']));
    const conflict = await apply('many', 'two', lease('many', {}, { labels: changed }));
    expect(conflict.status).toBe(409);
    expect(conflict.body.details?.causes).toHaveLength(5_000);
    expect(
      conflict.body.message?.startsWith(
        'Apply failed with 5000 conflicts: conflicts with "one":\n- .metadata.labels.l0\n',
      ),
    ).toBe(true);
  });

  it('lists every conflicting field and manager', async () => {
    // internal/conflict.go NewConflictError / getConflictMessage: grouped by manager in identifier order.
    await apply('c2', 'alpha', lease('c2', { holderIdentity: 'a' }));
    await mergePatch('c2', 'zeta', { spec: { leaseDurationSeconds: 3 } });
    const res = await apply('c2', 'beta', lease('c2', { holderIdentity: 'b', leaseDurationSeconds: 4 }));
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(
      'Apply failed with 2 conflicts: conflicts with "alpha":\n- .spec.holderIdentity\nconflicts with "zeta" using coordination.k8s.io/v1:\n- .spec.leaseDurationSeconds',
    );
    expect(res.body.details).toEqual({
      causes: [
        { reason: 'FieldManagerConflict', message: 'conflict with "alpha"', field: '.spec.holderIdentity' },
        {
          reason: 'FieldManagerConflict',
          message: 'conflict with "zeta" using coordination.k8s.io/v1',
          field: '.spec.leaseDurationSeconds',
        },
      ],
    });
  });
});
