import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createTestPki } from '../../../templates/k8s-lease-api-server/src/tls/pki.js';
import { ExecPluginError } from '../../../templates/k8s-lease-client-node/src/exec/errors.js';
import { execCredentialSource } from '../../../templates/k8s-lease-client-node/src/exec/source.js';
import type {
  ExecClusterInfo,
  ExecCredentialSourceOptions,
  KubeconfigExec,
} from '../../../templates/k8s-lease-client-node/src/exec/types.js';
import { CLUSTER, newRecord, PLUGIN, pluginExec, runs, source, TMP, V1, V1BETA1 } from './plugin-fixture.js';

async function rejection(promise: Promise<unknown>): Promise<ExecPluginError> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(ExecPluginError);
  return outcome as ExecPluginError;
}

const FUTURE = '2999-01-01T00:00:00Z';

describe('running the plugin', () => {
  it('passes args and env, and returns the token of a v1 and a v1beta1 ExecCredential', async () => {
    for (const apiVersion of [V1, V1BETA1]) {
      const record = newRecord();
      const creds = execCredentialSource(
        {
          command: process.execPath,
          args: [PLUGIN, '--region', 'eu west'],
          apiVersion,
          ...(apiVersion === V1 ? { interactiveMode: 'Never' as const } : {}),
          env: [
            { name: 'PLUGIN_RECORD', value: record },
            { name: 'PLUGIN_TOKENS', value: `tok-${apiVersion}` },
            { name: 'PLUGIN_SEE', value: 'FROM_STANZA,FROM_PARENT,__proto__' },
            { name: 'FROM_STANZA', value: 'stanza value' },
            { name: '__proto__', value: 'plain variable' },
          ],
        },
        CLUSTER,
        { env: { FROM_PARENT: 'parent value', PATH: process.env['PATH'] ?? '' } },
      );
      expect(await creds.token()).toBe(`tok-${apiVersion}`);
      expect(await creds.clientCertificate()).toBeUndefined();
      const [run] = runs(record);
      expect(run?.argv).toEqual(['--region', 'eu west']);
      // JSON.parse: in an object literal `__proto__` would set the prototype instead of a key.
      expect(run?.env).toEqual(
        JSON.parse('{"FROM_STANZA":"stanza value","FROM_PARENT":"parent value","__proto__":"plain variable"}'),
      );
      // No provideClusterInfo: the spec says only whether stdin was passed (v1beta1 defaults to IfAvailable; no TTY here).
      expect(run?.execInfo).toBe(`{"kind":"ExecCredential","apiVersion":"${apiVersion}","spec":{"interactive":false}}`);
    }
  });

  it('hands the cluster to the plugin in KUBERNETES_EXEC_INFO with provideClusterInfo, as client-go serialises it', async () => {
    const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
    const base64 = Buffer.from(pem).toString('base64');
    const cases: Array<{ cluster: ExecClusterInfo; want: Record<string, unknown> }> = [
      { cluster: { server: 'https://k8s.example:6443' }, want: { server: 'https://k8s.example:6443' } },
      {
        cluster: {
          server: 'https://10.0.0.1',
          certificateAuthorityData: base64,
          tlsServerName: 'kubernetes',
          insecureSkipTlsVerify: true,
          proxyUrl: 'http://proxy:3128',
        },
        want: {
          server: 'https://10.0.0.1',
          'tls-server-name': 'kubernetes',
          'insecure-skip-tls-verify': true,
          'certificate-authority-data': base64,
          'proxy-url': 'http://proxy:3128',
        },
      },
      // A PEM instead of the kubeconfig's base64 reaches the plugin the same way; false and empty fields are omitted.
      {
        cluster: {
          server: 'https://h',
          certificateAuthorityData: pem,
          insecureSkipTlsVerify: false,
          tlsServerName: '',
        },
        want: { server: 'https://h', 'certificate-authority-data': base64 },
      },
    ];
    for (const { cluster, want } of cases) {
      const record = newRecord();
      const creds = execCredentialSource(
        pluginExec({ PLUGIN_RECORD: record, PLUGIN_TOKENS: 't' }, { provideClusterInfo: true }),
        cluster,
      );
      await creds.token();
      expect(JSON.parse(runs(record)[0]?.execInfo ?? 'null')).toEqual({
        kind: 'ExecCredential',
        apiVersion: V1,
        spec: { cluster: want, interactive: false },
      });
    }
  });

  it.each([
    { mode: 'Never', terminal: true, interactive: false },
    { mode: 'IfAvailable', terminal: false, interactive: false },
    { mode: 'IfAvailable', terminal: true, interactive: true },
    { mode: 'Always', terminal: true, interactive: true },
  ] as const)(
    'interactiveMode $mode with a terminal: $terminal tells the plugin interactive: $interactive',
    async ({ mode, terminal, interactive }) => {
      const record = newRecord();
      const creds = source(
        { PLUGIN_RECORD: record, PLUGIN_TOKENS: 't' },
        { interactiveMode: mode },
        { isTerminal: () => terminal },
      );
      expect(await creds.token()).toBe('t');
      expect(JSON.parse(runs(record)[0]?.execInfo ?? 'null')).toEqual({
        kind: 'ExecCredential',
        apiVersion: V1,
        spec: { interactive },
      });
    },
  );

  it('resolves a relative command with a path separator against the kubeconfig directory, a bare name on PATH', async () => {
    const dir = mkdtempSync(join(TMP, 'kubeconfig-'));
    mkdirSync(join(dir, 'bin'));
    const script = join(dir, 'bin', 'plugin.sh');
    writeFileSync(script, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(PLUGIN)} "$@"\n`);
    chmodSync(script, 0o755);
    const record = newRecord();
    const env = [
      { name: 'PLUGIN_RECORD', value: record },
      { name: 'PLUGIN_TOKENS', value: 'relative' },
    ];
    const relative = execCredentialSource(
      { command: './bin/plugin.sh', args: ['a'], apiVersion: V1, interactiveMode: 'Never', env },
      CLUSTER,
      { kubeconfigPath: join(dir, 'config') },
    );
    expect(await relative.token()).toBe('relative');
    const onPath = execCredentialSource(
      { command: 'plugin.sh', args: ['b'], apiVersion: V1, interactiveMode: 'Never', env },
      CLUSTER,
      {
        env: { ...process.env, PATH: join(dir, 'bin') },
      },
    );
    expect(await onPath.token()).toBe('relative');
    expect(runs(record).map((r) => r.argv)).toEqual([['a'], ['b']]);
  });

  it('returns a client certificate and key when the plugin gives them', async () => {
    const pki = await createTestPki({ hosts: ['127.0.0.1'], clientCertificate: true });
    const client = pki.client;
    if (!client) throw new Error('test PKI without a client certificate');
    const creds = source({ PLUGIN_CERT: client.certificate, PLUGIN_KEY: client.key });
    expect(await creds.clientCertificate()).toEqual({ cert: client.certificate, key: client.key });
    expect(await creds.token()).toBeUndefined();
  });
});

describe('caching', () => {
  it('keeps a credential until its expirationTimestamp and runs the plugin again after it', async () => {
    const record = newRecord();
    let now = Date.parse('2030-01-01T00:00:00Z');
    const creds = source(
      { PLUGIN_RECORD: record, PLUGIN_TOKENS: 'first,second', PLUGIN_EXPIRY: '2030-01-01T00:10:00Z' },
      {},
      { now: () => now },
    );
    expect(await creds.token()).toBe('first');
    now += 9 * 60_000;
    expect(await creds.token()).toBe('first');
    expect(await creds.clientCertificate()).toBeUndefined();
    expect(runs(record)).toHaveLength(1);
    now += 2 * 60_000;
    expect(await creds.token()).toBe('second');
    expect(runs(record)).toHaveLength(2);
  });

  it('keeps a credential without expiry until invalidate()', async () => {
    const record = newRecord();
    const creds = source({ PLUGIN_RECORD: record, PLUGIN_TOKENS: 'a,b' });
    expect([await creds.token(), await creds.token()]).toEqual(['a', 'a']);
    creds.invalidate();
    expect(await creds.token()).toBe('b');
    expect(runs(record)).toHaveLength(2);
  });

  it('shares one run between concurrent callers', async () => {
    const record = newRecord();
    const creds = source({ PLUGIN_RECORD: record, PLUGIN_TOKENS: 'shared', PLUGIN_EXPIRY: FUTURE });
    const tokens = await Promise.all([
      creds.token(),
      creds.token(),
      creds.clientCertificate(),
      creds.token(),
      creds.token(),
    ]);
    expect(tokens).toEqual(['shared', 'shared', undefined, 'shared', 'shared']);
    expect(runs(record)).toHaveLength(1);
  });
});

interface ErrorCase {
  name: string;
  exec: KubeconfigExec;
  options?: ExecCredentialSourceOptions;
  failure: ExecPluginError['failure'];
  message: string | RegExp;
}

const SECRET = 'sekret-token-4f1e9c';
const cmd = process.execPath;

function rawPlugin(stdout: unknown, record?: string): KubeconfigExec {
  return pluginExec({
    PLUGIN_MODE: 'raw',
    PLUGIN_STDOUT: typeof stdout === 'string' ? stdout : JSON.stringify(stdout),
    ...(record ? { PLUGIN_RECORD: record } : {}),
  });
}

const ERROR_CASES: ErrorCase[] = [
  {
    // client-go's error says only "exec: executable X failed with exit code N": stderr went to the user, not here.
    name: 'non-zero exit: the exit code, never what the plugin wrote to stderr',
    exec: pluginExec({
      PLUGIN_MODE: 'exit',
      PLUGIN_EXIT: '3',
      PLUGIN_STDERR: `login failed for ${SECRET}\u001b[31m\nforged line\u202e`,
    }),
    failure: 'exit-code',
    message: `exec plugin ${cmd}: executable failed with exit code 3`,
  },
  {
    name: 'garbage on stdout',
    exec: rawPlugin(`{"token": "${SECRET}"`),
    failure: 'decode',
    message: `exec plugin ${cmd}: decoding stdout: not a JSON ExecCredential`,
  },
  {
    name: 'deeply nested stdout',
    exec: rawPlugin('['.repeat(100_000)),
    failure: 'decode',
    message: `exec plugin ${cmd}: decoding stdout: not a JSON ExecCredential`,
  },
  {
    name: 'a JSON array',
    exec: rawPlugin([SECRET]),
    failure: 'decode',
    message: `exec plugin ${cmd}: decoding stdout: not a JSON object`,
  },
  {
    name: 'wrong apiVersion',
    exec: rawPlugin({ apiVersion: V1BETA1, kind: 'ExecCredential', status: { token: SECRET } }),
    failure: 'wrong-version',
    message: `exec plugin ${cmd}: exec plugin is configured to use API version ${V1}, plugin returned version ${V1BETA1}`,
  },
  {
    name: 'apiVersion that is not a group/version is not echoed',
    exec: rawPlugin({ apiVersion: SECRET, kind: 'ExecCredential', status: { token: SECRET } }),
    failure: 'wrong-version',
    message: `exec plugin ${cmd}: exec plugin is configured to use API version ${V1}, plugin returned version (unrecognised)`,
  },
  {
    name: 'wrong kind',
    exec: rawPlugin({ apiVersion: V1, kind: 'Secret', status: { token: SECRET } }),
    failure: 'wrong-kind',
    message: `exec plugin ${cmd}: decoding stdout: kind is not ExecCredential`,
  },
  {
    name: 'no status',
    exec: rawPlugin({ apiVersion: V1, kind: 'ExecCredential' }),
    failure: 'no-credential',
    message: `exec plugin ${cmd}: exec plugin didn't return a status field`,
  },
  {
    name: 'neither token nor certificate (a __proto__ key does not count)',
    exec: rawPlugin(`{"apiVersion":"${V1}","kind":"ExecCredential","status":{"__proto__":{"token":"${SECRET}"}}}`),
    failure: 'no-credential',
    message: `exec plugin ${cmd}: exec plugin didn't return a token or cert/key pair`,
  },
  {
    name: 'certificate without key',
    exec: rawPlugin({
      apiVersion: V1,
      kind: 'ExecCredential',
      status: { clientCertificateData: '-----BEGIN CERTIFICATE-----' },
    }),
    failure: 'no-credential',
    message: `exec plugin ${cmd}: exec plugin returned only certificate or key, not both`,
  },
  {
    name: 'certificate and key that do not parse',
    exec: rawPlugin({
      apiVersion: V1,
      kind: 'ExecCredential',
      status: { clientCertificateData: 'not a cert', clientKeyData: SECRET },
    }),
    failure: 'bad-certificate',
    message: `exec plugin ${cmd}: failed parsing client key/certificate`,
  },
  {
    name: 'token of the wrong type',
    exec: rawPlugin({ apiVersion: V1, kind: 'ExecCredential', status: { token: 42 } }),
    failure: 'decode',
    message: `exec plugin ${cmd}: decoding stdout: status.token is not a string`,
  },
  {
    name: 'expirationTimestamp that is not RFC 3339',
    exec: rawPlugin({
      apiVersion: V1,
      kind: 'ExecCredential',
      status: { token: SECRET, expirationTimestamp: 'tomorrow' },
    }),
    failure: 'decode',
    message: `exec plugin ${cmd}: decoding stdout: status.expirationTimestamp is not an RFC 3339 time`,
  },
  {
    name: 'a plugin that hangs',
    exec: pluginExec({ PLUGIN_MODE: 'hang' }),
    options: { timeoutMs: 300 },
    failure: 'timeout',
    message: `exec plugin ${cmd}: plugin did not finish within 300 ms and was killed`,
  },
  {
    name: 'huge stdout',
    exec: pluginExec({ PLUGIN_MODE: 'huge', PLUGIN_SECRET: SECRET }),
    failure: 'stdout-too-large',
    message: `exec plugin ${cmd}: plugin wrote more than 1048576 bytes to stdout and was killed`,
  },
  {
    name: 'interactiveMode Always without a terminal',
    exec: pluginExec({ PLUGIN_TOKENS: SECRET }, { interactiveMode: 'Always' }),
    options: { isTerminal: () => false },
    failure: 'interactive',
    message: `exec plugin ${cmd}: exec plugin cannot support interactive mode: standard input is not a terminal`,
  },
  {
    name: 'a NUL byte in an argument',
    exec: pluginExec({ PLUGIN_TOKENS: SECRET }, { args: [PLUGIN, `a\u0000${SECRET}`] }),
    failure: 'spawn-failed',
    message: `exec plugin ${cmd}: cannot start the plugin (ERR_INVALID_ARG_VALUE)`,
  },
];

describe('errors', () => {
  const produced: string[] = [];

  it.each(ERROR_CASES)(
    '$name: one line naming the command, no secret, nothing cached',
    async ({ exec, options, failure, message }) => {
      const creds = execCredentialSource(exec, CLUSTER, options);
      const error = await rejection(creds.token());
      expect(error.failure).toBe(failure);
      expect(error.command).toBe(cmd);
      if (typeof message === 'string') expect(error.message).toBe(message);
      else expect(error.message).toMatch(message);
      expect(error.message).not.toContain('\n');
      produced.push(
        error.message,
        String(error),
        inspect(error),
        JSON.stringify(error),
        error.stack ?? '',
        inspect(creds),
        String(creds),
        JSON.stringify(creds),
      );
      // A failure is not cached: the next call runs the plugin again and fails the same way.
      expect((await rejection(creds.clientCertificate())).message).toBe(error.message);
    },
  );

  it("prints a missing executable with kubectl's wording and the installHint, on one line", async () => {
    const hint = 'Install it with:\n  brew install k8s-lease-no-such-plugin\n';
    const creds = execCredentialSource(
      { command: 'k8s-lease-no-such-plugin', apiVersion: V1, interactiveMode: 'Never', installHint: hint },
      CLUSTER,
    );
    const error = await rejection(creds.token());
    expect(error.failure).toBe('not-found');
    expect(error.message).toBe(
      'exec: executable k8s-lease-no-such-plugin not found; It looks like you are trying to use a client-go credential plugin that is not installed.; ' +
        'To learn more about this feature, consult the documentation available at: https://kubernetes.io/docs/reference/access-authn-authz/authentication/#client-go-credential-plugins; ' +
        'Install it with:; brew install k8s-lease-no-such-plugin',
    );
  });

  it('prefixes every failure with errorContext, keeping the type and the failure code', async () => {
    const where = '/home/me/.kube/config: user "me"';
    const missing = execCredentialSource(
      { command: 'k8s-lease-no-such-plugin', apiVersion: V1, interactiveMode: 'Never' },
      CLUSTER,
      { errorContext: where },
    );
    const notFound = await rejection(missing.token());
    expect(notFound.failure).toBe('not-found');
    expect(notFound.message).toMatch(
      /^\/home\/me\/\.kube\/config: user "me": exec: executable k8s-lease-no-such-plugin not found; /,
    );
    const exit = await rejection(source({ PLUGIN_MODE: 'exit' }, {}, { errorContext: where }).token());
    expect(exit.failure).toBe('exit-code');
    expect(exit.message).toBe(`${where}: exec plugin ${cmd}: executable failed with exit code 1`);
    let invalid: unknown;
    try {
      execCredentialSource({ command: 'p', apiVersion: V1 }, CLUSTER, { errorContext: where });
    } catch (error) {
      invalid = error;
    }
    expect(invalid).toBeInstanceOf(ExecPluginError);
    expect((invalid as ExecPluginError).message).toBe(
      `${where}: exec plugin p: interactiveMode must be specified to use exec authentication plugin with ${V1}`,
    );
  });

  it("passes the plugin's stderr through to the process's stderr, as client-go does, and keeps it out of the error", async () => {
    const script = join(TMP, 'stderr-child.mts');
    const sourceModule = fileURLToPath(
      new URL('../../../templates/k8s-lease-client-node/src/exec/index.ts', import.meta.url),
    );
    writeFileSync(
      script,
      `import { execCredentialSource } from ${JSON.stringify(sourceModule)};
const exec = ${JSON.stringify(pluginExec({ PLUGIN_MODE: 'exit', PLUGIN_STDERR: `Please log in: ${SECRET}\n` }))};
await execCredentialSource(exec, { server: 'https://127.0.0.1:6443' }).token().catch((error) => process.stdout.write(error.message));
`,
    );
    const child = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', timeout: 30_000 });
    expect(child.stdout).toBe(`exec plugin ${cmd}: executable failed with exit code 1`);
    expect(child.stderr).toContain(`Please log in: ${SECRET}`);
  });

  it.each([
    {
      name: 'unknown apiVersion',
      exec: { command: 'p', apiVersion: 'client.authentication.k8s.io/v1alpha1' },
      message:
        'exec plugin p: invalid apiVersion "client.authentication.k8s.io/v1alpha1": want client.authentication.k8s.io/v1 or client.authentication.k8s.io/v1beta1',
    },
    {
      name: 'v1 without interactiveMode',
      exec: { command: 'p', apiVersion: V1 },
      message:
        'exec plugin p: interactiveMode must be specified to use exec authentication plugin with client.authentication.k8s.io/v1',
    },
    {
      name: 'unknown interactiveMode',
      exec: { command: 'p', apiVersion: V1, interactiveMode: 'Sometimes' as 'Never' },
      message: 'exec plugin p: invalid interactiveMode "Sometimes": valid values are Never, IfAvailable, Always',
    },
    {
      name: 'no command',
      exec: { command: '', apiVersion: V1, interactiveMode: 'Never' as const },
      message: 'exec plugin : command must be specified to use exec authentication plugin',
    },
  ])('rejects the stanza at once: $name', ({ exec, message }) => {
    let thrown: unknown;
    try {
      execCredentialSource(exec, CLUSTER);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ExecPluginError);
    expect((thrown as ExecPluginError).failure).toBe('invalid-config');
    expect((thrown as ExecPluginError).message).toBe(message);
  });

  it('never shows the token, the key or the stdout in errors, inspect, String or JSON of the source', async () => {
    const pki = await createTestPki({ hosts: ['127.0.0.1'], clientCertificate: true });
    const key = pki.client?.key ?? '';
    const creds = source({ PLUGIN_TOKENS: SECRET, PLUGIN_CERT: pki.client?.certificate ?? '', PLUGIN_KEY: key });
    await creds.token();
    await creds.clientCertificate();
    const views = [
      ...produced,
      inspect(creds, { showHidden: true, depth: 10 }),
      String(creds),
      JSON.stringify(creds),
      `${creds}`,
    ];
    expect(views.length).toBeGreaterThan(ERROR_CASES.length * 8);
    const keyBody = key.split('\n')[1] ?? '';
    expect(keyBody.length).toBeGreaterThan(20);
    for (const view of views) {
      expect(view).not.toContain(SECRET);
      expect(view).not.toContain(keyBody);
      expect(view).not.toContain('{"token"');
    }
    expect(inspect(creds)).toBe(`ExecCredentialSource { command: ${JSON.stringify(process.execPath)} }`);
  });
});
