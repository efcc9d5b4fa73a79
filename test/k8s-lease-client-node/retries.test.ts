// Retries through the Node package: a connection reset reaches withRetries as a ClusterConnectionError (code on the
// error itself), and a read is sent again while a create is not.
// It runs against the k8s-lease-client package, so it passes once the client is regenerated from templates/k8s-lease-client/src/runtime.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createClient, createNamespacedLease, readNamespacedLease } from 'k8s-lease-client';
import type { RetryEvent } from 'k8s-lease-client';
import { ClusterConnectionError, kubeconfigClientOptions } from '../../templates/k8s-lease-client-node/src/index.js';
import { lease, removeTempDirs, tempDir, writeKubeconfig } from './helpers.js';

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
  await removeTempDirs();
});

interface ResettingServer {
  url: string;
  /** Requests that reached the server, as "METHOD path". */
  seen: string[];
}

/** Destroys the socket of the first GET and of every POST; answers other GETs with the Lease. */
async function resettingServer(): Promise<ResettingServer> {
  const seen: string[] = [];
  let gets = 0;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    seen.push(`${req.method ?? ''} ${req.url ?? ''}`);
    req.resume();
    if (req.method === 'POST' || (req.method === 'GET' && gets++ === 0)) {
      req.socket.destroy();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ...lease('a'), metadata: { name: 'a', namespace: 'default', resourceVersion: '7' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

async function configFor(
  url: string,
  events: RetryEvent[],
): Promise<Awaited<ReturnType<typeof kubeconfigClientOptions>>> {
  const path = await writeKubeconfig(await tempDir(), 'config', {
    'current-context': 'x',
    clusters: [{ name: 'c', cluster: { server: url } }],
    users: [{ name: 'u', user: { token: 'retry-token' } }],
    contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
  });
  const config = await kubeconfigClientOptions({
    kubeconfig: path,
    env: {},
    retries: { baseDelayMs: 1, onRetry: (e) => events.push(e) },
  });
  cleanups.push(() => config.close());
  return config;
}

describe('retries through kubeconfigClientOptions', () => {
  it('reads again after a connection reset', async () => {
    const s = await resettingServer();
    const events: RetryEvent[] = [];
    const config = await configFor(s.url, events);
    const read = await readNamespacedLease(createClient(config.clientOptions), { namespace: 'default', name: 'a' });
    expect(read.metadata?.resourceVersion).toBe('7');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      attempt: 1,
      method: 'GET',
      url: `${s.url}/apis/coordination.k8s.io/v1/namespaces/default/leases/a`,
    });
    expect(['ECONNRESET', 'UND_ERR_SOCKET']).toContain(events[0]?.reason);
    expect(s.seen).toEqual([
      'GET /apis/coordination.k8s.io/v1/namespaces/default/leases/a',
      'GET /apis/coordination.k8s.io/v1/namespaces/default/leases/a',
    ]);
  });

  it('does not send a create again after a reset: it may have been applied', async () => {
    const s = await resettingServer();
    const events: RetryEvent[] = [];
    const config = await configFor(s.url, events);
    const error = await createNamespacedLease(createClient(config.clientOptions), {
      namespace: 'default',
      body: lease('b'),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClusterConnectionError);
    expect(events).toEqual([]);
    expect(s.seen).toEqual(['POST /apis/coordination.k8s.io/v1/namespaces/default/leases']);
  });
});
