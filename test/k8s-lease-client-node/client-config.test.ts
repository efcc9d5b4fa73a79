// client-config.ts: in-cluster configuration (client-go's rest.InClusterConfig) from a service-account mount in a
// temporary directory, loadClientConfig's choice between a kubeconfig and the Pod's mount, and the retries a
// kubeconfig-configured client makes: a connection reset reaches withRetries as a ClusterConnectionError (code on the
// error itself), and a read is sent again while a create is not.
import { writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createClient, createNamespacedLease, readNamespacedLease, watchNamespacedLeases } from 'k8s-lease-client';
import type { RetryEvent } from 'k8s-lease-client';
import type { LeaseApiServer } from '../../templates/k8s-lease-api-server/src/index.js';
import {
  inClusterClientOptions,
  kubeconfigClientOptions,
  loadClientConfig,
} from '../../templates/k8s-lease-client-node/src/client-config.js';
import { ClusterConnectionError, KubeconfigError } from '../../templates/k8s-lease-client-node/src/errors.js';
import { lease, removeTempDirs, replaceFile, start, tempDir, writeKubeconfig } from './helpers.js';

const servers: LeaseApiServer[] = [];
afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await removeTempDirs();
});

async function mount(s: LeaseApiServer, token: string, namespace?: string): Promise<string> {
  const root = await tempDir();
  await writeFile(join(root, 'token'), token);
  await writeFile(join(root, 'ca.crt'), s.tls?.ca ?? '');
  if (namespace !== undefined) await writeFile(join(root, 'namespace'), namespace);
  return root;
}

const podEnv = (s: LeaseApiServer): NodeJS.ProcessEnv => ({
  KUBERNETES_SERVICE_HOST: '127.0.0.1',
  KUBERNETES_SERVICE_PORT: String(s.port),
});

describe('inClusterClientOptions', () => {
  it('reaches the server with the mounted CA and token; the namespace file is the default namespace', async () => {
    const s = await start({ tls: true, token: 'sa-token' });
    servers.push(s);
    const root = await mount(s, 'sa-token\n', 'other');
    const config = await inClusterClientOptions({ root, env: podEnv(s) });
    try {
      expect(config.namespace).toBe('other');
      expect(config.clientOptions.baseUrl).toBe(`https://127.0.0.1:${s.port}`);
      const client = createClient(config.clientOptions);
      await createNamespacedLease(client, { namespace: config.namespace, body: lease('pod', 'other') });
      expect((await readNamespacedLease(client, { namespace: 'other', name: 'pod' })).metadata?.namespace).toBe(
        'other',
      );
    } finally {
      await config.close();
    }
  });

  it('brackets an IPv6 service host, prefers POD_NAMESPACE, and warns when ca.crt is missing (system roots then)', async () => {
    const root = await tempDir();
    await writeFile(join(root, 'token'), 't');
    await writeFile(join(root, 'namespace'), 'from-file');
    const warnings: string[] = [];
    const env = { KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '443', POD_NAMESPACE: 'from-env' };
    const config = await inClusterClientOptions({ root, env, onWarning: (m) => warnings.push(m) });
    expect(config.clientOptions.baseUrl).toBe('https://[fd00::1]:443');
    expect(config.namespace).toBe('from-env');
    expect(warnings).toEqual([
      `${join(root, 'ca.crt')}: cannot read the in-cluster CA; using the system's trusted roots`,
    ]);
    await config.close();
  });

  it('names what is missing: the service variables, the token file', async () => {
    const root = await tempDir();
    await expect(inClusterClientOptions({ root, env: {} })).rejects.toThrow(
      'KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined',
    );
    const error = await inClusterClientOptions({
      root,
      env: { KUBERNETES_SERVICE_HOST: 'h', KUBERNETES_SERVICE_PORT: '1' },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KubeconfigError);
    expect((error as Error).message).toBe(`${join(root, 'token')}: cannot read token file (ENOENT)`);
  });

  it('loadClientConfig picks in-cluster when no kubeconfig exists and the Pod variables are set', async () => {
    const s = await start({ tls: true, token: 'sa-token' });
    servers.push(s);
    const root = await mount(s, 'sa-token');
    const home = await tempDir();
    const config = await loadClientConfig({ root, env: { ...podEnv(s), HOME: home } });
    try {
      await createNamespacedLease(createClient(config.clientOptions), { namespace: 'default', body: lease('auto') });
      expect(s.store.get('default', 'auto')).toBeDefined();
    } finally {
      await config.close();
    }
  });

  it('a running watch reconnects with the rotated token', async () => {
    // An open server admits any token, so the tokens sent are observed at the fetch boundary; the watch's
    // first connection is ended by the server after one event, as an apiserver ends watches on timeout.
    const s = await start({ tls: true, faults: { watch: [{ kind: 'end', afterEvents: 1 }] } });
    servers.push(s);
    const root = await mount(s, 'token-1\n');
    const config = await inClusterClientOptions({ root, env: podEnv(s) });
    const baseFetch = config.clientOptions.fetch ?? fetch;
    const watchTokens: string[] = [];
    const recording: typeof fetch = (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      const headers = new Headers(init?.headers);
      if (url.includes('watch=true') || url.includes('watch=1')) watchTokens.push(headers.get('authorization') ?? '');
      return baseFetch(input, init);
    };
    const client = createClient({ ...config.clientOptions, fetch: recording });
    const abort = new AbortController();
    let connections = 0;
    const seen: string[] = [];
    try {
      const watch = watchNamespacedLeases(
        client,
        { namespace: 'default' },
        {
          signal: abort.signal,
          reconnect: { initialDelayMs: 1, maxDelayMs: 10 },
          onConnect: () => {
            connections += 1;
            if (connections === 1)
              void createNamespacedLease(client, { namespace: 'default', body: lease('before-rotation') });
          },
        },
      );
      for await (const event of watch) {
        if (event.type !== 'ADDED') continue;
        seen.push(event.object.metadata?.name ?? '');
        if (seen.length === 1) {
          await replaceFile(join(root, 'token'), 'token-2\n');
          await createNamespacedLease(client, { namespace: 'default', body: lease('after-rotation') });
        }
        if (seen.length === 2) break;
      }
    } finally {
      abort.abort();
      await config.close();
    }
    expect(seen).toEqual(['before-rotation', 'after-rotation']);
    expect(connections).toBeGreaterThanOrEqual(2);
    expect(watchTokens[0]).toBe('Bearer token-1');
    expect(watchTokens.at(-1)).toBe('Bearer token-2');
  });
});

describe('loadClientConfig', () => {
  it('uses the kubeconfig when one exists even inside a Pod', async () => {
    const dir = await tempDir();
    const sa = await tempDir();
    await writeFile(join(sa, 'token'), 'sa');
    await writeFile(join(sa, 'ca.crt'), '');
    const path = await writeKubeconfig(dir, 'config', {
      'current-context': 'x',
      clusters: [{ name: 'c', cluster: { server: 'http://kubeconfig.example' } }],
      users: [{ name: 'u', user: {} }],
      contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
    });
    const config = await loadClientConfig({
      root: sa,
      env: { KUBECONFIG: path, KUBERNETES_SERVICE_HOST: '10.0.0.1', KUBERNETES_SERVICE_PORT: '443' },
    });
    expect(config.clientOptions.baseUrl).toBe('http://kubeconfig.example');
    await config.close();
  });
});

// Retries through the Node package (they run against the k8s-lease-client package, so they pass once the client is
// regenerated from templates/k8s-lease-client/src/runtime).
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
