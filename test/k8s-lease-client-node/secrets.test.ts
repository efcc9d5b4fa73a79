// Credentials never show in what configs print: util.inspect, JSON.stringify, String(), nor in error messages.
import { inspect } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createClient, readNamespacedLease } from 'k8s-lease-client';
import type { LeaseApiServer } from '../../templates/k8s-lease-api-server/src/index.js';
import {
  ClusterConnectionError,
  kubeconfigClientOptions,
  loadKubeconfig,
} from '../../templates/k8s-lease-client-node/src/index.js';
import { b64, removeTempDirs, start, tempDir, writeKubeconfig } from './helpers.js';

const servers: LeaseApiServer[] = [];
afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await removeTempDirs();
});

const TOKEN = 'tok-0123456789-secret';
const PASSWORD = 'pa55-word-secret';
const KEY = '-----BEGIN PRIVATE KEY-----\nkey-material-secret\n-----END PRIVATE KEY-----\n';
const EXEC_SECRET = 'exec-env-secret';
const EXEC_ARG_SECRET = 'exec-arg-secret';
const PROXY_PASSWORD = 'proxy-pa55-secret';
const BASIC = b64(`admin:${PASSWORD}`);
const SECRETS = [TOKEN, PASSWORD, 'key-material-secret', b64(KEY), EXEC_SECRET, EXEC_ARG_SECRET, PROXY_PASSWORD, BASIC];

/** Everything a config turns into when printed or logged. */
function renderings(value: unknown): string[] {
  return [
    inspect(value, { depth: Infinity, showHidden: false }),
    JSON.stringify(value) ?? '',
    String(value),
    `${inspect(value, { depth: 0 })}`,
  ];
}

function expectNoSecret(texts: string[]): void {
  for (const text of texts) for (const secret of SECRETS) expect(text).not.toContain(secret);
}

describe('redaction', () => {
  it('loaded kubeconfigs, their entries, configs and clients print without tokens, passwords, keys, exec args/env or proxy user-info', async () => {
    const dir = await tempDir();
    const path = await writeKubeconfig(dir, 'config', {
      'current-context': 'token',
      clusters: [
        { name: 'c', cluster: { server: 'http://127.0.0.1:1' } },
        {
          name: 'proxied',
          cluster: { server: 'http://127.0.0.1:1', 'proxy-url': `http://proxy-user:${PROXY_PASSWORD}@127.0.0.1:9` },
        },
      ],
      users: [
        { name: 'token', user: { token: TOKEN } },
        { name: 'basic', user: { username: 'admin', password: PASSWORD } },
        { name: 'cert', user: { 'client-certificate-data': b64('CERT'), 'client-key-data': b64(KEY) } },
        {
          name: 'exec',
          user: {
            exec: {
              command: 'plugin',
              apiVersion: 'client.authentication.k8s.io/v1',
              interactiveMode: 'Never',
              args: ['--secret', EXEC_ARG_SECRET],
              env: [{ name: 'SECRET', value: EXEC_SECRET }],
            },
          },
        },
      ],
      contexts: [
        { name: 'token', context: { cluster: 'c', user: 'token' } },
        { name: 'basic', context: { cluster: 'c', user: 'basic' } },
        { name: 'cert', context: { cluster: 'c', user: 'cert' } },
        { name: 'exec', context: { cluster: 'c', user: 'exec' } },
        { name: 'proxy', context: { cluster: 'proxied', user: 'token' } },
      ],
    });
    const config = await loadKubeconfig({ kubeconfig: path });
    // The data is there for the code that needs it...
    expect(config.users.get('token')?.token).toBe(TOKEN);
    expect(config.users.get('exec')?.exec?.args).toEqual(['--secret', EXEC_ARG_SECRET]);
    expect(config.clusters.get('proxied')?.proxyUrl).toContain(PROXY_PASSWORD);
    // ...and nowhere in what is printed, at any level.
    expectNoSecret([
      ...renderings(config),
      ...[...config.users.values()].flatMap(renderings),
      ...[...config.clusters.values()].flatMap(renderings),
      ...renderings(config.users.get('exec')?.exec),
    ]);
    expect(inspect(config, { depth: Infinity })).toContain('[REDACTED]');
    expect(inspect(config.clusters.get('proxied'))).toContain("proxyUrl: 'http://[REDACTED]@127.0.0.1:9/'");

    for (const context of ['token', 'basic', 'cert', 'exec', 'proxy']) {
      const client = await kubeconfigClientOptions({ kubeconfig: path, context, env: {} });
      expectNoSecret([
        ...renderings(client),
        ...renderings(client.clientOptions),
        ...renderings(client.clientOptions.headers),
        ...renderings(createClient(client.clientOptions)),
      ]);
      await client.close();
    }

    // A connection error through the proxy (nothing listens there), with its causes.
    const proxied = await kubeconfigClientOptions({ kubeconfig: path, context: 'proxy', env: {}, retries: false });
    try {
      const error = await readNamespacedLease(createClient(proxied.clientOptions), {
        namespace: 'default',
        name: 'a',
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ClusterConnectionError);
      expectNoSecret([...renderings(error), String((error as Error).stack)]);
    } finally {
      await proxied.close();
    }
  });

  it('a rejected token does not appear in the error', async () => {
    const s = await start({ tls: true, token: 'the-right-one' });
    servers.push(s);
    const dir = await tempDir();
    const path = await writeKubeconfig(dir, 'config', {
      'current-context': 'x',
      clusters: [{ name: 'c', cluster: { server: s.url, 'certificate-authority-data': b64(s.tls?.ca ?? '') } }],
      users: [{ name: 'u', user: { token: TOKEN } }],
      contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
    });
    const config = await kubeconfigClientOptions({ kubeconfig: path });
    try {
      const error = await readNamespacedLease(createClient(config.clientOptions), {
        namespace: 'default',
        name: 'a',
      }).catch((e: unknown) => e);
      expect(error).toMatchObject({ status: 401 });
      expectNoSecret([...renderings(error), String((error as Error).stack)]);
    } finally {
      await config.close();
    }
  });
});
