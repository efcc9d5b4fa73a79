// User credentials travel only over TLS: client-go tools/clientcmd/client_config.go DirectClientConfig.ClientConfig
// ("only try to read the auth information if we are secure", restclient.IsConfigTransportTLS). Over http:// no
// token, token file, basic auth, exec plugin or auth-provider is used; over https:// (and mTLS) they are.
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClient, readNamespacedLease } from 'k8s-lease-client';
import type { LeaseApiServer } from '../../templates/k8s-lease-api-server/src/index.js';
import { kubeconfigClientOptions } from '../../templates/k8s-lease-client-node/src/index.js';
import { b64, lease, start, tempDir, trackResources, writeKubeconfig } from './helpers.js';
import type { NamedUser } from './helpers.js';
import { startRecordingServer } from './recording-server.js';
import type { RecordingServer } from './recording-server.js';

const TOKEN = 'http-token-never-sent';
const track = trackResources();

async function leaseServer(options: Parameters<typeof start>[0]): Promise<LeaseApiServer> {
  const s = await start(options);
  track.later(() => s.close());
  s.store.create({ ...lease('held'), metadata: { name: 'held', namespace: 'default' } });
  return s;
}

async function recorder(options: Parameters<typeof startRecordingServer>[0]): Promise<RecordingServer> {
  const r = await startRecordingServer(options);
  track.later(() => r.close());
  return r;
}

/** Reads the Lease through a config built from a kubeconfig with one cluster and one user; returns the warnings. */
async function readWith(
  server: string,
  user: NamedUser['user'],
  cluster: Record<string, unknown> = {},
): Promise<string[]> {
  const dir = await tempDir();
  const path = await writeKubeconfig(dir, 'config', {
    'current-context': 'ctx',
    clusters: [{ name: 'plain', cluster: { server, ...cluster } }],
    users: [{ name: 'me', user }],
    contexts: [{ name: 'ctx', context: { cluster: 'plain', user: 'me' } }],
  });
  const warnings: string[] = [];
  const config = await kubeconfigClientOptions({
    kubeconfig: path,
    onWarning: (m) => warnings.push(m),
    retries: false,
  });
  track.config(config);
  await readNamespacedLease(createClient(config.clientOptions), { namespace: 'default', name: 'held' });
  return warnings;
}

describe('credentials over http://', () => {
  it('sends no token, basic auth, token file, exec credential or oidc id-token, and warns naming the cluster', async () => {
    // An open server that would name a request carrying TOKEN "forbidden-user" (and answer it 403).
    const s = await leaseServer({ forbiddenTokens: [TOKEN] });
    const proxy = await recorder({ forwardTo: s.url });
    const dir = await tempDir();
    const tokenFile = join(dir, 'token');
    await writeFile(tokenFile, TOKEN);
    const ran = join(dir, 'plugin-ran');
    const users: Array<NamedUser['user']> = [
      { token: TOKEN },
      { tokenFile },
      { username: 'admin', password: TOKEN },
      {
        exec: {
          command: process.execPath,
          args: ['-e', `require('fs').writeFileSync(${JSON.stringify(ran)}, 'x')`],
          apiVersion: 'client.authentication.k8s.io/v1',
          interactiveMode: 'Never',
        },
      },
      {
        'auth-provider': {
          name: 'oidc',
          config: { 'idp-issuer-url': 'https://127.0.0.1:1', 'client-id': 'k', 'id-token': TOKEN },
        },
      },
      // Even a provider that would be refused over TLS is not looked at without it, as in client-go.
      { 'auth-provider': { name: 'gcp', config: {} } },
    ];
    for (const user of users) {
      const warnings = await readWith(proxy.url, user);
      expect(warnings).toEqual([
        expect.stringMatching(
          /cluster "plain": server http:\/\/127\.0\.0\.1:\d+ is not https:\/\/; the credentials of user "me" are not sent$/,
        ),
      ]);
    }
    expect(proxy.requests).toHaveLength(users.length);
    expect(proxy.values('authorization')).toEqual([]);
    expect(existsSync(ran)).toBe(false);
    const served = s.requests().filter((r) => r.path.endsWith('/leases/held'));
    expect(served.map((r) => [r.user, r.status])).toEqual(users.map(() => ['system:anonymous', 200]));
  });

  it('does not warn for a user without credentials', async () => {
    const s = await leaseServer({});
    expect(await readWith(s.url, {})).toEqual([]);
  });
});

describe('credentials over https:// and mTLS', () => {
  it('sends the token over https://', async () => {
    const s = await leaseServer({ tls: true, token: TOKEN });
    const warnings = await readWith(s.url, { token: TOKEN }, { 'certificate-authority-data': b64(s.tls?.ca ?? '') });
    expect(warnings).toEqual([]);
    expect(s.requests().at(-1)).toMatchObject({ user: 'lease-api-test-user', status: 200 });
  });

  it('presents the client certificate over mTLS', async () => {
    const s = await leaseServer({ tls: { clientCertificates: true } });
    const tls = s.tls;
    if (!tls?.clientCertificate || !tls.clientKey) throw new Error('no client certificate issued');
    await readWith(
      s.url,
      { 'client-certificate-data': b64(tls.clientCertificate), 'client-key-data': b64(tls.clientKey) },
      { 'certificate-authority-data': b64(tls.ca) },
    );
    const last = s.requests().at(-1);
    expect(last?.status).toBe(200);
    expect(last?.user).not.toBe('system:anonymous');
    expect(last?.user).not.toBe('');
  });
});
