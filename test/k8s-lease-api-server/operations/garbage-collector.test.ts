// Deletion with finalizers and propagation policies as registry/generic/registry/store.go Delete and
// Update run them for Leases (no graceful deletion strategy; garbage collection enabled), with the
// server's garbage-collector stand-in processing the GC finalizers.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import { NS_BASE, api, create, start, watch } from '../helpers.js';

describe('finalizers and propagation', () => {
  let server: LeaseApiServer;
  beforeEach(async () => {
    server = await start({ clock: () => Date.parse('2024-05-01T10:00:00Z') });
  });
  afterEach(() => server.close());

  // store.go updateForGracefulDeletionAndFinalizers + markAsDeleting; Update's ShouldDeleteDuringUpdate.
  it('marks a Lease with a finalizer, then deletes it when a patch removes the last finalizer', async () => {
    await create(server, 'f', {}, { finalizers: ['example.com/keep'] });
    const w = await watch(server, `${NS_BASE}?watch=true&resourceVersion=${server.store.resourceVersion}`);
    const res = await api(server, 'DELETE', `${NS_BASE}/f`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      kind: 'Lease',
      metadata: {
        deletionTimestamp: '2024-05-01T10:00:00Z',
        deletionGracePeriodSeconds: 0,
        finalizers: ['example.com/keep'],
      },
    });
    expect(await w.next()).toMatchObject({
      type: 'MODIFIED',
      object: { metadata: { deletionTimestamp: '2024-05-01T10:00:00Z' } },
    });
    const again = await api(server, 'DELETE', `${NS_BASE}/f`);
    expect(again.body.metadata?.resourceVersion).toBe(res.body.metadata?.resourceVersion);
    const patched = await api(server, 'PATCH', `${NS_BASE}/f`, {
      body: { metadata: { finalizers: null } },
      contentType: 'application/merge-patch+json',
    });
    expect(patched.status).toBe(200);
    // deleteWithoutFinalizers answers with the object of the request: no finalizer left.
    expect(patched.body.metadata?.finalizers).toBeUndefined();
    expect(patched.body.metadata?.deletionTimestamp).toBe('2024-05-01T10:00:00Z');
    // The watch shows the last stored state, at the deletion's resourceVersion.
    const deleted = await w.next();
    expect(deleted).toMatchObject({ type: 'DELETED', object: { metadata: { finalizers: ['example.com/keep'] } } });
    expect(deleted.object.metadata?.resourceVersion).toBe(server.store.resourceVersion);
    expect((await api(server, 'GET', `${NS_BASE}/f`)).status).toBe(404);
    w.close();
  });

  it('keeps a dry-run delete from marking the object', async () => {
    await create(server, 'dry', {}, { finalizers: ['example.com/keep'] });
    const res = await api(server, 'DELETE', `${NS_BASE}/dry?dryRun=All`);
    expect(res.body.metadata?.deletionTimestamp).toBe('2024-05-01T10:00:00Z');
    expect(server.store.get('default', 'dry')?.metadata.deletionTimestamp).toBeUndefined();
  });

  it('refuses new finalizers on an object under deletion', async () => {
    await create(server, 'nf', {}, { finalizers: ['example.com/a'] });
    await api(server, 'DELETE', `${NS_BASE}/nf`);
    const res = await api(server, 'PATCH', `${NS_BASE}/nf`, {
      body: { metadata: { finalizers: ['example.com/a', 'example.com/b'] } },
      contentType: 'application/merge-patch+json',
    });
    expect(res.status).toBe(422);
    expect(res.body.message).toContain('no new finalizers can be added if the object is being deleted');
    const recreate = await api(server, 'POST', NS_BASE, { body: { metadata: { name: 'nf' } } });
    expect(recreate.body.message).toBe('object is being deleted: leases.coordination.k8s.io "nf" already exists');
  });

  // store.go deletionFinalizersForGarbageCollection: Orphan adds "orphan", Foreground "foregroundDeletion".
  it.each([
    ['Orphan', 'orphan'],
    ['Foreground', 'foregroundDeletion'],
  ])(
    'answers a %s delete with the object carrying the %s finalizer, then the GC stand-in deletes it',
    async (policy, finalizer) => {
      await create(server, 'owner');
      const w = await watch(server, `${NS_BASE}?watch=true&resourceVersion=${server.store.resourceVersion}`);
      const res = await api(server, 'DELETE', `${NS_BASE}/owner`, { body: { propagationPolicy: policy } });
      expect(res.status).toBe(200);
      expect(res.body.metadata?.finalizers).toEqual([finalizer]);
      expect(await w.next()).toMatchObject({ type: 'MODIFIED', object: { metadata: { finalizers: [finalizer] } } });
      expect(await w.next()).toMatchObject({ type: 'DELETED' });
      expect((await api(server, 'GET', `${NS_BASE}/owner`)).status).toBe(404);
      w.close();
    },
  );

  it('orphans, deletes in the foreground or collects dependents in the background', async () => {
    const owner = async (name: string): Promise<string> => (await create(server, name)).metadata?.uid ?? '';
    const dependent = (name: string, uid: string, block = false) =>
      create(
        server,
        name,
        {},
        {
          ownerReferences: [
            { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', name: 'o', uid, blockOwnerDeletion: block },
          ],
        },
      );
    const o1 = await owner('o1');
    await dependent('d1', o1);
    await api(server, 'DELETE', `${NS_BASE}/o1`, { body: { propagationPolicy: 'Orphan' } });
    expect(server.store.get('default', 'd1')?.metadata.ownerReferences).toBeUndefined();
    const o2 = await owner('o2');
    await dependent('d2', o2, true);
    await api(server, 'DELETE', `${NS_BASE}/o2`, { body: { propagationPolicy: 'Foreground' } });
    expect(server.store.get('default', 'd2')).toBeUndefined();
    expect(server.store.get('default', 'o2')).toBeUndefined();
    const o3 = await owner('o3');
    await dependent('d3', o3);
    await api(server, 'DELETE', `${NS_BASE}/o3`);
    expect(server.store.get('default', 'd3')).toBeUndefined();
  });

  // apimachinery meta/v1/validation ValidateDeleteOptions.
  it('validates DeleteOptions as ValidateDeleteOptions does', async () => {
    await create(server, 'v');
    const both = await api(server, 'DELETE', `${NS_BASE}/v`, {
      body: { orphanDependents: true, propagationPolicy: 'Orphan' },
    });
    expect(both.status).toBe(422);
    expect(both.body.message).toBe(
      'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set',
    );
    const bad = await api(server, 'DELETE', `${NS_BASE}/v?propagationPolicy=Sideways`);
    expect(bad.body.message).toBe(
      'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"',
    );
    expect(server.store.get('default', 'v')).toBeDefined();
  });

  // store.go DeleteCollection: the first failure ends the request; the answer lists the items as listed.
  it('stops a collection delete at the first precondition failure', async () => {
    await create(server, 'c1');
    await create(server, 'c2');
    const res = await api(server, 'DELETE', NS_BASE, { body: { preconditions: { uid: 'nobody' } } });
    expect(res.status).toBe(409);
    expect(server.store.size).toBe(2);
    const all = await api(server, 'DELETE', NS_BASE);
    expect(all.body.items?.map((i) => i.metadata?.name)).toEqual(['c1', 'c2']);
    expect(server.store.size).toBe(0);
  });
});
