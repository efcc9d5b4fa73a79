// Running a plugin once, bounded in time and stdout, with the fixture plugin run by this Node. client-go's
// exec.go (refreshCredsLocked, wrapCmdRunErrorLocked) reports a missing binary as not found and a failing one by its
// exit code ("exec: executable %s failed with exit code %d"), never with its output.
import { describe, expect, it } from 'vitest';
import { failure } from '../../../templates/k8s-lease-client-node/src/exec/errors.js';
import { ok } from '../../../templates/k8s-lease-client-node/src/exec/result.js';
import { runPlugin } from '../../../templates/k8s-lease-client-node/src/exec/run.js';
import type { RunSpec } from '../../../templates/k8s-lease-client-node/src/exec/run.js';
import { PLUGIN } from './plugin-fixture.js';

const SECRET = 'run-secret-5e2f';

function spec(env: Record<string, string>, overrides: Partial<RunSpec> = {}): RunSpec {
  return {
    file: process.execPath,
    args: [PLUGIN],
    env: { ...env, KUBERNETES_EXEC_INFO: '{"apiVersion":"client.authentication.k8s.io/v1"}' },
    stdin: 'ignore',
    timeoutMs: 10_000,
    maxStdoutBytes: 1024 * 1024,
    ...overrides,
  };
}

describe('runPlugin', () => {
  it('resolves to the whole stdout of a plugin that exits 0', async () => {
    expect(await runPlugin(spec({ PLUGIN_MODE: 'raw', PLUGIN_STDOUT: `{"token":"${SECRET}"}` }))).toEqual(
      ok(`{"token":"${SECRET}"}`),
    );
  });

  it('hands the plugin the environment it is given', async () => {
    const result = await runPlugin(spec({ PLUGIN_TOKENS: 't' }));
    expect(result).toEqual(
      ok('{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"t"}}'),
    );
  });

  it('a non-zero exit: the exit code, none of the output (client-go binary-fails: 73)', async () => {
    const result = await runPlugin(spec({ PLUGIN_MODE: 'exit', PLUGIN_EXIT: '73', PLUGIN_STDERR: SECRET }));
    expect(result).toEqual({ ok: false, error: failure('exit-code', 'executable failed with exit code 73') });
  });

  it('a missing executable is not-found', async () => {
    expect(await runPlugin(spec({}, { file: '/nonexistent/plugin-for-run-test', args: [] }))).toEqual({
      ok: false,
      error: { failure: 'not-found' },
    });
  });

  it('a plugin that does not finish is killed at the timeout', async () => {
    const started = Date.now();
    const result = await runPlugin(spec({ PLUGIN_MODE: 'hang' }, { timeoutMs: 300 }));
    expect(result).toEqual({
      ok: false,
      error: failure('timeout', 'plugin did not finish within 300 ms and was killed'),
    });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('a plugin writing more than maxStdoutBytes is killed, and nothing of what it wrote is kept', async () => {
    const result = await runPlugin(spec({ PLUGIN_MODE: 'huge', PLUGIN_SECRET: SECRET }, { maxStdoutBytes: 4096 }));
    expect(result).toEqual({
      ok: false,
      error: failure('stdout-too-large', 'plugin wrote more than 4096 bytes to stdout and was killed'),
    });
  });

  it('an argument Node refuses (a NUL byte) is spawn-failed, without echoing it', async () => {
    const result = await runPlugin(spec({}, { args: [PLUGIN, `x\0${SECRET}`] }));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.failure).toBe('spawn-failed');
    expect(JSON.stringify(result)).not.toContain(SECRET);
  });
});
