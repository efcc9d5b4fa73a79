// Writing an auth-provider's refreshed config back to the kubeconfig that defines the user, as kubectl's persister
// (client-go tools/clientcmd/config.go PersisterForUser → ModifyConfig, to the user's LocationOfOrigin), but touching
// only the changed keys: comments, order and the rest of the file stay as they were.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { chmod, lstat, mkdtemp, readdir, readFile, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
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

describe('persistAuthProviderConfig through a symlink', () => {
  // client-go loader.go WriteToFile: os.WriteFile(filename, …) opens the named path, which follows the link, so the
  // link's target gets the tokens and the link stays a link.
  it('writes the target, keeps the link and the target mode, and leaves nothing beside either', async () => {
    const target = await kubeconfig(KUBECONFIG, 0o640);
    const linkDir = await mkdtemp(join(tmpdir(), 'kubeconfig-link-'));
    const link = join(linkDir, 'config');
    await symlink(target, link);
    try {
      expect(await persistAuthProviderConfig(link, 'oidc-user', refreshed)).toBeUndefined();
      expect((await lstat(link)).isSymbolicLink()).toBe(true);
      expect(await readlink(link)).toBe(target);
      expect(await readFile(target, 'utf8')).toContain('id-token: new-id-token');
      expect((await stat(target)).mode & 0o777).toBe(0o640);
      expect(await readdir(linkDir)).toEqual(['config']);
      expect((await readdir(dir)).filter((name) => name.endsWith('.tmp') || name.endsWith('.lock'))).toEqual([]);
    } finally {
      await rm(linkDir, { recursive: true, force: true });
    }
  });
});

describe('persistAuthProviderConfig under <file>.lock', () => {
  // client-go loader.go lockFile: `<file>.lock` made with O_CREATE|O_EXCL, so a lock someone holds is never taken.
  it('waits while the lock is held and writes once it is released, removing the lock', async () => {
    const file = await kubeconfig();
    await writeFile(`${file}.lock`, '');
    const written = persistAuthProviderConfig(file, 'oidc-user', refreshed);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await readFile(file, 'utf8')).toBe(KUBECONFIG); // not while the lock is held
    await rm(`${file}.lock`);
    expect(await written).toBeUndefined();
    expect(await readFile(file, 'utf8')).toContain('id-token: new-id-token');
    await expect(stat(`${file}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('the lock is removed when the write fails', async () => {
    const file = await kubeconfig('apiVersion: v1\nkind: Config\n');
    expect(await persistAuthProviderConfig(file, 'oidc-user', refreshed)).toContain('no longer holds user');
    await expect(stat(`${file}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

/** An unsigned JWT already expired: the next load refreshes again (oidc.go idTokenExpired reads exp only). */
function expiredJwt(subject: string): string {
  const part = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'RS256' })}.${part({ sub: subject, exp: Math.floor(Date.now() / 1000) - 60 })}.c2ln`;
}

/**
 * The issuer stand-in: refresh-token `rt-<user>-<n>` is exchanged for `rt-<user>-<n+1>`. Token requests are held until
 * both processes have asked (or 2 s passed), then answered together, so both write-backs race.
 */
async function racingIssuer(): Promise<{ url: string; close: () => Promise<void> }> {
  let held: Array<() => void> = [];
  const release = (): void => {
    for (const answer of held.splice(0)) answer();
  };
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
    });
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/.well-known/openid-configuration') {
        res.end(JSON.stringify({ token_endpoint: `${url}/token` }));
        return;
      }
      const [, user, n] = /^rt-(\w+)-(\d+)$/.exec(new URLSearchParams(text).get('refresh_token') ?? '') ?? [];
      const next = `${user}-${Number(n) + 1}`;
      const body = JSON.stringify({ access_token: 'at', id_token: expiredJwt(next), refresh_token: `rt-${next}` });
      held.push(() => res.end(body));
      if (held.length === 2) release();
      else setTimeout(release, 2_000);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = (): Promise<void> =>
    new Promise((resolve) => {
      held = [];
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { url, close };
}

/** The id-token's `sub`: which refresh issued it. */
function subject(token: string | undefined): unknown {
  const claims: unknown = JSON.parse(Buffer.from(token?.split('.')[1] ?? '', 'base64url').toString('utf8') || '{}');
  return typeof claims === 'object' && claims !== null ? Reflect.get(claims, 'sub') : undefined;
}

const CHILD = fileURLToPath(new URL('./kubeconfig-persist.child.ts', import.meta.url));

/** A refreshing child process; `round()` sends `go` and resolves with its one-line outcome. */
function refresher(file: string, user: string): { round: () => Promise<string>; process: ChildProcess } {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, file, user], { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting: Array<(outcome: string) => void> = [];
  let buffer = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      const { outcome } = JSON.parse(buffer.slice(0, nl)) as { outcome: string };
      buffer = buffer.slice(nl + 1);
      waiting.shift()?.(outcome);
    }
  });
  const round = (): Promise<string> =>
    new Promise((resolve) => {
      waiting.push(resolve);
      child.stdin?.write('go\n');
    });
  return { round, process: child };
}

function twoUserKubeconfig(issuer: string): string {
  const user = (name: string): object => ({
    name,
    user: {
      'auth-provider': {
        name: 'oidc',
        config: {
          'idp-issuer-url': issuer,
          'client-id': 'kubectl',
          'id-token': expiredJwt(`${name}-0`),
          'refresh-token': `rt-${name}-0`,
        },
      },
    },
  });
  return JSON.stringify({ apiVersion: 'v1', kind: 'Config', users: [user('a'), user('b')] }, null, 2);
}

describe('two processes refreshing different users of one kubeconfig', () => {
  // client-go config.go ModifyConfig under loader.go's lockFile: each write re-reads the file under `<file>.lock` and
  // changes only its own user, so neither process's new tokens are lost. Before the lock, 7 rounds in 10 lost one.
  it('20 rounds, each process refreshing its own user at the same moment: no new tokens of either user lost', async () => {
    const issuer = await racingIssuer();
    const file = await kubeconfig(twoUserKubeconfig(issuer.url));
    const children = [refresher(file, 'a'), refresher(file, 'b')];
    try {
      const lost: string[] = [];
      for (let n = 1; n <= 20; n++) {
        expect(await Promise.all(children.map((child) => child.round()))).toEqual(['ok', 'ok']);
        const written = parse(await readFile(file, 'utf8')) as {
          users: Array<{ name: string; user: { 'auth-provider': { config: Record<string, string> } } }>;
        };
        for (const { name, user } of written.users) {
          const config = user['auth-provider'].config;
          if (config['refresh-token'] !== `rt-${name}-${n}` || subject(config['id-token']) !== `${name}-${n}`)
            lost.push(`round ${n}: user ${name}`);
          // A lost write is repaired for the next round, so each round counts on its own.
          config['refresh-token'] = `rt-${name}-${n}`;
        }
        if (lost.length > 0) await writeFile(file, JSON.stringify(written));
      }
      expect(lost).toEqual([]);
      expect((await readdir(dir)).filter((name) => name.endsWith('.lock') || name.endsWith('.tmp'))).toEqual([]);
    } finally {
      for (const child of children) child.process.kill();
      await issuer.close();
    }
  }, 60_000);
});
