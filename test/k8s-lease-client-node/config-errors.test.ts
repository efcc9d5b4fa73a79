// One-line errors when no configuration can be found or the environment is hostile, and server URLs whose query or
// user-info may carry a secret kept out of inspect, JSON and errors. client-go's counterparts: clientcmd's
// ErrEmptyConfig ("no configuration has been provided…") and rest.InClusterConfig's ErrNotInCluster, which name less.
import { join } from 'node:path';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createClient, readNamespacedLease } from 'k8s-lease-client';
import {
  InClusterConfigError,
  inClusterClientOptions,
  KubeconfigError,
  kubeconfigClientOptions,
  loadClientConfig,
  loadKubeconfig,
} from '../../templates/k8s-lease-client-node/src/index.js';
import { tempDir, trackResources, writeKubeconfig } from './helpers.js';

const track = trackResources();

async function rejection(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof Error)) throw new Error('expected a rejection');
  expect(error.message).not.toContain('\n');
  return error;
}

describe('no kubeconfig anywhere', () => {
  it('names ~/.kube/config and that there is no in-cluster environment', async () => {
    const home = await tempDir();
    const error = await rejection(loadClientConfig({ env: { HOME: home } }));
    expect(error).toBeInstanceOf(KubeconfigError);
    expect(error.message).toBe(
      `no kubeconfig found: KUBECONFIG is not set and ${join(home, '.kube', 'config')} (~/.kube/config) does not exist; and no in-cluster environment (KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not set)`,
    );
  });

  it('names every KUBECONFIG entry and the missing service-account token', async () => {
    const dir = await tempDir();
    const [a, b] = [join(dir, 'a'), join(dir, 'b')];
    const root = join(dir, 'sa');
    const error = await rejection(
      loadClientConfig({
        root,
        env: { KUBECONFIG: `${a}:${b}`, KUBERNETES_SERVICE_HOST: '10.0.0.1', KUBERNETES_SERVICE_PORT: '443' },
      }),
    );
    expect(error.message).toBe(
      `no kubeconfig found: none of the KUBECONFIG entries exists (${a}, ${b}); and no in-cluster environment (no service-account token at ${join(root, 'token')})`,
    );
  });

  it('kubeconfigClientOptions says the same without the in-cluster part', async () => {
    const home = await tempDir();
    const error = await rejection(kubeconfigClientOptions({ env: { HOME: home } }));
    expect(error.message).toBe(
      `no kubeconfig found: KUBECONFIG is not set and ${join(home, '.kube', 'config')} (~/.kube/config) does not exist`,
    );
  });
});

describe('hostile in-cluster environment', () => {
  it.each([
    ['KUBERNETES_SERVICE_HOST', { KUBERNETES_SERVICE_HOST: 'evil.example/#', KUBERNETES_SERVICE_PORT: '443' }],
    ['KUBERNETES_SERVICE_HOST', { KUBERNETES_SERVICE_HOST: '10.0.0.1:1@other', KUBERNETES_SERVICE_PORT: '443' }],
    ['KUBERNETES_SERVICE_HOST', { KUBERNETES_SERVICE_HOST: 'a\nb', KUBERNETES_SERVICE_PORT: '443' }],
    ['KUBERNETES_SERVICE_HOST', { KUBERNETES_SERVICE_HOST: '[::1]', KUBERNETES_SERVICE_PORT: '443' }],
    ['KUBERNETES_SERVICE_PORT', { KUBERNETES_SERVICE_HOST: '10.0.0.1', KUBERNETES_SERVICE_PORT: '443/x' }],
    ['KUBERNETES_SERVICE_PORT', { KUBERNETES_SERVICE_HOST: '10.0.0.1', KUBERNETES_SERVICE_PORT: '70000' }],
    ['KUBERNETES_SERVICE_PORT', { KUBERNETES_SERVICE_HOST: 'fd00::1' }],
  ])('rejects a bad %s with a typed error naming it and not echoing it', async (variable, env) => {
    const error = await rejection(inClusterClientOptions({ env, root: await tempDir() }));
    expect(error).toBeInstanceOf(InClusterConfigError);
    expect((error as InClusterConfigError).variable).toBe(variable);
    expect(error.message).toContain(variable);
    for (const value of Object.values(env)) if (value.length > 4) expect(error.message).not.toContain(value);
  });
});

describe('secrets in server URLs', () => {
  it('keeps a ?token= query out of inspect, JSON and requests, and user-info out of the error', async () => {
    const dir = await tempDir();
    const path = await writeKubeconfig(dir, 'config', {
      'current-context': 'ctx',
      clusters: [{ name: 'c', cluster: { server: 'http://127.0.0.1:1/prefix?token=query-secret' } }],
      users: [{ name: 'u', user: {} }],
      contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'u' } }],
    });
    const loaded = await loadKubeconfig({ kubeconfig: path });
    const config = track.config(await kubeconfigClientOptions({ kubeconfig: path, retries: false }));
    expect(config.clientOptions.baseUrl).toBe('http://127.0.0.1:1/prefix');
    for (const value of [loaded, config])
      for (const text of [inspect(value, { depth: Infinity }), JSON.stringify(value), String(value)])
        expect(text).not.toContain('query-secret');
    expect(inspect(loaded, { depth: Infinity })).toContain("'http://127.0.0.1:1/prefix?[REDACTED]'");
    const error = await rejection(
      readNamespacedLease(createClient(config.clientOptions), { namespace: 'default', name: 'x' }),
    );
    expect(error.message).not.toContain('query-secret');

    const withUser = await writeKubeconfig(dir, 'user-info', {
      'current-context': 'ctx',
      clusters: [{ name: 'c', cluster: { server: 'https://admin:pw-secret@127.0.0.1:1' } }],
      users: [{ name: 'u', user: {} }],
      contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'u' } }],
    });
    const refused = await rejection(kubeconfigClientOptions({ kubeconfig: withUser }));
    expect(refused.message).toBe(`${withUser}: cluster "c": server must not carry credentials`);
    expect(inspect(await loadKubeconfig({ kubeconfig: withUser }), { depth: Infinity })).not.toContain('pw-secret');
  });
});
