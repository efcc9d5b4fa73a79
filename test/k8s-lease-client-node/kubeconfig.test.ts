// Loading kubeconfigs with kubectl's rules: KUBECONFIG lists merged first-wins, ~/.kube/config, relative paths, YAML 1.1.
import { mkdir, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { kubeconfigClientOptions, loadKubeconfig } from '../../templates/k8s-lease-client-node/src/index.js';
import { b64, removeTempDirs, tempDir, writeKubeconfig } from './helpers.js';

afterAll(removeTempDirs);

describe('KUBECONFIG merging (clientcmd loader.go)', () => {
  it('first file to set current-context wins; maps merge by name, first definition of a name wins whole; missing files are skipped', async () => {
    const dir = await tempDir();
    const first = await writeKubeconfig(dir, 'first', {
      clusters: [{ name: 'shared', cluster: { server: 'https://first.example:6443' } }],
      users: [{ name: 'shared', user: { token: 'first-token' } }],
      contexts: [{ name: 'one', context: { cluster: 'shared', user: 'shared', namespace: 'ns-first' } }],
    });
    await mkdir(join(dir, 'second-dir'));
    const second = await writeKubeconfig(join(dir, 'second-dir'), 'second', {
      'current-context': 'two',
      clusters: [
        { name: 'shared', cluster: { server: 'https://second.example:6443', 'certificate-authority': 'ca.pem' } },
        { name: 'only-second', cluster: { server: 'https://only.example', 'certificate-authority': 'ca.pem' } },
      ],
      users: [{ name: 'shared', user: { tokenFile: 'token' } }],
      contexts: [{ name: 'two', context: { cluster: 'only-second', user: 'shared' } }],
    });
    const third = await writeKubeconfig(dir, 'third', { 'current-context': 'one' });
    const missing = join(dir, 'does-not-exist');
    const config = await loadKubeconfig({ env: { KUBECONFIG: [missing, first, second, third].join(delimiter) } });

    expect(config.files).toEqual([first, second, third]);
    expect(config.currentContext).toBe('two');
    // The first file's entry is kept whole: the second's certificate-authority does not leak into it.
    expect(config.clusters.get('shared')).toEqual({ server: 'https://first.example:6443', origin: first });
    expect(config.clusters.get('only-second')?.certificateAuthority).toBe(join(dir, 'second-dir', 'ca.pem'));
    expect(config.users.get('shared')?.token).toBe('first-token');
    expect(config.users.get('shared')?.tokenFile).toBeUndefined();
    expect([...config.contexts.keys()]).toEqual(['one', 'two']);
  });

  it('an explicit file overrides KUBECONFIG, and must exist', async () => {
    const dir = await tempDir();
    const fromEnv = await writeKubeconfig(dir, 'env', { 'current-context': 'env' });
    const explicit = await writeKubeconfig(dir, 'explicit', { 'current-context': 'explicit' });
    const env = { KUBECONFIG: fromEnv };
    expect((await loadKubeconfig({ kubeconfig: explicit, env })).currentContext).toBe('explicit');
    await expect(loadKubeconfig({ kubeconfig: join(dir, 'nope'), env })).rejects.toThrow(
      `${join(dir, 'nope')}: cannot read kubeconfig (ENOENT)`,
    );
  });

  it('defaults to $HOME/.kube/config', async () => {
    const home = await tempDir();
    await mkdir(join(home, '.kube'));
    await writeKubeconfig(join(home, '.kube'), 'config', {
      'current-context': 'home',
      clusters: [{ name: 'c', cluster: { server: 'http://127.0.0.1:1' } }],
      users: [{ name: 'u', user: {} }],
      contexts: [{ name: 'home', context: { cluster: 'c', user: 'u', namespace: 'from-home' } }],
    });
    const config = await kubeconfigClientOptions({ env: { HOME: home } });
    expect(config.namespace).toBe('from-home');
    expect(config.clientOptions.baseUrl).toBe('http://127.0.0.1:1');
    await config.close();
  });

  it('decodes -data fields as base64 and keeps absolute paths as they are', async () => {
    const dir = await tempDir();
    const path = await writeKubeconfig(dir, 'config', {
      clusters: [{ name: 'c', cluster: { server: 'https://x', 'certificate-authority-data': b64('PEM TEXT') } }],
      users: [{ name: 'u', user: { 'client-certificate': '/abs/cert.pem', 'client-key': 'rel/key.pem' } }],
    });
    const config = await loadKubeconfig({ kubeconfig: path });
    expect(config.clusters.get('c')?.certificateAuthorityData).toBe('PEM TEXT');
    expect(config.users.get('u')?.clientCertificate).toBe('/abs/cert.pem');
    expect(config.users.get('u')?.clientKey).toBe(join(dir, 'rel', 'key.pem'));
  });

  it('resolves an exec command relative to the file only when it names a path', async () => {
    const dir = await tempDir();
    const path = await writeKubeconfig(dir, 'config', {
      users: [
        { name: 'path', user: { exec: { command: './bin/plugin', apiVersion: 'client.authentication.k8s.io/v1' } } },
        {
          name: 'lookup',
          user: { exec: { command: 'gke-gcloud-auth-plugin', apiVersion: 'client.authentication.k8s.io/v1' } },
        },
      ],
    });
    const config = await loadKubeconfig({ kubeconfig: path });
    expect(config.users.get('path')?.exec?.command).toBe(join(dir, 'bin', 'plugin'));
    expect(config.users.get('lookup')?.exec?.command).toBe('gke-gcloud-auth-plugin');
  });

  it('a __proto__ key or name changes nothing but its own entry', async () => {
    const dir = await tempDir();
    const path = join(dir, 'config');
    await writeFile(
      path,
      [
        'current-context: "__proto__"',
        '__proto__: { polluted: "yes" }',
        'clusters:',
        '- name: "__proto__"',
        '  cluster: { server: "http://127.0.0.1:1", __proto__: { insecure-skip-tls-verify: true } }',
        'users:',
        '- name: "__proto__"',
        '  user: { __proto__: { token: "sneaky" } }',
        'contexts:',
        '- name: "__proto__"',
        '  context: { cluster: "__proto__", user: "__proto__" }',
      ].join('\n'),
    );
    const config = await loadKubeconfig({ kubeconfig: path });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(config.clusters.get('__proto__')).toEqual({ server: 'http://127.0.0.1:1', origin: path });
    expect(config.users.get('__proto__')?.token).toBeUndefined();
    const client = await kubeconfigClientOptions({ kubeconfig: path });
    expect(client.clientOptions.token).toBeUndefined();
    expect(client.clientOptions.baseUrl).toBe('http://127.0.0.1:1');
    await client.close();
  });

  it('reads YAML 1.1 as kubectl does: an unquoted yes is a boolean, so a token must be quoted', async () => {
    const dir = await tempDir();
    const path = join(dir, 'config');
    await writeFile(
      path,
      'clusters:\n- name: c\n  cluster:\n    server: https://x\n    insecure-skip-tls-verify: yes\nusers:\n- name: u\n  user:\n    token: on\n',
    );
    await expect(loadKubeconfig({ kubeconfig: path })).rejects.toThrow(
      `${path}: users[0].user.token: must be a string`,
    );
    await writeFile(
      path,
      'clusters:\n- name: c\n  cluster:\n    server: https://x\n    insecure-skip-tls-verify: yes\n',
    );
    expect((await loadKubeconfig({ kubeconfig: path })).clusters.get('c')?.insecureSkipTlsVerify).toBe(true);
  });
});
