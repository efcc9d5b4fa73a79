// createCandidate (candidate.ts): the LeaseCandidate a component publishes for coordinated leader election, as
// client-go's tools/leaderelection/leasecandidate.go NewCandidate.
import { describe, expect, it } from 'vitest';
import { createCandidate } from '../../../../templates/k8s-lease-client/src/runtime/leaderelection/candidate.js';
import type { ElectionLeaseCandidate } from '../../../../templates/k8s-lease-client/src/runtime/leaderelection/candidate.js';
import type { Client, RequestSpec } from '../../../../templates/k8s-lease-client/src/runtime/transport.js';
import { start } from '../../../k8s-lease-api-server/helpers.js';
import { processClient, settle, VirtualClock } from './harness.js';

const NS = 'default';

/** A client whose GETs answer `spec` and whose writes are recorded; the run stops after `gets` GETs. */
function scriptedClient(spec: ElectionLeaseCandidate['spec'], gets: number, stop: AbortController) {
  const writes: string[] = [];
  let seen = 0;
  const client: Client = {
    baseUrl: 'http://stub',
    async request<T>(request: RequestSpec): Promise<T> {
      if (request.method === 'GET' && ++seen >= gets) stop.abort();
      if (request.method !== 'GET') writes.push(request.method);
      return { metadata: { name: 'a', namespace: 'ns' }, spec } as T;
    },
  };
  return { client, writes };
}

describe("createCandidate answers the controller's pings (client-go's enqueueLease)", () => {
  it.each([
    ['a ping in the same millisecond as the renewal, a microsecond later', '2026-01-01T00:00:00.000002Z', 2],
    ['a ping older than the renewal', '2026-01-01T00:00:00.000000Z', 1],
  ])('%s', async (_name, pingTime, puts) => {
    const stop = new AbortController();
    const { client, writes } = scriptedClient(
      { leaseName: 'l', renewTime: '2026-01-01T00:00:00.000001Z' as never, pingTime: pingTime as never },
      // the first renewal's GET, then one poll's GET (and the answering renewal's GET)
      3,
      stop,
    );
    let now = 0;
    const clock = { now: () => (now += 1), sleep: async (): Promise<void> => undefined };
    await createCandidate({
      client,
      namespace: 'ns',
      name: 'a',
      leaseName: 'l',
      binaryVersion: '1.33.0',
      emulationVersion: '1.33.0',
      renewInterval: 1_000_000,
      pingPollInterval: 1,
      clock,
      signal: stop.signal,
    }).run();
    expect(writes).toEqual(Array(puts).fill('PUT'));
  });
});

describe('createCandidate (client-go NewCandidate)', () => {
  it('on 1.31 publishes v1alpha1 preferredStrategies, and answers a ping by renewing past pingTime', async () => {
    const own = new VirtualClock();
    const server131 = await start({ release: '1.31', clock: own.now, coordinatedLeaderElection: { resyncMs: 0 } });
    const stop = new AbortController();
    try {
      const view = own.view();
      const runner = createCandidate({
        client: processClient(server131.url, view),
        namespace: NS,
        name: 'cm-1',
        leaseName: 'kube-controller-manager',
        binaryVersion: '1.31.1',
        emulationVersion: '1.31.0',
        groupVersion: 'v1alpha1',
        renewInterval: 300_000,
        pingPollInterval: 1_000,
        clock: view,
        signal: stop.signal,
      });
      const done = runner.run();
      await settle();
      const path = `/apis/coordination.k8s.io/v1alpha1/namespaces/${NS}/leasecandidates/cm-1`;
      const read = async (): Promise<{ spec: Record<string, string> }> =>
        (await fetch(server131.url + path)).json() as Promise<{ spec: Record<string, string> }>;
      const created = await read();
      expect(created.spec).toMatchObject({
        leaseName: 'kube-controller-manager',
        preferredStrategies: ['OldestEmulationVersion'],
        binaryVersion: '1.31.1',
        emulationVersion: '1.31.0',
      });
      expect(created.spec['strategy']).toBeUndefined();
      // The controller's ping, 10 s later: the candidate renews at its next check, not at its 5-minute interval.
      own.advance(10_000);
      await settle();
      const pingTime = new Date(own.now()).toISOString().replace('Z', '000Z');
      await fetch(server131.url + path, {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/merge-patch+json' },
        body: JSON.stringify({ spec: { pingTime } }),
      });
      own.advance(1_000);
      await settle();
      const answered = await read();
      expect(answered.spec['pingTime']).toBe(pingTime);
      expect(Date.parse(answered.spec['renewTime'] ?? '')).toBeGreaterThan(Date.parse(pingTime));
      stop.abort();
      await done;
    } finally {
      await server131.close();
    }
  });
});
