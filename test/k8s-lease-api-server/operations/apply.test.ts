import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import { NS_BASE, api, create, lease, start } from '../helpers.js';

const APPLY = 'application/apply-patch+yaml';

describe('server-side apply', () => {
  let server: LeaseApiServer;
  beforeEach(async () => {
    server = await start({ clock: () => Date.parse('2024-05-01T10:00:00Z') });
  });
  afterEach(() => server.close());

  const apply = (
    name: string,
    manager: string,
    spec: Record<string, unknown>,
    extra: { force?: boolean; labels?: Record<string, string> } = {},
  ) =>
    api(server, 'PATCH', `${NS_BASE}/${name}?fieldManager=${manager}${extra.force === true ? '&force=true' : ''}`, {
      contentType: APPLY,
      body: lease(name, spec, extra.labels === undefined ? {} : { labels: extra.labels }),
    });

  it('creates the object when it does not exist (201) and records an Apply entry', async () => {
    const res = await apply('s', 'alpha', { holderIdentity: 'a', leaseDurationSeconds: 5 }, { labels: { team: 'x' } });
    expect(res.status).toBe(201);
    expect(res.body.metadata?.managedFields).toEqual([
      {
        manager: 'alpha',
        operation: 'Apply',
        apiVersion: 'coordination.k8s.io/v1',
        time: '2024-05-01T10:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:metadata': { 'f:labels': { 'f:team': {} } },
          'f:spec': { 'f:holderIdentity': {}, 'f:leaseDurationSeconds': {} },
        },
      },
    ]);
    const again = await apply(
      's',
      'alpha',
      { holderIdentity: 'a', leaseDurationSeconds: 5 },
      { labels: { team: 'x' } },
    );
    expect(again.status).toBe(200);
    expect(again.body.metadata?.resourceVersion).toBe(res.body.metadata?.resourceVersion);
  });

  it('conflicts when another manager owns a field whose value would change', async () => {
    await apply('s', 'alpha', { holderIdentity: 'a' });
    const res = await apply('s', 'beta', { holderIdentity: 'b' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      kind: 'Status',
      reason: 'Conflict',
      code: 409,
      message: 'Apply failed with 1 conflict: conflict with "alpha": .spec.holderIdentity',
      details: {
        causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "alpha"', field: '.spec.holderIdentity' }],
      },
    });
    expect(server.store.get('default', 's')?.spec?.holderIdentity).toBe('a');
  });

  it('names Update managers with their API version in conflicts', async () => {
    await api(server, 'POST', `${NS_BASE}?fieldManager=creator`, {
      body: lease('u', { holderIdentity: 'a', leaseDurationSeconds: 1 }),
    });
    const res = await apply('u', 'beta', { holderIdentity: 'b', leaseDurationSeconds: 2 });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(
      'Apply failed with 2 conflicts: conflicts with "creator" using coordination.k8s.io/v1:\n- .spec.holderIdentity\n- .spec.leaseDurationSeconds',
    );
    expect(res.body.details?.causes).toEqual([
      {
        reason: 'FieldManagerConflict',
        message: 'conflict with "creator" using coordination.k8s.io/v1',
        field: '.spec.holderIdentity',
      },
      {
        reason: 'FieldManagerConflict',
        message: 'conflict with "creator" using coordination.k8s.io/v1',
        field: '.spec.leaseDurationSeconds',
      },
    ]);
  });

  it('takes ownership with force=true', async () => {
    await apply('s', 'alpha', { holderIdentity: 'a', leaseDurationSeconds: 5 });
    const res = await apply('s', 'beta', { holderIdentity: 'b' }, { force: true });
    expect(res.status).toBe(200);
    expect(res.body.spec).toEqual({ holderIdentity: 'b', leaseDurationSeconds: 5 });
    const entries = Object.fromEntries((res.body.metadata?.managedFields ?? []).map((m) => [m.manager, m.fieldsV1]));
    expect(entries).toEqual({
      alpha: { 'f:spec': { 'f:leaseDurationSeconds': {} } },
      beta: { 'f:spec': { 'f:holderIdentity': {} } },
    });
  });

  it('shares ownership when the applied value is the same', async () => {
    await apply('s', 'alpha', { holderIdentity: 'a' });
    const res = await apply('s', 'beta', { holderIdentity: 'a' });
    expect(res.status).toBe(200);
    // managedfieldsupdater.go Apply stamps a time only when the object changed, and
    // managedfields.go sortEncodedManagedFields puts an entry without time (0 s) first.
    expect(res.body.metadata?.managedFields?.map((m) => [m.manager, m.time])).toEqual([
      ['beta', undefined],
      ['alpha', '2024-05-01T10:00:00Z'],
    ]);
  });

  it('removes fields a manager stops applying when nobody else owns them', async () => {
    await apply('s', 'alpha', { holderIdentity: 'a', leaseDurationSeconds: 5 }, { labels: { keep: 'no' } });
    const res = await apply('s', 'alpha', { holderIdentity: 'a' });
    expect(res.body.spec).toEqual({ holderIdentity: 'a' });
    expect(res.body.metadata?.labels).toBeUndefined();
    expect(res.body.metadata?.generation).toBeUndefined();
  });

  it('keeps fields another manager still owns', async () => {
    await apply('s', 'alpha', { holderIdentity: 'a', leaseDurationSeconds: 5 });
    await apply('s', 'beta', { leaseDurationSeconds: 5 });
    const res = await apply('s', 'alpha', { holderIdentity: 'a' });
    expect(res.body.spec).toEqual({ holderIdentity: 'a', leaseDurationSeconds: 5 });
  });

  it('lets an Update take fields from an applier, which then conflicts', async () => {
    await apply('s', 'alpha', { holderIdentity: 'a' });
    await api(server, 'PATCH', `${NS_BASE}/s?fieldManager=editor`, {
      contentType: 'application/merge-patch+json',
      body: { spec: { holderIdentity: 'edited' } },
    });
    const res = await apply('s', 'alpha', { holderIdentity: 'a' });
    expect(res.status).toBe(409);
    expect(res.body.details?.causes?.[0]?.message).toBe('conflict with "editor" using coordination.k8s.io/v1');
  });

  it('requires a fieldManager', async () => {
    const res = await api(server, 'PATCH', `${NS_BASE}/s`, { contentType: APPLY, body: lease('s') });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(
      'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
    );
  });

  it("accepts YAML configurations and requires the resource's kind and apiVersion", async () => {
    const yaml =
      'apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata:\n  name: y1\n  labels:\n    tier: db # comment\nspec:\n  holderIdentity: yaml-holder\n  leaseTransitions: 3\n';
    const res = await api(server, 'PATCH', `${NS_BASE}/y1?fieldManager=yaml`, { contentType: APPLY, body: yaml });
    expect(res.status).toBe(201);
    expect(res.body.spec).toEqual({ holderIdentity: 'yaml-holder', leaseTransitions: 3 });
    expect(res.body.metadata?.labels).toEqual({ tier: 'db' });
    const noKind = await api(server, 'PATCH', `${NS_BASE}/y1?fieldManager=yaml`, {
      contentType: APPLY,
      body: { metadata: { name: 'y1' } },
    });
    // k8s.io/apimachinery managedfields/internal/versioncheck.go Apply: the body's GVK must be the resource's.
    expect(noKind.status).toBe(400);
    expect(noKind.body.message).toBe('invalid object type: /, Kind=');
    const noVersion = await api(server, 'PATCH', `${NS_BASE}/y1?fieldManager=yaml`, {
      contentType: APPLY,
      body: { kind: 'Lease', metadata: { name: 'y1' } },
    });
    expect(noVersion.body.message).toBe('invalid object type: /, Kind=Lease');
    const list = await api(server, 'PATCH', `${NS_BASE}/y1?fieldManager=yaml`, { contentType: APPLY, body: '[]' });
    expect(list.body.message).toBe(
      'error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}',
    );
  });

  it('validates the applied result', async () => {
    await create(server, 'v');
    const res = await apply('v', 'alpha', { leaseDurationSeconds: -1 }, { force: true });
    expect(res.status).toBe(422);
  });
});
