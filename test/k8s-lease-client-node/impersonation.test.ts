// A kubeconfig user's as / as-uid / as-groups / as-user-extra become Impersonate-* header lines as client-go's
// transport/round_trippers.go impersonatingRoundTripper sends them (headerKeyEscape for the extra keys), checked
// against kubectl reading the same kubeconfig; tools/clientcmd/validation.go validateAuthInfo's rule for a missing
// `as`.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createClient, readNamespacedLease } from 'k8s-lease-client';
import { KubeconfigError, kubeconfigClientOptions } from '../../templates/k8s-lease-client-node/src/index.js';
import { headerKeyEscape } from '../../templates/k8s-lease-client-node/src/impersonation.js';
import { findKubectl } from '../helpers/external-tools.js';
import { itWithTool } from '../helpers/needs-tool.js';
import { b64, lease, start, tempDir, trackResources, writeKubeconfig } from './helpers.js';
import type { NamedUser } from './helpers.js';
import { startRecordingServer } from './recording-server.js';
import type { RecordedRequest, RecordingServer } from './recording-server.js';

const LEASE_PATH = '/apis/coordination.k8s.io/v1/namespaces/default/leases/held';
const track = trackResources();

const IMPERSONATING: NamedUser['user'] = {
  as: 'jane',
  'as-uid': 'uid-1234',
  'as-groups': ['developers', 'on call, nights', 'system:authenticated'],
  'as-user-extra': { scopes: ['view', 'edit'], 'example.com/ünïcode key%': ['ä'], empty: [] },
};

async function recorder(options: Parameters<typeof startRecordingServer>[0]): Promise<RecordingServer> {
  const r = await startRecordingServer(options);
  track.later(() => r.close());
  return r;
}

async function kubeconfigFor(server: string, user: NamedUser['user'], ca?: string): Promise<string> {
  return writeKubeconfig(await tempDir(), 'config', {
    'current-context': 'ctx',
    clusters: [{ name: 'c', cluster: { server, ...(ca ? { 'certificate-authority-data': b64(ca) } : {}) } }],
    users: [{ name: 'me', user }],
    contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'me' } }],
  });
}

async function ours(path: string): Promise<void> {
  const config = await kubeconfigClientOptions({ kubeconfig: path, retries: false, onWarning: () => {} });
  track.config(config);
  await readNamespacedLease(createClient(config.clientOptions), { namespace: 'default', name: 'held' });
}

async function kubectl(binary: string, path: string): Promise<void> {
  await promisify(execFile)(binary, ['--kubeconfig', path, 'get', '--raw', LEASE_PATH], { timeout: 60_000 });
}

/** The Impersonate-* and Authorization lines of a request, in a canonical order (Go ranges over Extra at random). */
function identityLines(request: RecordedRequest | undefined): string[] {
  return (request?.lines ?? [])
    .filter(([name]) => name.startsWith('impersonate-') || name === 'authorization')
    .map(([name, value]) => `${name}: ${value}`)
    .sort();
}

// `empty` (no values) sends no line, as client-go's loop over the values.
const EXPECTED = [
  'impersonate-extra-example.com%2f%c3%bcn%c3%afcode%20key%25: ä', // names compared lower-case
  'impersonate-extra-scopes: edit',
  'impersonate-extra-scopes: view',
  'impersonate-group: developers',
  'impersonate-group: on call, nights',
  'impersonate-group: system:authenticated',
  'impersonate-uid: uid-1234',
  'impersonate-user: jane',
];

describe('impersonation', () => {
  it('sends one Impersonate-Group line per group and escaped Impersonate-Extra keys over http, as the server receives them', async () => {
    const s = await start({});
    track.later(() => s.close());
    s.store.create({ ...lease('held'), metadata: { name: 'held', namespace: 'default' } });
    const proxy = await recorder({ forwardTo: s.url });
    await ours(await kubeconfigFor(proxy.url, IMPERSONATING));
    // Bytes of header values arrive as Latin-1 in Node: decode the UTF-8 value for the comparison.
    const lines = identityLines(proxy.requests[0]).map((line) => Buffer.from(line, 'latin1').toString('utf8'));
    expect(lines).toEqual(EXPECTED);
  });

  itWithTool(
    'kubectl',
    findKubectl()?.path,
    'sends the same lines as kubectl reading the same kubeconfig (http and https, with a token)',
    async (binary) => {
      for (const scheme of ['http', 'https'] as const) {
        const body = { ...lease('held'), metadata: { name: 'held', namespace: 'default', resourceVersion: '1' } };
        const server = await recorder({ scheme, body });
        const user = scheme === 'https' ? { ...IMPERSONATING, token: 'imp-token' } : IMPERSONATING;
        const path = await kubeconfigFor(server.url, user, server.pki?.ca.certificate);
        await ours(path);
        await kubectl(binary, path);
        const [mine, theirs] = [server.requests[0], server.requests.at(-1)];
        expect(mine?.url).toBe(LEASE_PATH);
        expect(theirs?.url).toBe(LEASE_PATH);
        expect(identityLines(mine)).toEqual(identityLines(theirs));
        expect(identityLines(mine)).toContain('impersonate-user: jane');
        if (scheme === 'https') expect(identityLines(mine)).toContain('authorization: Bearer imp-token');
      }
    },
  );

  it('leaves a request that carries its own Impersonate-User alone (the marker client-go checks)', async () => {
    const server = await recorder({});
    const path = await kubeconfigFor(server.url, IMPERSONATING);
    const config = await kubeconfigClientOptions({ kubeconfig: path, retries: false });
    track.config(config);
    await config.clientOptions.fetch?.(`${server.url}/version`, { headers: { 'impersonate-user': 'someone' } });
    expect(identityLines(server.requests[0])).toEqual(['impersonate-user: someone']);
  });

  it.each([
    ['as-uid', { 'as-uid': 'u' }],
    ['as-groups', { 'as-groups': ['g'] }],
    ['as-user-extra', { 'as-user-extra': { k: ['v'] } }],
  ])('refuses %s without as, with validateAuthInfo message', async (_name, user) => {
    const path = await kubeconfigFor('https://127.0.0.1:1', user);
    const error = await kubeconfigClientOptions({ kubeconfig: path }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KubeconfigError);
    expect((error as Error).message).toBe(
      `${path}: user "me": requesting uid, groups or user-extra for me without impersonating a user`,
    );
  });

  it('escapes extra keys as client-go headerKeyEscape (token bytes kept, % and the rest %XX)', () => {
    expect(headerKeyEscape('scopes')).toBe('scopes');
    expect(headerKeyEscape("a!#$&'*+-.^_`|~Z9")).toBe("a!#$&'*+-.^_`|~Z9");
    expect(headerKeyEscape('a/b c%d')).toBe('a%2Fb%20c%25d');
    expect(headerKeyEscape('é')).toBe('%C3%A9');
  });
});
