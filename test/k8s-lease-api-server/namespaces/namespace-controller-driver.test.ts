// The namespace controller's driver against a running server: it empties a namespace off the request
// path, a slice of objects per turn of the event loop, through the resources' own delete path (a watcher
// sees each DELETED, as the upstream controller's deletes through the API do), Leases and LeaseCandidates
// alike (namespaced_resources_deleter.go deletes every namespaced resource discovery lists), and other
// requests are served meanwhile. The latency bound is generous: the machine is shared (see
// hostile-input.test.ts, whose probe this reuses in spirit).
import { afterEach, describe, expect, it } from 'vitest';
import type { LeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import { LEASE_RESOURCE } from '../../../templates/k8s-lease-api-server/src/lease-meta.js';
import { observeNamespace } from '../../../templates/k8s-lease-api-server/src/namespaces/namespace-controller-driver.js';
import { LeaseStore } from '../../../templates/k8s-lease-api-server/src/store/lease-store.js';
import { BASE, api, lease, start, watch } from '../helpers.js';

const PROBE_BOUND_MS = 1500;
const COUNT = 600;

async function worstVersionLatency(server: LeaseApiServer, until: () => Promise<boolean>): Promise<number> {
  let worst = 0;
  const deadline = Date.now() + 60_000;
  while (!(await until())) {
    if (Date.now() > deadline) throw new Error('timed out');
    const started = performance.now();
    const res = await fetch(`${server.url}/version`);
    await res.arrayBuffer();
    worst = Math.max(worst, performance.now() - started);
  }
  return worst;
}

describe('namespace controller driver', () => {
  let server: LeaseApiServer;
  afterEach(() => server.close());

  it(`deletes ${COUNT} Leases and the LeaseCandidates of a namespace in slices, each seen DELETED, and serves others meanwhile`, async () => {
    server = await start({ coordinatedLeaderElection: { resyncMs: 0 } });
    expect((await api(server, 'POST', '/api/v1/namespaces', { body: { metadata: { name: 'bulk' } } })).status).toBe(
      201,
    );
    for (let i = 0; i < COUNT; i += 50) {
      const batch = Array.from({ length: Math.min(50, COUNT - i) }, (_, j) =>
        api(server, 'POST', `${BASE}/namespaces/bulk/leases`, { body: lease(`l-${i + j}`) }),
      );
      for (const res of await Promise.all(batch)) expect(res.status).toBe(201);
    }
    const candidate = await api(server, 'POST', '/apis/coordination.k8s.io/v1beta1/namespaces/bulk/leasecandidates', {
      body: {
        apiVersion: 'coordination.k8s.io/v1beta1',
        kind: 'LeaseCandidate',
        metadata: { name: 'c1' },
        spec: {
          leaseName: 'x',
          binaryVersion: '1.34.0',
          emulationVersion: '1.33.0',
          strategy: 'OldestEmulationVersion',
        },
      },
    });
    expect(candidate.status).toBe(201);
    const list = await api(server, 'GET', `${BASE}/namespaces/bulk/leases`);
    const events = await watch(
      server,
      `${BASE}/namespaces/bulk/leases?watch=1&resourceVersion=${list.body.metadata?.resourceVersion}`,
    );
    expect((await api(server, 'DELETE', '/api/v1/namespaces/bulk')).status).toBe(200);
    const gone = async (): Promise<boolean> => (await api(server, 'GET', '/api/v1/namespaces/bulk')).status === 404;
    const worst = await worstVersionLatency(server, gone);
    expect(worst).toBeLessThan(PROBE_BOUND_MS);
    const deleted = new Set<string>();
    while (deleted.size < COUNT) {
      const event = await events.next(20_000);
      expect(event.type).toBe('DELETED');
      deleted.add(event.object.metadata?.name ?? '');
    }
    events.close();
    expect(
      (await api(server, 'GET', '/apis/coordination.k8s.io/v1beta1/namespaces/bulk/leasecandidates')).body.items,
    ).toEqual([]);
  }, 120_000);
});

describe('observeNamespace', () => {
  const leases = { store: new LeaseStore(100), resource: LEASE_RESOURCE };
  for (let i = 0; i < 100; i++)
    leases.store.commit(`ns/l-${String(i).padStart(3, '0')}`, { metadata: { name: `l-${i}` } });
  leases.store.commit('ns0/other', { metadata: { name: 'other' } });
  leases.store.commit('ns/kept', { metadata: { name: 'kept', deletionTimestamp: 'T', finalizers: ['x.io/a'] } });
  const registry = { get: () => undefined };
  const resources = new Map([['v1/leases', leases]]);

  it('takes one slice of the objects not yet marked, and says the look was partial', () => {
    const seen = observeNamespace('ns', registry, resources, [], { slice: 64, scan: 4096 }, 0);
    expect(seen.deletable).toHaveLength(64);
    expect(seen.deletable[0]).toEqual({ resource: 'v1/leases', key: 'ns/l-000' });
    expect(seen.complete).toBe(false);
    expect(seen.totals.remaining).toEqual({ 'leases.coordination.k8s.io': 101 });
  });

  it('stops at the scan limit, the marked objects it passes counted in it', () => {
    // "ns/kept" sorts first: 10 entries looked at, 9 of them deletable.
    const seen = observeNamespace('ns', registry, resources, [], { slice: 64, scan: 10 }, 0);
    expect(seen.deletable).toHaveLength(9);
    expect(seen.complete).toBe(false);
  });

  it('counts the finalizers of marked objects when the look covers everything', () => {
    const seen = observeNamespace('ns', registry, resources, ['boom'], { slice: 1000, scan: 4096 }, 0);
    expect(seen.complete).toBe(true);
    expect(seen.deletable).toHaveLength(100);
    expect(seen.totals).toEqual({
      remaining: { 'leases.coordination.k8s.io': 101 },
      finalizers: { 'x.io/a': 1 },
      failures: ['boom'],
    });
  });
});
