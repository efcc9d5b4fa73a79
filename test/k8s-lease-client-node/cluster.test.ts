// Reaching the Lease API server over HTTPS with kubeconfigs: CA, client certificates, tokens, token files, proxies.
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { delimiter, join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createClient, createNamespacedLease, KubernetesApiError, readNamespacedLease } from 'k8s-lease-client';
import type { LeaseApiServer } from '../../templates/k8s-lease-api-server/src/index.js';
import { ClusterConnectionError, kubeconfigClientOptions } from '../../templates/k8s-lease-client-node/src/index.js';
import type { NodeClientConfig } from '../../templates/k8s-lease-client-node/src/index.js';
import { findKubectl } from '../helpers/external-tools.js';
import { describeWithTool } from '../helpers/needs-tool.js';
import { b64, lease, removeTempDirs, replaceFile, start, tempDir, writeKubeconfig } from './helpers.js';

const servers: LeaseApiServer[] = [];
const configs: NodeClientConfig[] = [];

async function server(options: Parameters<typeof start>[0]): Promise<LeaseApiServer> {
  const s = await start(options);
  servers.push(s);
  return s;
}

async function clientFor(
  options: Parameters<typeof kubeconfigClientOptions>[0],
): Promise<{ config: NodeClientConfig; client: ReturnType<typeof createClient> }> {
  const config = await kubeconfigClientOptions(options);
  configs.push(config);
  return { config, client: createClient(config.clientOptions) };
}

afterEach(async () => {
  await Promise.all(configs.splice(0).map((c) => c.close()));
});
afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await removeTempDirs();
});

function ca(s: LeaseApiServer): string {
  if (!s.tls) throw new Error('server without TLS');
  return s.tls.ca;
}

describe('HTTPS with the server generated CA', () => {
  it('creates and reads a Lease with certificate-authority-data and a bearer token, in the context namespace', async () => {
    const s = await server({ tls: true, token: 'secret-token' });
    const dir = await tempDir();
    const path = await writeKubeconfig(dir, 'config', {
      'current-context': 'ctx',
      clusters: [{ name: 'c', cluster: { server: s.url, 'certificate-authority-data': b64(ca(s)) } }],
      users: [{ name: 'u', user: { token: 'secret-token' } }],
      contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'u', namespace: 'other' } }],
    });
    const { config, client } = await clientFor({ kubeconfig: path });
    expect(config.namespace).toBe('other');
    await createNamespacedLease(client, { namespace: config.namespace, body: lease('a', 'other') });
    const read = await readNamespacedLease(client, { namespace: 'other', name: 'a' });
    expect(read.spec?.holderIdentity).toBe('node-test');
  });

  it('reads the CA from a file named relative to the kubeconfig directory, and picks a non-current context', async () => {
    const s = await server({ tls: true, token: 'tok' });
    const dir = await tempDir();
    await writeFile(join(dir, 'ca.pem'), ca(s));
    const path = await writeKubeconfig(dir, 'config', {
      'current-context': 'broken',
      clusters: [
        { name: 'good', cluster: { server: s.url, 'certificate-authority': 'ca.pem' } },
        { name: 'bad', cluster: { server: 'https://127.0.0.1:1' } },
      ],
      users: [{ name: 'u', user: { token: 'tok' } }],
      contexts: [
        { name: 'broken', context: { cluster: 'bad', user: 'u' } },
        { name: 'works', context: { cluster: 'good', user: 'u' } },
      ],
    });
    const { config, client } = await clientFor({ kubeconfig: path, context: 'works' });
    expect(config.namespace).toBe('default');
    await createNamespacedLease(client, { namespace: 'default', body: lease('rel') });
    expect((await readNamespacedLease(client, { namespace: 'default', name: 'rel' })).metadata?.name).toBe('rel');
  });

  it('fails with an error naming the server and the certificate when the CA does not match', async () => {
    const s = await server({ tls: true });
    const other = await server({ tls: true });
    const dir = await tempDir();
    const path = await writeKubeconfig(dir, 'config', {
      'current-context': 'x',
      clusters: [{ name: 'c', cluster: { server: s.url, 'certificate-authority-data': b64(ca(other)) } }],
      users: [{ name: 'u', user: {} }],
      contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
    });
    const { client } = await clientFor({ kubeconfig: path });
    const error = await readNamespacedLease(client, { namespace: 'default', name: 'a' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClusterConnectionError);
    expect(String((error as Error).message)).toContain(new URL(s.url).origin);
    expect(String((error as Error).message)).toContain('certificate');
    expect(String((error as Error).message)).not.toContain('\n');
  });

  it('skips verification with insecure-skip-tls-verify and warns through onWarning', async () => {
    const s = await server({ tls: true });
    const dir = await tempDir();
    const path = await writeKubeconfig(dir, 'config', {
      'current-context': 'x',
      clusters: [{ name: 'c', cluster: { server: s.url, 'insecure-skip-tls-verify': true } }],
      users: [{ name: 'u', user: {} }],
      contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
    });
    const warnings: string[] = [];
    const { client } = await clientFor({ kubeconfig: path, onWarning: (m) => warnings.push(m) });
    await createNamespacedLease(client, { namespace: 'default', body: lease('insecure') });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('insecure-skip-tls-verify');
    expect(warnings[0]).toContain(path);
  });

  it('verifies against tls-server-name when the URL host is not in the certificate', async () => {
    // Listening on every address, the certificate names 0.0.0.0, 127.0.0.1 and localhost; reached as 127.0.0.2 only tls-server-name makes it verify.
    const s = await server({ tls: true, host: '0.0.0.0' });
    const dir = await tempDir();
    const url = `https://127.0.0.2:${s.port}`;
    const doc = (tlsServerName?: string) => ({
      'current-context': 'x',
      clusters: [
        {
          name: 'c',
          cluster: {
            server: url,
            'certificate-authority-data': b64(ca(s)),
            ...(tlsServerName ? { 'tls-server-name': tlsServerName } : {}),
          },
        },
      ],
      users: [{ name: 'u', user: {} }],
      contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
    });
    const without = await clientFor({ kubeconfig: await writeKubeconfig(dir, 'without', doc()) });
    const error = await readNamespacedLease(without.client, { namespace: 'default', name: 'a' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ClusterConnectionError);
    expect((error as Error).message).toContain('certificate');
    const withName = await clientFor({ kubeconfig: await writeKubeconfig(dir, 'with', doc('localhost')) });
    await createNamespacedLease(withName.client, { namespace: 'default', body: lease('sni') });
  });
});

describe('a merged KUBECONFIG list', () => {
  it('reaches the server with the context of the first file, the user of the second and the cluster (relative CA file) of the third', async () => {
    const s = await server({ tls: true, token: 'merged-token', forbiddenTokens: ['shadowed-token'] });
    const root = await tempDir();
    const { mkdir } = await import('node:fs/promises');
    for (const sub of ['a', 'b', 'c']) await mkdir(join(root, sub));
    await writeFile(join(root, 'c', 'ca.pem'), ca(s));
    const a = await writeKubeconfig(join(root, 'a'), 'config', {
      'current-context': 'merged',
      contexts: [{ name: 'merged', context: { cluster: 'cluster', user: 'user', namespace: 'elsewhere' } }],
    });
    const b = await writeKubeconfig(join(root, 'b'), 'config', {
      'current-context': 'ignored',
      users: [{ name: 'user', user: { token: 'merged-token' } }],
    });
    const c = await writeKubeconfig(join(root, 'c'), 'config', {
      clusters: [{ name: 'cluster', cluster: { server: s.url, 'certificate-authority': 'ca.pem' } }],
      users: [{ name: 'user', user: { token: 'shadowed-token' } }],
    });
    const { config, client } = await clientFor({
      env: { KUBECONFIG: [a, join(root, 'missing'), b, c].join(delimiter) },
    });
    expect(config.namespace).toBe('elsewhere');
    await createNamespacedLease(client, { namespace: config.namespace, body: lease('merged', 'elsewhere') });
    expect(s.store.get('elsewhere', 'merged')).toBeDefined();
  });
});

describe('client certificates (mTLS)', () => {
  const forms = [
    {
      form: '-data',
      user: (cert: string, key: string) => ({ 'client-certificate-data': b64(cert), 'client-key-data': b64(key) }),
    },
    {
      form: 'files, relative paths',
      user: () => ({ 'client-certificate': 'certs/client.crt', 'client-key': 'certs/client.key' }),
    },
  ];
  it.each(forms)(
    'authenticates with the client certificate ($form); without it the server answers 401',
    async ({ user }) => {
      const s = await server({ tls: { clientCertificates: true } });
      const tls = s.tls;
      if (!tls?.clientCertificate || !tls.clientKey) throw new Error('no client certificate issued');
      const dir = await tempDir();
      const { mkdir } = await import('node:fs/promises');
      await mkdir(join(dir, 'sub', 'certs'), { recursive: true });
      await writeFile(join(dir, 'sub', 'certs', 'client.crt'), tls.clientCertificate);
      await writeFile(join(dir, 'sub', 'certs', 'client.key'), tls.clientKey);
      const cluster = { name: 'c', cluster: { server: s.url, 'certificate-authority-data': b64(tls.ca) } };
      const path = await writeKubeconfig(join(dir, 'sub'), 'config', {
        'current-context': 'cert',
        clusters: [cluster],
        users: [
          { name: 'cert', user: user(tls.clientCertificate, tls.clientKey) },
          { name: 'anonymous', user: {} },
        ],
        contexts: [
          { name: 'cert', context: { cluster: 'c', user: 'cert' } },
          { name: 'anon', context: { cluster: 'c', user: 'anonymous' } },
        ],
      });
      const withCert = await clientFor({ kubeconfig: path });
      await createNamespacedLease(withCert.client, { namespace: 'default', body: lease('mtls') });
      const anon = await clientFor({ kubeconfig: path, context: 'anon' });
      const error = await readNamespacedLease(anon.client, { namespace: 'default', name: 'mtls' }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(KubernetesApiError);
      expect((error as KubernetesApiError).status).toBe(401);
      expect((await readNamespacedLease(withCert.client, { namespace: 'default', name: 'mtls' })).metadata?.name).toBe(
        'mtls',
      );
    },
  );
});

describe('tokenFile', () => {
  it('re-reads a rotated token file: the next request carries the new token', async () => {
    // The server accepts "new-token" and knows "old-token" as an identity without access (403).
    const s = await server({ tls: true, token: 'new-token', forbiddenTokens: ['old-token'] });
    const dir = await tempDir();
    await writeFile(join(dir, 'token'), 'old-token\n');
    const path = await writeKubeconfig(dir, 'config', {
      'current-context': 'x',
      clusters: [{ name: 'c', cluster: { server: s.url, 'certificate-authority-data': b64(ca(s)) } }],
      users: [{ name: 'u', user: { tokenFile: 'token' } }],
      contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
    });
    const { client } = await clientFor({ kubeconfig: path });
    const before = await createNamespacedLease(client, { namespace: 'default', body: lease('rot') }).catch(
      (e: unknown) => e,
    );
    expect(before).toBeInstanceOf(KubernetesApiError);
    expect((before as KubernetesApiError).status).toBe(403);
    await replaceFile(join(dir, 'token'), 'new-token\n');
    await createNamespacedLease(client, { namespace: 'default', body: lease('rot') });
    expect(s.store.get('default', 'rot')).toBeDefined();
  });
});

/** An HTTP CONNECT proxy that records the targets and connects every tunnel to 127.0.0.1 (so any host name works). */
async function connectProxy(): Promise<{ url: string; tunnels: string[]; close(): Promise<void> }> {
  const tunnels: string[] = [];
  // A CONNECT tunnel leaves the HTTP server's bookkeeping (closeAllConnections does not reach it), and the API
  // server keeps its end open (idle keep-alive 90 s, as kube-apiserver): close() ends the tunnels itself.
  const open = new Set<{ destroy(): void }>();
  const proxy = createServer();
  proxy.on('connect', (req, socket, head) => {
    tunnels.push(req.url ?? '');
    open.add(socket);
    const port = Number((req.url ?? '').split(':').at(-1));
    const upstream = connect(port, '127.0.0.1', () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    open.add(upstream);
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    tunnels,
    close: async () => {
      for (const socket of open) socket.destroy();
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}

describe('proxies', () => {
  it('proxy-url tunnels HTTPS through an HTTP CONNECT proxy', async () => {
    const s = await server({ tls: true });
    const proxy = await connectProxy();
    try {
      const dir = await tempDir();
      const path = await writeKubeconfig(dir, 'config', {
        'current-context': 'x',
        clusters: [
          { name: 'c', cluster: { server: s.url, 'certificate-authority-data': b64(ca(s)), 'proxy-url': proxy.url } },
        ],
        users: [{ name: 'u', user: {} }],
        contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
      });
      const { client, config } = await clientFor({ kubeconfig: path, env: { NO_PROXY: '127.0.0.1' } });
      await createNamespacedLease(client, { namespace: 'default', body: lease('proxied') });
      // proxy-url wins over NO_PROXY and over Go's rule that loopback is never proxied from the environment.
      expect(proxy.tunnels).toEqual([new URL(s.url).host]);
      await config.close();
    } finally {
      await proxy.close();
    }
  });

  it('without proxy-url, HTTPS_PROXY is used as kubectl uses it, and NO_PROXY exempts a host', async () => {
    const s = await server({ tls: true });
    const proxy = await connectProxy();
    try {
      const dir = await tempDir();
      // A name only the proxy resolves (to 127.0.0.1); the certificate is checked against tls-server-name.
      const path = await writeKubeconfig(dir, 'config', {
        'current-context': 'x',
        clusters: [
          {
            name: 'c',
            cluster: {
              server: `https://lease-api.invalid:${s.port}`,
              'certificate-authority-data': b64(ca(s)),
              'tls-server-name': 'localhost',
            },
          },
        ],
        users: [{ name: 'u', user: {} }],
        contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
      });
      const { client } = await clientFor({ kubeconfig: path, env: { HTTPS_PROXY: proxy.url } });
      await createNamespacedLease(client, { namespace: 'default', body: lease('env-proxied') });
      expect(proxy.tunnels).toEqual([`lease-api.invalid:${s.port}`]);

      const exempt = await clientFor({ kubeconfig: path, env: { HTTPS_PROXY: proxy.url, NO_PROXY: '.invalid' } });
      const error = await readNamespacedLease(exempt.client, { namespace: 'default', name: 'env-proxied' }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ClusterConnectionError);
      expect((error as Error).message).toContain(`https://lease-api.invalid:${s.port}`);
      expect(proxy.tunnels).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });
});

function kubectl(
  binary: string,
  kubeconfig: string,
  home: string,
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      binary,
      ['--kubeconfig', kubeconfig, '--request-timeout=15s', ...args],
      { env: { PATH: '/usr/bin:/bin', HOME: home, KUBECACHEDIR: join(home, 'cache') }, timeout: 45_000 },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr });
      },
    );
  });
}

describeWithTool('kubectl', findKubectl()?.path, 'kubectl parity', (binary) => {
  it('kubectl and the client read the same kubeconfig and reach the server with the same identity', async () => {
    // Each context's user is what the server tells apart: a token with access, one without (403 naming the user).
    const s = await server({ tls: { clientCertificates: true }, token: 'allowed', forbiddenTokens: ['denied'] });
    const tls = s.tls;
    if (!tls?.clientCertificate || !tls.clientKey) throw new Error('no client certificate issued');
    const dir = await tempDir();
    await writeFile(join(dir, 'ca.crt'), tls.ca);
    const path = await writeKubeconfig(dir, 'config', {
      'current-context': 'allowed',
      clusters: [{ name: 'c', cluster: { server: s.url, 'certificate-authority': 'ca.crt' } }],
      users: [
        { name: 'allowed', user: { token: 'allowed' } },
        { name: 'denied', user: { token: 'denied' } },
        {
          name: 'cert',
          user: { 'client-certificate-data': b64(tls.clientCertificate), 'client-key-data': b64(tls.clientKey) },
        },
      ],
      contexts: [
        { name: 'allowed', context: { cluster: 'c', user: 'allowed', namespace: 'other' } },
        { name: 'denied', context: { cluster: 'c', user: 'denied', namespace: 'other' } },
        { name: 'cert', context: { cluster: 'c', user: 'cert', namespace: 'other' } },
      ],
    });
    const { client } = await clientFor({ kubeconfig: path });
    await createNamespacedLease(client, { namespace: 'other', body: lease('parity', 'other') });
    const home = await tempDir();

    const ok = await kubectl(binary, path, home, ['get', 'lease', 'parity', '-o', 'jsonpath={.metadata.namespace}']);
    expect(ok).toMatchObject({ code: 0, stdout: 'other' });

    const denied = await kubectl(binary, path, home, ['--context', 'denied', 'get', 'lease', 'parity']);
    const deniedClient = await clientFor({ kubeconfig: path, context: 'denied' });
    const error = await readNamespacedLease(deniedClient.client, {
      namespace: deniedClient.config.namespace,
      name: 'parity',
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KubernetesApiError);
    const message = (error as KubernetesApiError).statusObject?.message ?? '';
    expect(message).toMatch(/forbidden: User ".+"/);
    expect(denied.code).not.toBe(0);
    expect(denied.stderr).toContain(message);

    const cert = await kubectl(binary, path, home, [
      '--context',
      'cert',
      'get',
      'lease',
      'parity',
      '-o',
      'jsonpath={.metadata.name}',
    ]);
    expect(cert).toMatchObject({ code: 0, stdout: 'parity' });
    const certClient = await clientFor({ kubeconfig: path, context: 'cert' });
    expect(
      (await readNamespacedLease(certClient.client, { namespace: certClient.config.namespace, name: 'parity' }))
        .metadata?.name,
    ).toBe('parity');
  });
});
