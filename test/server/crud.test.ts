import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LeaseApiServer } from '../../templates/server/index.js';
import { BASE, NS_BASE, api, create, lease, start } from './helpers.js';

const FIXED_NOW = Date.parse('2024-01-01T00:00:00.250Z');

describe('Lease storage', () => {
  let server: LeaseApiServer;
  beforeEach(async () => {
    server = await start({ clock: () => FIXED_NOW });
  });
  afterEach(() => server.close());

  it('creates a Lease with server-set metadata', async () => {
    const res = await api(server, 'POST', `${NS_BASE}?fieldManager=tester`, { body: lease('a', { holderIdentity: 'h1', leaseDurationSeconds: 15 }, { labels: { k: 'v' } }) });
    expect(res.status).toBe(201);
    expect(res.body.kind).toBe('Lease');
    expect(res.body.apiVersion).toBe('coordination.k8s.io/v1');
    const meta = res.body.metadata ?? {};
    expect(meta.name).toBe('a');
    expect(meta.namespace).toBe('default');
    expect(meta.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(meta.resourceVersion).toMatch(/^\d+$/);
    expect(meta.generation).toBe(1);
    expect(meta.creationTimestamp).toBe('2024-01-01T00:00:00Z');
    expect(meta.managedFields).toEqual([
      {
        manager: 'tester',
        operation: 'Update',
        apiVersion: 'coordination.k8s.io/v1',
        time: '2024-01-01T00:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:k': {} } }, 'f:spec': { 'f:holderIdentity': {}, 'f:leaseDurationSeconds': {} } },
      },
    ]);
    expect(Object.keys(res.body)).toEqual(['kind', 'apiVersion', 'metadata', 'spec']);
  });

  it('derives the field manager from the User-Agent when none is given', async () => {
    const res = await api(server, 'POST', NS_BASE, { body: lease('ua'), headers: { 'User-Agent': 'my-controller/v1.2.3 (linux/amd64)' } });
    expect(res.body.metadata?.managedFields?.[0]?.manager).toBe('my-controller');
  });

  it('gets a Lease and lists them without kind/apiVersion on items', async () => {
    await create(server, 'b');
    await create(server, 'a');
    await create(server, 'c', undefined, undefined, 'other');
    const got = await api(server, 'GET', `${NS_BASE}/a`);
    expect(got.status).toBe(200);
    expect(got.body.metadata?.name).toBe('a');
    const list = await api(server, 'GET', NS_BASE);
    expect(list.body.kind).toBe('LeaseList');
    expect(list.body.apiVersion).toBe('coordination.k8s.io/v1');
    expect(list.body.metadata?.resourceVersion).toBe(server.store.resourceVersion);
    expect(list.body.items?.map((i) => i.metadata?.name)).toEqual(['a', 'b']);
    expect(list.body.items?.[0]?.kind).toBeUndefined();
    const all = await api(server, 'GET', `${BASE}/leases`);
    expect(all.body.items?.map((i) => `${i.metadata?.namespace}/${i.metadata?.name}`)).toEqual(['default/a', 'default/b', 'other/c']);
  });

  it('keeps a cluster-wide monotonic resourceVersion', async () => {
    const a = await create(server, 'a');
    const b = await create(server, 'b', undefined, undefined, 'other');
    expect(Number(b.metadata?.resourceVersion)).toBeGreaterThan(Number(a.metadata?.resourceVersion));
  });

  it('rejects a duplicate name with 409 AlreadyExists', async () => {
    await create(server, 'dup');
    const res = await api(server, 'POST', NS_BASE, { body: lease('dup') });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'leases.coordination.k8s.io "dup" already exists',
      reason: 'AlreadyExists',
      details: { name: 'dup', group: 'coordination.k8s.io', kind: 'leases' },
      code: 409,
    });
  });

  it('returns 404 NotFound for a missing Lease on get, replace and delete', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await api(server, method, `${NS_BASE}/ghost`, method === 'PUT' ? { body: lease('ghost') } : {});
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ reason: 'NotFound', message: 'leases.coordination.k8s.io "ghost" not found', details: { name: 'ghost', group: 'coordination.k8s.io', kind: 'leases' } });
    }
  });

  it('replaces a Lease, bumping generation only when the spec changes', async () => {
    const created = await create(server, 'r');
    const labelsOnly = { ...created, metadata: { ...created.metadata, labels: { x: 'y' } } };
    const relabelled = await api(server, 'PUT', `${NS_BASE}/r`, { body: labelsOnly });
    expect(relabelled.status).toBe(200);
    expect(relabelled.body.metadata?.generation).toBe(1);
    expect(relabelled.body.metadata?.uid).toBe(created.metadata?.uid);
    const respec = { ...relabelled.body, spec: { holderIdentity: 'h2' } };
    const replaced = await api(server, 'PUT', `${NS_BASE}/r`, { body: respec });
    expect(replaced.body.metadata?.generation).toBe(2);
    expect(replaced.body.spec).toEqual({ holderIdentity: 'h2' });
    expect(replaced.body.metadata?.creationTimestamp).toBe(created.metadata?.creationTimestamp);
  });

  it('rejects a replace with a stale resourceVersion with 409 Conflict', async () => {
    const created = await create(server, 'c');
    await api(server, 'PUT', `${NS_BASE}/c`, { body: { ...created, spec: { holderIdentity: 'h2' } } });
    const stale = await api(server, 'PUT', `${NS_BASE}/c`, { body: { ...created, spec: { holderIdentity: 'h3' } } });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({
      reason: 'Conflict',
      message: 'Operation cannot be fulfilled on leases.coordination.k8s.io "c": the object has been modified; please apply your changes to the latest version and try again',
      details: { name: 'c', group: 'coordination.k8s.io', kind: 'leases' },
    });
  });

  it('accepts an unconditional replace without resourceVersion', async () => {
    await create(server, 'u');
    const res = await api(server, 'PUT', `${NS_BASE}/u`, { body: lease('u', { holderIdentity: 'other' }) });
    expect(res.status).toBe(200);
    expect(res.body.spec).toEqual({ holderIdentity: 'other' });
  });

  it('does not write (nor bump resourceVersion) for a no-op replace', async () => {
    const created = await create(server, 'n');
    const res = await api(server, 'PUT', `${NS_BASE}/n`, { body: created });
    expect(res.body.metadata?.resourceVersion).toBe(created.metadata?.resourceVersion);
  });

  it('rejects a body whose namespace or name disagree with the URL with 400 BadRequest', async () => {
    const wrongNs = await api(server, 'POST', NS_BASE, { body: lease('x', undefined, { namespace: 'other' }) });
    expect(wrongNs.status).toBe(400);
    expect(wrongNs.body).toMatchObject({ reason: 'BadRequest', message: 'the namespace of the provided object does not match the namespace sent on the request' });
    await create(server, 'x');
    const wrongName = await api(server, 'PUT', `${NS_BASE}/x`, { body: lease('y') });
    expect(wrongName.status).toBe(400);
    expect(wrongName.body.message).toBe('the name of the object (y) does not match the name on the URL (x)');
  });

  it('generates names from generateName', async () => {
    const res = await api(server, 'POST', NS_BASE, { body: { metadata: { generateName: 'gen-' }, spec: {} } });
    expect(res.status).toBe(201);
    expect(res.body.metadata?.name).toMatch(/^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  it('refuses a resourceVersion on create as the storage layer does', async () => {
    const res = await api(server, 'POST', NS_BASE, { body: lease('rv', undefined, { resourceVersion: '5' }) });
    expect(res.status).toBe(500);
    expect(res.body.message).toBe('Internal error occurred: resourceVersion should not be set on objects to be created');
  });

  it('changes nothing on dryRun=All for create, replace, patch and delete', async () => {
    const rv = server.store.resourceVersion;
    const created = await api(server, 'POST', `${NS_BASE}?dryRun=All`, { body: lease('dry') });
    expect(created.status).toBe(201);
    expect(created.body.metadata?.uid).toBeDefined();
    expect(server.store.get('default', 'dry')).toBeUndefined();
    const real = await create(server, 'real');
    const rvAfterCreate = server.store.resourceVersion;
    const replaced = await api(server, 'PUT', `${NS_BASE}/real?dryRun=All`, { body: { ...real, spec: { holderIdentity: 'dry' } } });
    expect(replaced.body.spec).toEqual({ holderIdentity: 'dry' });
    const patched = await api(server, 'PATCH', `${NS_BASE}/real?dryRun=All`, { body: { spec: { holderIdentity: 'p' } }, contentType: 'application/merge-patch+json' });
    expect(patched.body.spec?.['holderIdentity']).toBe('p');
    const deleted = await api(server, 'DELETE', `${NS_BASE}/real?dryRun=All`);
    expect(deleted.status).toBe(200);
    const collection = await api(server, 'DELETE', `${NS_BASE}?dryRun=All`);
    expect(collection.body.items).toHaveLength(1);
    expect(server.store.resourceVersion).toBe(rvAfterCreate);
    expect(server.store.get('default', 'real')?.spec).toEqual(real.spec);
    expect(Number(rvAfterCreate)).toBe(Number(rv) + 1);
  });

  it('rejects an unknown dryRun value as invalid CreateOptions', async () => {
    const res = await api(server, 'POST', `${NS_BASE}?dryRun=Sometimes`, { body: lease('d') });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Sometimes"}: supported values: "All"');
  });

  it('answers unsupported methods with 405 and unreadable bodies with 415', async () => {
    const post = await api(server, 'POST', `${BASE}/leases`, { body: lease('z') });
    expect(post.status).toBe(405);
    const text = await api(server, 'POST', NS_BASE, { body: 'name: z', contentType: 'text/plain' });
    expect(text.status).toBe(415);
    expect(text.body.reason).toBe('UnsupportedMediaType');
  });

  it('accepts YAML bodies', async () => {
    const yaml = 'apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata:\n  name: from-yaml\n  labels:\n    app: web\nspec:\n  holderIdentity: "h"\n  leaseDurationSeconds: 10\n';
    const res = await api(server, 'POST', NS_BASE, { body: yaml, contentType: 'application/yaml' });
    expect(res.status).toBe(201);
    expect(res.body.metadata?.labels).toEqual({ app: 'web' });
    expect(res.body.spec).toEqual({ holderIdentity: 'h', leaseDurationSeconds: 10 });
  });

  it('offers the store to tests directly, with the same semantics', async () => {
    const created = server.store.create({ metadata: { name: 's', namespace: 'ns1' }, spec: { holderIdentity: 'a' } });
    expect(created.ok).toBe(true);
    const dup = server.store.create({ metadata: { name: 's', namespace: 'ns1' } });
    expect(dup.ok ? undefined : dup.error.reason).toBe('AlreadyExists');
    const updated = server.store.update({ metadata: { name: 's', namespace: 'ns1' }, spec: { holderIdentity: 'b' } });
    expect(updated.ok && updated.value.metadata.generation).toBe(2);
    expect(server.store.list('ns1').map((l) => l.spec?.holderIdentity)).toEqual(['b']);
    const res = await api(server, 'GET', `${BASE}/namespaces/ns1/leases/s`);
    expect(res.body.spec).toEqual({ holderIdentity: 'b' });
    expect(server.store.delete('ns1', 's').ok).toBe(true);
    expect(server.store.size).toBe(0);
  });
});
