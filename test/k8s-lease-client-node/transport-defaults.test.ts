// What a client configured from a kubeconfig does on top of TLS: retries of idempotent requests, the API
// server's warnings, a User-Agent in client-go's shape, and the same identity kubectl has.
import { execFile } from 'node:child_process';
import { basename } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createClient, createNamespacedLease, readNamespacedLease, release, type ApiWarning } from 'k8s-lease-client';
import type { LeaseApiServer } from '../../templates/k8s-lease-api-server/src/index.js';
import {
  kubeconfigClientOptions,
  type KubeconfigClientOptions,
  type NodeClientConfig,
} from '../../templates/k8s-lease-client-node/src/index.js';
import { findKubectl } from '../helpers/external-tools.js';
import { describeWithTool } from '../helpers/needs-tool.js';
import { b64, lease, removeTempDirs, start, tempDir, writeKubeconfig } from './helpers.js';

const TOKEN = 'transport-defaults-token';
const servers: LeaseApiServer[] = [];
const configs: NodeClientConfig[] = [];

afterEach(async () => {
  await Promise.all(configs.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
afterAll(() => removeTempDirs());

async function setup(
  options: Omit<KubeconfigClientOptions, 'kubeconfig'> = {},
): Promise<{ server: LeaseApiServer; path: string; client: ReturnType<typeof createClient> }> {
  const server = await start({ tls: true, token: TOKEN });
  servers.push(server);
  const path = await writeKubeconfig(await tempDir(), 'config', {
    'current-context': 'ctx',
    clusters: [{ name: 'c', cluster: { server: server.url, 'certificate-authority-data': b64(server.tls?.ca ?? '') } }],
    users: [{ name: 'u', user: { token: TOKEN } }],
    contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'u' } }],
  });
  const config = await kubeconfigClientOptions({ kubeconfig: path, ...options });
  configs.push(config);
  return { server, path, client: createClient(config.clientOptions) };
}

describe('a client configured from a kubeconfig', () => {
  it('retries a read the server answers 503 and 429, honouring Retry-After, and reports each retry', async () => {
    const retries: Array<{ attempt: number; reason: string }> = [];
    const { server, client } = await setup({
      retries: {
        baseDelayMs: 1,
        maxDelayMs: 2_000,
        onRetry: ({ attempt, reason }) => retries.push({ attempt, reason }),
      },
    });
    await createNamespacedLease(client, { namespace: 'default', body: lease('a') });
    server.setFaults({
      throttle: { count: 1, retryAfterSeconds: 1, when: (r) => r.verb === 'get' },
      serverError: { status: 503, count: 1, when: (r) => r.verb === 'get' },
    });
    const read = await readNamespacedLease(client, { namespace: 'default', name: 'a' });
    expect(read.metadata?.name).toBe('a');
    expect(retries.map((r) => r.attempt)).toEqual([1, 2]);
    expect(
      server
        .requests()
        .filter((r) => r.method === 'GET' && r.path.endsWith('/leases/a'))
        .map((r) => r.status),
    ).toEqual([429, 503, 200]);
  });

  it('never retries a create', async () => {
    const { server, client } = await setup({ retries: { baseDelayMs: 1 } });
    server.setFaults({ serverError: { status: 503, count: 1, when: (r) => r.verb === 'create' } });
    await expect(createNamespacedLease(client, { namespace: 'default', body: lease('b') })).rejects.toMatchObject({
      status: 503,
    });
    expect(server.requests().filter((r) => r.method === 'POST').length).toBe(1);
  });

  it('hands the API server warnings to onApiWarning (a field the server dropped)', async () => {
    const warnings: ApiWarning[] = [];
    const { client } = await setup({ onApiWarning: (w) => warnings.push(w) });
    await createNamespacedLease(client, {
      namespace: 'default',
      fieldValidation: 'Warn',
      body: { ...lease('c'), spec: { holderIdentity: 'x', bogus: 1 } as never },
    });
    expect(warnings.map((w) => [w.code, w.text])).toEqual([[299, 'unknown field "spec.bogus"']]);
  });

  it('refuses a response larger than maxResponseBytes with a typed error naming the limit', async () => {
    const { server, client } = await setup({ maxResponseBytes: 10_000 });
    server.store.create({
      metadata: { name: 'big', namespace: 'default', annotations: { note: 'x'.repeat(50_000) } },
      spec: {},
    });
    await expect(readNamespacedLease(client, { namespace: 'default', name: 'big' })).rejects.toMatchObject({
      name: 'ResponseTooLargeError',
      limit: 'maxResponseBytes',
      maxBytes: 10_000,
    });
  });

  it("sends a User-Agent in client-go's shape, which the server takes as the field manager", async () => {
    const { server, client } = await setup();
    const created = await createNamespacedLease(client, { namespace: 'default', body: lease('d') });
    const agent = server.requests().find((r) => r.method === 'POST')?.userAgent ?? '';
    expect(agent).toMatch(
      new RegExp(
        `^k8s-lease-client/[^ ]+ \\((linux|darwin|windows)/(amd64|arm64|[a-z0-9]+)\\) kubernetes/${release.replace(/\./g, '\\.')}$`,
      ),
    );
    expect(created.metadata?.managedFields?.map((m) => m.manager)).toEqual(['k8s-lease-client']);
  });
});

describeWithTool('kubectl', findKubectl()?.path, 'kubectl and this client read one kubeconfig', (binary) => {
  it('reach the same server as the same user', async () => {
    const { server, path, client } = await setup();
    await readNamespacedLease(client, { namespace: 'default', name: 'missing' }).catch(() => undefined);
    await new Promise<void>((resolve, reject) =>
      execFile(
        binary,
        ['--kubeconfig', path, 'get', 'lease', 'missing'],
        { env: { PATH: process.env['PATH'] ?? '/usr/bin', HOME: `${path}.home` }, timeout: 30_000 },
        (error) => (error === null || typeof error.code === 'number' ? resolve() : reject(error)),
      ),
    );
    const reads = server.requests().filter((r) => r.path.endsWith('/leases/missing'));
    // kubectl names itself after its file (client-go rest.DefaultUserAgent reads os.Args[0]): kubectl, kubectl.1.27 …
    expect(reads.map((r) => r.userAgent.split('/')[0])).toEqual(['k8s-lease-client', basename(binary)]);
    expect(new Set(reads.map((r) => r.user))).toEqual(new Set(['lease-api-test-user']));
  });
});
