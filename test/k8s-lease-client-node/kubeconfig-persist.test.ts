// Writing an auth-provider's refreshed config back to the kubeconfig that defines the user, as kubectl's persister
// (client-go tools/clientcmd/config.go PersisterForUser → ModifyConfig, to the user's LocationOfOrigin), but touching
// only the changed keys: comments, order and the rest of the file stay as they were.
import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { persistAuthProviderConfig } from '../../templates/k8s-lease-client-node/src/kubeconfig-persist.js';

const KUBECONFIG = `# my clusters
apiVersion: v1
kind: Config
current-context: dev
users:
  - name: other
    user:
      token: keep-me
  - name: oidc-user
    user:
      auth-provider:
        name: oidc
        config:
          client-id: kubernetes # the IdP's client
          id-token: old-id-token
          idp-issuer-url: https://issuer.example
          refresh-token: old-refresh-token
contexts:
  - name: dev
    context: { cluster: dev, user: oidc-user }
`;

let dir: string;
let seq = 0;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kubeconfig-persist-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function kubeconfig(text = KUBECONFIG, mode = 0o600): Promise<string> {
  const file = join(dir, `config-${++seq}`);
  await writeFile(file, text);
  await chmod(file, mode);
  return file;
}

const refreshed = new Map([
  ['id-token', 'new-id-token'],
  ['refresh-token', 'new-refresh-token'],
]);

describe('persistAuthProviderConfig', () => {
  it('replaces only the changed keys of that user, keeping comments, order and everything else', async () => {
    const file = await kubeconfig();
    expect(await persistAuthProviderConfig(file, 'oidc-user', refreshed)).toBeUndefined();
    expect(await readFile(file, 'utf8')).toBe(
      KUBECONFIG.replace('old-id-token', 'new-id-token').replace('old-refresh-token', 'new-refresh-token'),
    );
  });

  it('adds a key the config did not have yet', async () => {
    const file = await kubeconfig();
    expect(await persistAuthProviderConfig(file, 'oidc-user', new Map([['access-token', 'a-t']]))).toBeUndefined();
    expect(await readFile(file, 'utf8')).toContain('access-token: a-t');
  });

  it('keeps the file mode and leaves no temporary file behind', async () => {
    const file = await kubeconfig(KUBECONFIG, 0o640);
    await persistAuthProviderConfig(file, 'oidc-user', refreshed);
    expect((await stat(file)).mode & 0o777).toBe(0o640);
    expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('a file that cannot be read: a one-line reason with the code', async () => {
    const file = join(dir, 'missing');
    expect(await persistAuthProviderConfig(file, 'oidc-user', refreshed)).toBe(`cannot read ${file} (ENOENT)`);
  });

  it('a file no longer YAML: a reason without its content', async () => {
    const file = await kubeconfig('users: [\n  secret-token-in-broken-yaml');
    const reason = await persistAuthProviderConfig(file, 'oidc-user', refreshed);
    expect(reason).toBe(`${file} is no longer valid YAML`);
  });

  it.each([
    ['the user is gone', KUBECONFIG.replace('name: oidc-user', 'name: renamed')],
    [
      'the user has no auth-provider config any more',
      KUBECONFIG.replace(/ {6}auth-provider:[\s\S]*(?=contexts:)/, '      token: t\n'),
    ],
    ['there are no users', 'apiVersion: v1\nkind: Config\n'],
  ])('%s: a reason, and the file untouched', async (_name, text) => {
    const file = await kubeconfig(text);
    expect(await persistAuthProviderConfig(file, 'oidc-user', refreshed)).toBe(
      `${file} no longer holds user "oidc-user" with an auth-provider config`,
    );
    expect(await readFile(file, 'utf8')).toBe(text);
  });
});
