// How a kubeconfig user with `exec` is wired to the exec module (replaced here by a fake plugin source):
// the token provider is the source's token, the fetch is refreshOnUnauthorized's, and a client certificate
// the plugin returns is presented over TLS.
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createClient, createNamespacedLease, readNamespacedLease } from 'k8s-lease-client';
import type { LeaseApiServer } from '../../templates/k8s-lease-api-server/src/index.js';
import type {
  ExecClusterInfo,
  ExecCredentialSource,
  KubeconfigExec,
} from '../../templates/k8s-lease-client-node/src/exec/index.js';
import { kubeconfigClientOptions } from '../../templates/k8s-lease-client-node/src/index.js';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { b64, lease, removeTempDirs, start, tempDir, writeKubeconfig } from './helpers.js';

interface Plugin {
  token: string | undefined;
  certificate: { cert: string; key: string } | undefined;
  calls: Array<{ exec: KubeconfigExec; cluster: ExecClusterInfo; kubeconfigPath: string | undefined }>;
  invalidations: number;
  /** token() and clientCertificate() calls: whether the plugin would have run. */
  asked: number;
}
const plugin: Plugin = { token: undefined, certificate: undefined, calls: [], invalidations: 0, asked: 0 };

vi.mock('../../templates/k8s-lease-client-node/src/exec/index.js', () => ({
  execCredentialSource: (
    exec: KubeconfigExec,
    cluster: ExecClusterInfo,
    options?: { kubeconfigPath?: string },
  ): ExecCredentialSource => {
    plugin.calls.push({ exec, cluster, kubeconfigPath: options?.kubeconfigPath });
    return {
      token: async () => {
        plugin.asked += 1;
        return plugin.token;
      },
      clientCertificate: async () => {
        plugin.asked += 1;
        return plugin.certificate;
      },
      invalidate: () => {
        plugin.invalidations += 1;
      },
    };
  },
  // As the real one: on a 401, invalidate the credential and send the request once more.
  refreshOnUnauthorized:
    (fetch: typeof globalThis.fetch, source: ExecCredentialSource): typeof globalThis.fetch =>
    async (input, init) => {
      const response = await fetch(input, init);
      if (response.status !== 401) return response;
      source.invalidate();
      return fetch(input, init);
    },
}));

const servers: LeaseApiServer[] = [];
afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await removeTempDirs();
});

async function kubeconfigFor(s: LeaseApiServer): Promise<string> {
  const dir = await tempDir();
  return writeKubeconfig(dir, 'config', {
    'current-context': 'x',
    clusters: [{ name: 'c', cluster: { server: s.url, 'certificate-authority-data': b64(s.tls?.ca ?? '') } }],
    users: [
      {
        name: 'u',
        user: {
          exec: { command: 'bin/plugin', apiVersion: 'client.authentication.k8s.io/v1', provideClusterInfo: true },
        },
      },
    ],
    contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
  });
}

describe('exec users', () => {
  it('send the token the plugin returns, through refreshOnUnauthorized', async () => {
    const s = await start({ tls: true, token: 'exec-token' });
    servers.push(s);
    const path = await kubeconfigFor(s);
    Object.assign(plugin, { token: 'exec-token', certificate: undefined, calls: [], invalidations: 0 });
    const config = await kubeconfigClientOptions({ kubeconfig: path });
    try {
      const client = createClient(config.clientOptions);
      await createNamespacedLease(client, { namespace: 'default', body: lease('exec') });
      expect(plugin.calls).toHaveLength(1);
      expect(plugin.calls[0]?.kubeconfigPath).toBe(path);
      expect(plugin.calls[0]?.exec.command).toBe(path.replace(/config$/, 'bin/plugin'));
      expect(plugin.calls[0]?.cluster).toMatchObject({ server: s.url, certificateAuthorityData: s.tls?.ca });
      // A 401 goes through the source's invalidate before the error reaches the caller.
      plugin.token = 'revoked';
      await expect(readNamespacedLease(client, { namespace: 'default', name: 'exec' })).rejects.toMatchObject({
        status: 401,
      });
      expect(plugin.invalidations).toBe(1);
    } finally {
      await config.close();
    }
  });

  it('present the client certificate the plugin returns', async () => {
    const s = await start({ tls: { clientCertificates: true } });
    servers.push(s);
    const tls = s.tls;
    if (!tls?.clientCertificate || !tls.clientKey) throw new Error('no client certificate issued');
    const path = await kubeconfigFor(s);
    Object.assign(plugin, { token: undefined, certificate: undefined, calls: [], invalidations: 0 });
    const config = await kubeconfigClientOptions({ kubeconfig: path });
    try {
      const client = createClient(config.clientOptions);
      await expect(readNamespacedLease(client, { namespace: 'default', name: 'none' })).rejects.toMatchObject({
        status: 401,
      });
      plugin.certificate = { cert: tls.clientCertificate, key: tls.clientKey };
      await createNamespacedLease(client, { namespace: 'default', body: lease('exec-cert') });
      expect(s.store.get('default', 'exec-cert')).toBeDefined();
    } finally {
      await config.close();
    }
  });

  it.each([
    { name: 'a token', user: { token: 'static-token' } },
    { name: 'a tokenFile', user: { tokenFile: 'token' } },
    { name: 'a username (basic auth)', user: { username: 'admin', password: 'pw' } },
    { name: 'a client certificate', user: {} },
  ])("are not run when the user also has $name, as client-go's exec.UpdateTransportConfig", async ({ name, user }) => {
    const certificate = name === 'a client certificate';
    const s = await start({ tls: certificate ? { clientCertificates: true } : true, token: 'static-token' });
    servers.push(s);
    const dir = await tempDir();
    await writeFile(join(dir, 'token'), 'static-token\n');
    const credentials = certificate
      ? {
          'client-certificate-data': b64(s.tls?.clientCertificate ?? ''),
          'client-key-data': b64(s.tls?.clientKey ?? ''),
        }
      : user;
    const path = await writeKubeconfig(dir, 'config', {
      'current-context': 'x',
      clusters: [{ name: 'c', cluster: { server: s.url, 'certificate-authority-data': b64(s.tls?.ca ?? '') } }],
      users: [
        {
          name: 'u',
          user: {
            ...credentials,
            exec: { command: 'bin/plugin', apiVersion: 'client.authentication.k8s.io/v1', interactiveMode: 'Never' },
          },
        },
      ],
      contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
    });
    Object.assign(plugin, { token: 'exec-token', certificate: undefined, calls: [], invalidations: 0, asked: 0 });
    const config = await kubeconfigClientOptions({ kubeconfig: path, env: {} });
    try {
      const client = createClient(config.clientOptions);
      const outcome = await readNamespacedLease(client, { namespace: 'default', name: 'absent' }).catch(
        (e: unknown) => e,
      );
      // Basic auth is not one of the test server's authenticators: its 401 still shows the exec token was not sent instead.
      expect(outcome).toMatchObject({ status: name === 'a username (basic auth)' ? 401 : 404 });
      expect(plugin.asked).toBe(0);
      // The stanza is still validated, as client-go's GetAuthenticator does before UpdateTransportConfig.
      expect(plugin.calls).toHaveLength(1);
    } finally {
      await config.close();
    }
  });
});
