// Deletion with finalizers and propagation policies as registry/generic/registry/store.go Delete and
// Update run them for Leases (no graceful deletion strategy; garbage collection enabled), with the
// server's garbage-collector stand-in processing the GC finalizers beside the requests, as
// kube-controller-manager's does (pkg/controller/garbagecollector).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import { newGcState, observe, step } from '../../../templates/k8s-lease-api-server/src/operations/garbage-collector.js';
import { NS_BASE, api, create, start, watch } from '../helpers.js';
import { context } from '../helpers/operation-context.js';
import { worstVersionLatency } from '../helpers/stall-probe.js';

/** The collector works beside the requests: what it does shows a moment after the DELETE answers. */
const eventually = (check: () => void): Promise<void> => vi.waitFor(check, { timeout: 10_000, interval: 10 });

function ownedBy(uid: string, blockOwnerDeletion: boolean): Record<string, unknown> {
  return {
    ownerReferences: [{ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', name: 'o', uid, blockOwnerDeletion }],
  };
}

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
    await eventually(() => expect(server.store.get('default', 'o1')).toBeUndefined());
    expect(server.store.get('default', 'd1')?.metadata.ownerReferences).toBeUndefined();
    const o2 = await owner('o2');
    await dependent('d2', o2, true);
    await api(server, 'DELETE', `${NS_BASE}/o2`, { body: { propagationPolicy: 'Foreground' } });
    await eventually(() => expect(server.store.get('default', 'o2')).toBeUndefined());
    expect(server.store.get('default', 'd2')).toBeUndefined();
    const o3 = await owner('o3');
    await dependent('d3', o3);
    await api(server, 'DELETE', `${NS_BASE}/o3`);
    await eventually(() => expect(server.store.get('default', 'd3')).toBeUndefined());
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

describe('the garbage collector', () => {
  let server: LeaseApiServer;
  beforeEach(async () => {
    server = await start({ clock: () => Date.parse('2024-05-01T10:00:00Z') });
  });
  afterEach(() => server.close());

  // graph_builder.go processGraphChanges: a dependent's removal queues its owners that are deleting their
  // dependents ("to let attempToDeleteItem check if all the owner's dependents are deleted"), and
  // garbagecollector.go processDeletingDependentsItem then removes the foregroundDeletion finalizer.
  it('completes a foreground deletion once a dependent held by a finalizer goes, freeing the name', async () => {
    const owner = await create(server, 'owner');
    await create(server, 'held', {}, { finalizers: ['example.com/hold'], ...ownedBy(owner.metadata?.uid ?? '', true) });
    const w = await watch(server, `${NS_BASE}?watch=true&resourceVersion=${server.store.resourceVersion}`);
    const res = await api(server, 'DELETE', `${NS_BASE}/owner`, { body: { propagationPolicy: 'Foreground' } });
    expect(res.status).toBe(200);
    expect(res.body.metadata?.finalizers).toEqual(['foregroundDeletion']);
    // The collector deletes the dependent, which its finalizer only marks; the owner waits for it.
    await eventually(() => expect(server.store.get('default', 'held')?.metadata.deletionTimestamp).toBeDefined());
    expect(server.store.get('default', 'owner')?.metadata.finalizers).toEqual(['foregroundDeletion']);
    const patched = await api(server, 'PATCH', `${NS_BASE}/held`, {
      body: { metadata: { finalizers: null } },
      contentType: 'application/merge-patch+json',
    });
    expect(patched.status).toBe(200);
    const events = [await w.next(), await w.next(), await w.next(), await w.next()];
    expect(events.map((e) => [e.type, e.object.metadata?.name])).toEqual([
      ['MODIFIED', 'owner'],
      ['MODIFIED', 'held'],
      ['DELETED', 'held'],
      ['DELETED', 'owner'],
    ]);
    w.close();
    const again = await api(server, 'POST', NS_BASE, { body: { metadata: { name: 'owner' } } });
    expect(again.status).toBe(201);
  });

  // garbagecollector.go attemptToDeleteItem: a dependent with an owner that still exists is kept, and its
  // reference to an owner waiting for its dependents is removed so that owner is not held for good.
  it('keeps a dependent another owner still holds, dropping only the reference to the owner deleted in the foreground', async () => {
    const a = await create(server, 'a');
    const b = await create(server, 'b');
    const refs = [
      {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        name: 'a',
        uid: a.metadata?.uid,
        blockOwnerDeletion: true,
      },
      { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', name: 'b', uid: b.metadata?.uid },
    ];
    await create(server, 'shared', {}, { ownerReferences: refs });
    await api(server, 'DELETE', `${NS_BASE}/a`, { body: { propagationPolicy: 'Foreground' } });
    await eventually(() => expect(server.store.get('default', 'a')).toBeUndefined());
    expect(server.store.get('default', 'shared')?.metadata.ownerReferences?.map((r) => r.name)).toEqual(['b']);
  });

  // garbagecollector.go attemptToDeleteItem: a dependent of an owner waiting for its dependents that has
  // dependents of its own is deleted in the foreground too, so a blocking chain goes from its tail up.
  it('deletes a blocking chain in the foreground from its tail up', async () => {
    const head = await create(server, 'c0');
    const middle = await create(server, 'c1', {}, ownedBy(head.metadata?.uid ?? '', true));
    await create(server, 'c2', {}, ownedBy(middle.metadata?.uid ?? '', true));
    const w = await watch(server, `${NS_BASE}?watch=true&resourceVersion=${server.store.resourceVersion}`);
    await api(server, 'DELETE', `${NS_BASE}/c0`, { body: { propagationPolicy: 'Foreground' } });
    const events = [];
    for (let i = 0; i < 5; i++) events.push(await w.next());
    expect(events.map((e) => [e.type, e.object.metadata?.name])).toEqual([
      ['MODIFIED', 'c0'],
      ['MODIFIED', 'c1'],
      ['DELETED', 'c2'],
      ['DELETED', 'c1'],
      ['DELETED', 'c0'],
    ]);
    expect(events[1]?.object.metadata?.finalizers).toEqual(['foregroundDeletion']);
    w.close();
  });
});

/** A chain of `length` Leases in default, each owned by the one before; built through the store (no HTTP). */
function buildChain(server: LeaseApiServer, length: number, blockOwnerDeletion: boolean): void {
  let uid = '';
  for (let i = 0; i < length; i++) {
    const metadata = { name: `link-${i}`, namespace: 'default', ...(i === 0 ? {} : ownedBy(uid, blockOwnerDeletion)) };
    const created = server.store.create({ metadata });
    if (!created.ok) throw new Error(`link ${i}: ${created.error.message}`);
    uid = created.value.metadata.uid ?? '';
  }
}

async function storeEmptied(server: LeaseApiServer): Promise<void> {
  while (server.store.size > 0) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('the garbage collector under a 20,000-long ownerReference chain', () => {
  /**
   * The slowest GET /version while the chain goes, the DELETE included. The bound is generous for a loaded
   * 2-core machine; a collector inside the DELETE held every request for 43.6 s (Foreground) and 81.5 s
   * (Background) on this chain.
   */
  const PROBE_BOUND_MS = 1500;
  const LENGTH = 20_000;
  let server: LeaseApiServer;
  beforeEach(async () => {
    server = await start({ historyWindow: 100 });
  });
  afterEach(() => server.close());

  it('stops with close(): no slice runs after it', async () => {
    buildChain(server, 100, false);
    // The handle's delete is synchronous: the collector's first slice is only scheduled when close() comes.
    expect(server.store.delete('default', 'link-0').ok).toBe(true);
    await server.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.store.size).toBe(99);
  });

  it.each([
    ['Background', false],
    ['Foreground', true],
  ])(
    'deletes it all (%s) with no request waiting long',
    async (policy, blocking) => {
      buildChain(server, LENGTH, blocking);
      expect(server.store.size).toBe(LENGTH);
      const [worst, status] = await worstVersionLatency(server, async () => {
        const res = await api(server, 'DELETE', `${NS_BASE}/link-0`, { body: { propagationPolicy: policy } });
        await storeEmptied(server);
        return res.status;
      });
      expect(status).toBe(200);
      expect(server.store.size).toBe(0);
      expect(worst).toBeLessThan(PROBE_BOUND_MS);
    },
    300_000,
  );
});

describe('the garbage collector step', () => {
  // garbagecollector.go attemptToDeleteItem: an item whose object was re-created under its name (another uid)
  // since it was queued is not acted on.
  it('leaves alone an object created under a queued name since', () => {
    const ctx = context();
    const state = newGcState();
    ctx.store.subscribe((event) => observe(ctx, state, event));
    const refs = (uid: string) => [{ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', name: 'o', uid }];
    ctx.store.commit('default/o', { metadata: { name: 'o', uid: 'u-o' } });
    ctx.store.commit('default/d', { metadata: { name: 'd', uid: 'u-d', ownerReferences: refs('u-o') } });
    ctx.store.commit('default/o', undefined);
    expect(state.queue.size).toBe(1);
    ctx.store.commit('default/d', undefined);
    ctx.store.commit('default/d', { metadata: { name: 'd', uid: 'u-d2', ownerReferences: refs('u-gone') } });
    while (step(ctx, state));
    expect(ctx.store.get('default/d')?.metadata).toMatchObject({ uid: 'u-d2' });
    // The same object, queued by its owner's removal, is collected.
    ctx.store.commit('default/o', { metadata: { name: 'o', uid: 'u-o3' } });
    ctx.store.commit('default/d', { metadata: { name: 'd', uid: 'u-d3', ownerReferences: refs('u-o3') } });
    ctx.store.commit('default/o', undefined);
    while (step(ctx, state));
    expect(ctx.store.get('default/d')).toBeUndefined();
  });
});
