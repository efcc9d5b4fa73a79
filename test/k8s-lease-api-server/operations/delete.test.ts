import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import { NS_BASE, api, create, start, watch } from '../helpers.js';

describe('delete', () => {
  let server: LeaseApiServer;
  beforeEach(async () => {
    server = await start();
  });
  afterEach(() => server.close());

  it('answers 200 with a Success Status (Lease storage does not return the deleted object) and emits DELETED', async () => {
    const created = await create(server, 'd');
    const w = await watch(server, `${NS_BASE}?watch=true&resourceVersion=${server.store.resourceVersion}`);
    const res = await api(server, 'DELETE', `${NS_BASE}/d?gracePeriodSeconds=0`, {
      body: { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name: 'd', group: 'coordination.k8s.io', kind: 'leases', uid: created.metadata?.uid },
    });
    expect(await w.next()).toMatchObject({ type: 'DELETED', object: { metadata: { name: 'd' } } });
    expect((await api(server, 'GET', `${NS_BASE}/d`)).status).toBe(404);
    w.close();
  });

  it('enforces uid and resourceVersion preconditions with 409 Conflict', async () => {
    const created = await create(server, 'p');
    const uid = created.metadata?.uid ?? '';
    const wrongUid = await api(server, 'DELETE', `${NS_BASE}/p`, { body: { preconditions: { uid: 'other-uid' } } });
    expect(wrongUid.status).toBe(409);
    expect(wrongUid.body.message).toBe(
      // rest.BeforeDelete checks the preconditions first, naming GroupResource{Group, Resource: Kind}.
      `Operation cannot be fulfilled on Lease.coordination.k8s.io "p": the UID in the precondition (other-uid) does not match the UID in record (${uid}). The object might have been deleted and then recreated`,
    );
    const wrongRv = await api(server, 'DELETE', `${NS_BASE}/p`, { body: { preconditions: { resourceVersion: '1' } } });
    expect(wrongRv.body.message).toBe(
      `Operation cannot be fulfilled on Lease.coordination.k8s.io "p": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${created.metadata?.resourceVersion}). The object might have been modified`,
    );
    const ok = await api(server, 'DELETE', `${NS_BASE}/p`, {
      body: { preconditions: { uid, resourceVersion: created.metadata?.resourceVersion } },
    });
    expect(ok.status).toBe(200);
  });

  it('only marks Leases with finalizers, deleting them when the last finalizer goes', async () => {
    await create(server, 'f', {}, { finalizers: ['example.com/hold'] });
    const marked = await api(server, 'DELETE', `${NS_BASE}/f`);
    expect(marked.status).toBe(200);
    expect(marked.body.metadata?.deletionTimestamp).toBeDefined();
    expect((await api(server, 'GET', `${NS_BASE}/f`)).status).toBe(200);
    const adding = await api(server, 'PATCH', `${NS_BASE}/f`, {
      contentType: 'application/merge-patch+json',
      body: { metadata: { finalizers: ['example.com/hold', 'new/one'] } },
    });
    expect(adding.status).toBe(422);
    const released = await api(server, 'PATCH', `${NS_BASE}/f`, {
      contentType: 'application/merge-patch+json',
      body: { metadata: { finalizers: null } },
    });
    expect(released.status).toBe(200);
    expect((await api(server, 'GET', `${NS_BASE}/f`)).status).toBe(404);
  });

  it('deletes collections by selector and returns the deleted items as a LeaseList', async () => {
    await create(server, 'a', {}, { labels: { app: 'x' } });
    await create(server, 'b', {}, { labels: { app: 'y' } });
    await create(server, 'c', {}, { labels: { app: 'x' } });
    await create(server, 'a', {}, { labels: { app: 'x' } }, 'other');
    const res = await api(server, 'DELETE', `${NS_BASE}?labelSelector=app%3Dx`);
    expect(res.status).toBe(200);
    expect(res.body.kind).toBe('LeaseList');
    expect(res.body.items?.map((i) => i.metadata?.name)).toEqual(['a', 'c']);
    expect(server.store.list().map((l) => `${l.metadata.namespace}/${l.metadata.name}`)).toEqual([
      'default/b',
      'other/a',
    ]);
    const byField = await api(server, 'DELETE', `${NS_BASE}?fieldSelector=metadata.name%3Db`);
    expect(byField.body.items).toHaveLength(1);
  });

  it('validates delete options', async () => {
    await create(server, 'v');
    const policy = await api(server, 'DELETE', `${NS_BASE}/v?propagationPolicy=Sometimes`);
    expect(policy.status).toBe(422);
    const dry = await api(server, 'DELETE', `${NS_BASE}/v`, { body: { dryRun: ['Nope'] } });
    expect(dry.status).toBe(422);
    expect(dry.body.message).toContain('DeleteOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value');
  });
});
