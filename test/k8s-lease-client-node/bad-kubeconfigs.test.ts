// Broken kubeconfigs: each fails at once with one line that names the file and the key, never with a credential in it.
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createClient, readNamespacedLease } from 'k8s-lease-client';
import type { LeaseApiServer } from '../../templates/k8s-lease-api-server/src/index.js';
import {
  ClusterConnectionError,
  ExecPluginError,
  KubeconfigError,
  kubeconfigClientOptions,
} from '../../templates/k8s-lease-client-node/src/index.js';
import { b64, removeTempDirs, start, tempDir } from './helpers.js';

afterAll(removeTempDirs);

const SECRET = 'hunter2-secret-token';
const SERVER = 'https://127.0.0.1:6443';
const ok = (user: string, cluster: string, context = ''): string =>
  `current-context: x\nclusters:\n- name: c\n  cluster:\n${cluster}\nusers:\n- name: u\n  user:\n${user}\ncontexts:\n- name: x\n  context:\n    cluster: c\n    user: u\n${context}`;
const server = `    server: ${SERVER}`;

interface Case {
  name: string;
  /** File content; `{dir}` is replaced by the kubeconfig's directory. */
  text: string;
  context?: string;
  /** Expected message, `{file}` standing for the kubeconfig path. */
  message: string;
  setup?: (dir: string) => Promise<void>;
}

const cases: Case[] = [
  {
    name: 'missing context',
    text: ok(`    token: "${SECRET}"`, server),
    context: 'nope',
    message: 'context "nope" not found in {file}',
  },
  {
    name: 'no current-context',
    text: ok(`    token: "${SECRET}"`, server).replace('current-context: x\n', ''),
    message: 'no current-context is set in {file}',
  },
  {
    name: 'malformed YAML',
    text: `clusters:\n- name: c\n  cluster: {server: ${SERVER}\nusers:\n- token: "${SECRET}"\n`,
    message: '{file}: malformed YAML at line 4, column 1 (BAD_INDENT)',
  },
  {
    name: 'duplicate key',
    text: `current-context: x\ncurrent-context: y\n`,
    message: '{file}: malformed YAML at line 2, column 1 (DUPLICATE_KEY)',
  },
  { name: 'not a mapping', text: `- a\n- b\n`, message: '{file}: document: must be a mapping' },
  { name: 'clusters not a list', text: `clusters: {c: {}}\n`, message: '{file}: clusters: must be a list' },
  {
    name: 'entry without name',
    text: `users:\n- user: {token: "${SECRET}"}\n`,
    message: '{file}: users[0].name: must be set',
  },
  {
    name: 'duplicate name',
    text: `users:\n- name: u\n- name: u\n`,
    message: '{file}: users[1].name: duplicate name "u"',
  },
  {
    name: 'token not a string',
    text: ok('    token: 12345', server),
    message: '{file}: users[0].user.token: must be a string',
  },
  {
    name: 'bad base64',
    text: ok(`    token: "${SECRET}"`, `${server}\n    certificate-authority-data: "not base64!"`),
    message: '{file}: clusters[0].cluster.certificate-authority-data: is not valid base64',
  },
  {
    name: 'missing server',
    text: ok(`    token: "${SECRET}"`, '    tls-server-name: x'),
    message: '{file}: cluster "c": no server found (key "server")',
  },
  {
    name: 'server not a URL',
    text: ok(`    token: "${SECRET}"`, '    server: "::nope"'),
    message: '{file}: cluster "c": server is not a URL',
  },
  {
    name: 'unreadable CA file',
    text: ok(`    token: "${SECRET}"`, `${server}\n    certificate-authority: missing-ca.pem`),
    message: '{file}: cluster "c": certificate-authority: cannot read {dir}/missing-ca.pem (ENOENT)',
  },
  {
    name: 'CA file and data',
    text: ok(
      `    token: "${SECRET}"`,
      `${server}\n    certificate-authority: ca.pem\n    certificate-authority-data: ${b64('x')}`,
    ),
    message: '{file}: cluster "c": certificate-authority-data and certificate-authority are both specified',
  },
  {
    name: 'CA with insecure',
    text: ok(
      `    token: "${SECRET}"`,
      `${server}\n    certificate-authority-data: ${b64('x')}\n    insecure-skip-tls-verify: true`,
    ),
    message: '{file}: cluster "c": specifying a root certificates file with insecure-skip-tls-verify is not allowed',
  },
  {
    name: 'client certificate without key',
    text: ok(`    client-certificate-data: ${b64('cert')}`, server),
    message: '{file}: user "u": client-key-data or client-key must be specified to use the client certificate',
  },
  {
    name: 'token and basic auth',
    text: ok(`    token: "${SECRET}"\n    username: admin\n    password: "${SECRET}"`, server),
    message: '{file}: user "u": more than one authentication method found (token, basicAuth); only one is allowed',
  },
  {
    name: 'unknown user',
    text: ok(`    token: "${SECRET}"`, server).replace('    user: u\n', '    user: ghost\n'),
    message: '{file}: context "x": user "ghost" not found in {file}',
  },
  {
    name: 'unknown cluster',
    text: ok(`    token: "${SECRET}"`, server).replace('    cluster: c\n', '    cluster: ghost\n'),
    message: '{file}: context "x": cluster "ghost" not found in {file}',
  },
  {
    name: 'socks proxy',
    text: ok(`    token: "${SECRET}"`, `${server}\n    proxy-url: socks5://127.0.0.1:1080`),
    message: '{file}: cluster "c": proxy-url must be an http:// or https:// URL',
  },
  {
    name: 'unreadable tokenFile',
    text: ok('    tokenFile: missing-token', server),
    message: '{file}: user "u": tokenFile: {dir}/missing-token: cannot read token file (ENOENT)',
  },
  {
    name: 'empty tokenFile',
    text: ok('    tokenFile: token', server),
    message: '{file}: user "u": tokenFile: {dir}/token: token file is empty',
    setup: async (dir) => writeFile(join(dir, 'token'), '\n'),
  },
  {
    name: 'exec without apiVersion',
    text: ok('    exec: {command: plugin}', server),
    message: '{file}: users[0].user.exec.apiVersion: must be specified to use an exec plugin',
  },
  {
    // A directory where the file should be (root ignores file modes, so no chmod 000 here).
    name: 'not a regular file',
    text: '',
    message: '{file}: cannot read kubeconfig (not a regular file)',
    setup: async (dir) => {
      await rm(join(dir, 'config'));
      await mkdir(join(dir, 'config'));
    },
  },
  {
    name: 'a device that never ends',
    text: '',
    message: '{file}: cannot read kubeconfig (not a regular file)',
    setup: async (dir) => {
      await rm(join(dir, 'config'));
      await symlink('/dev/zero', join(dir, 'config'));
    },
  },
  {
    name: 'alias bomb',
    text: `a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n`,
    message: '{file}: malformed YAML (too many alias expansions)',
  },
];

describe('bad kubeconfigs', () => {
  it.each(cases)('$name', async ({ text, context, message, setup }) => {
    const dir = await tempDir();
    const file = join(dir, 'config');
    await writeFile(file, text);
    await setup?.(dir);
    const error = await kubeconfigClientOptions({ kubeconfig: file, context, env: {} }).then(
      (config) => config.close().then(() => undefined),
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(KubeconfigError);
    const text2 = (error as KubeconfigError).message;
    expect(text2).toBe(message.replaceAll('{file}', file).replaceAll('{dir}', dir));
    expect(text2).not.toContain('\n');
    expect(text2).not.toContain(SECRET);
    expect((error as KubeconfigError).file).toBe(file);
  });
});

describe('bad kubeconfigs found on the first request', () => {
  const servers: LeaseApiServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  async function firstRequestError(text: string): Promise<{ file: string; error: unknown }> {
    const file = join(await tempDir(), 'config');
    await writeFile(file, text);
    const config = await kubeconfigClientOptions({ kubeconfig: file, env: {}, retries: false });
    try {
      const error = await readNamespacedLease(createClient(config.clientOptions), {
        namespace: 'default',
        name: 'a',
      }).catch((e: unknown) => e);
      return { file, error };
    } finally {
      await config.close();
    }
  }

  it('a CA that does not match names the server, the cluster entry and the file', async () => {
    const s = await start({ tls: true });
    const other = await start({ tls: true });
    servers.push(s, other);
    const { file, error } = await firstRequestError(
      ok(`    token: "${SECRET}"`, `    server: ${s.url}\n    certificate-authority-data: ${b64(other.tls?.ca ?? '')}`),
    );
    expect(error).toBeInstanceOf(ClusterConnectionError);
    const message = (error as ClusterConnectionError).message;
    expect(message).toMatch(new RegExp(`^cannot verify the certificate of ${s.url.replace(/[.]/g, '\\.')} \\(`));
    expect(message).toContain(`(cluster "c" in ${file}: check certificate-authority / tls-server-name)`);
    expect(message).not.toContain('\n');
    expect(message).not.toContain(SECRET);
    // The server still serves a client with the right CA.
    const good = await firstRequestError(
      ok(`    token: "${SECRET}"`, `    server: ${s.url}\n    certificate-authority-data: ${b64(s.tls?.ca ?? '')}`),
    );
    expect(good.error).toMatchObject({ status: 404 });
  });

  it('a missing exec plugin names the file and the user, on one line, keeping ExecPluginError and its failure code', async () => {
    const exec = `    exec:\n      command: k8s-lease-no-such-plugin\n      apiVersion: client.authentication.k8s.io/v1\n      interactiveMode: Never\n      installHint: "Install it:\\n  brew install it"\n      env: [{name: X, value: "${SECRET}"}]`;
    const { file, error } = await firstRequestError(ok(exec, server));
    expect(error).toBeInstanceOf(ExecPluginError);
    expect((error as ExecPluginError).failure).toBe('not-found');
    const message = (error as ExecPluginError).message;
    expect(message).toMatch(
      new RegExp(
        `^${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: user "u": exec: executable k8s-lease-no-such-plugin not found; It looks like you are trying to use a client-go credential plugin that is not installed\\.`,
      ),
    );
    expect(message).toMatch(/; Install it:; brew install it$/);
    expect(message).not.toContain('\n');
    expect(message).not.toContain(SECRET);
  });
});
