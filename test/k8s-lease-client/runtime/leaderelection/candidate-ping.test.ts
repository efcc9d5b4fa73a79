import { describe, expect, it } from 'vitest';
import type {
  Client,
  ElectionLeaseCandidate,
  RequestSpec,
} from '../../../../templates/k8s-lease-client/src/runtime/index.js';
import { createCandidate } from '../../../../templates/k8s-lease-client/src/runtime/index.js';

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
