import { inspect } from 'node:util';
import { resolveCommand, validateExecConfig, type ValidExecConfig } from './config.js';
import { parseExecCredential } from './credential.js';
import { escapeControl, ExecPluginError, failure, notFoundError, toError } from './errors.js';
import { EXEC_INFO_ENV, execInfo } from './exec-info.js';
import { err, ok, type Result } from './result.js';
import { runPlugin } from './run.js';
import type {
  ExecClusterInfo,
  ExecCredential,
  ExecCredentialSource,
  ExecCredentialSourceOptions,
  KubeconfigExec,
} from './types.js';

const DEFAULT_TIMEOUT_MS = 30_000;

// How many credentials each source has cached so far: refreshOnUnauthorized reads it to tell whether the credential a
// request was sent with is still the current one (client-go compares credential pointers in maybeRefreshCreds).
const generations = new WeakMap<ExecCredentialSource, () => number>();

/** The source's credential generation, or undefined for a source not made by execCredentialSource. */
export function credentialGeneration(source: ExecCredentialSource): number | undefined {
  return generations.get(source)?.();
}
const DEFAULT_MAX_STDOUT = 1024 * 1024;

/** As client-go's isInteractive: Never gives no stdin, IfAvailable passes a terminal, Always insists on one. */
export function interactivity(mode: ValidExecConfig['interactiveMode'], isTerminal: boolean): Result<boolean, string> {
  if (mode === 'Never') return ok(false);
  if (mode === 'IfAvailable') return ok(isTerminal);
  return isTerminal ? ok(true) : err('exec plugin cannot support interactive mode: standard input is not a terminal');
}

/**
 * The plugin's environment: ours, then the stanza's `env`, then KUBERNETES_EXEC_INFO (client-go appends them in that
 * order, so later entries win). A null-prototype object: a `__proto__` name stays an ordinary variable.
 */
export function pluginEnv(
  base: NodeJS.ProcessEnv,
  extra: ValidExecConfig['env'],
  info: string,
): Record<string, string> {
  const env: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(base)) if (value !== undefined) env[name] = value;
  for (const { name, value } of extra) env[name] = value;
  env[EXEC_INFO_ENV] = info;
  return env;
}

async function runOnce(
  config: ValidExecConfig,
  cluster: ExecClusterInfo,
  options: ExecCredentialSourceOptions,
): Promise<ExecCredential> {
  const interactive = interactivity(
    config.interactiveMode,
    (options.isTerminal ?? (() => process.stdin.isTTY === true))(),
  );
  if (!interactive.ok) throw toError(config.command, failure('interactive', interactive.error));
  const info = execInfo(config.apiVersion, interactive.value, config.provideClusterInfo ? cluster : undefined);
  const run = await runPlugin({
    file: resolveCommand(config.command, options.kubeconfigPath),
    args: config.args,
    env: pluginEnv(options.env ?? process.env, config.env, info),
    stdin: interactive.value ? 'inherit' : 'ignore',
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxStdoutBytes: options.maxStdoutBytes ?? DEFAULT_MAX_STDOUT,
  });
  if (!run.ok) {
    if (run.error.failure === 'not-found') throw notFoundError(config.command, config.installHint);
    throw toError(config.command, run.error as { failure: ExecPluginError['failure']; detail: string });
  }
  const credential = parseExecCredential(run.value, config.apiVersion);
  if (!credential.ok) throw toError(config.command, credential.error);
  return credential.value;
}

/** The same failure, its message prefixed with where the stanza is (kept one line: the context is escaped). */
function withContext(error: ExecPluginError, context: string): ExecPluginError {
  return new ExecPluginError(error.command, error.failure, `${escapeControl(context)}: ${error.message}`);
}

/**
 * A credential source backed by an exec plugin, with client-go's Authenticator semantics: one run at a time shared by
 * every caller, the result cached until its expirationTimestamp (or until invalidate()). A failed run is not cached,
 * so the next call tries again. Throws ExecPluginError at once when the stanza is invalid, as GetAuthenticator does.
 *
 * The object shows only the command under util.inspect, String() and JSON.stringify: credentials live in a closure.
 */
export function execCredentialSource(
  exec: KubeconfigExec,
  cluster: ExecClusterInfo,
  options: ExecCredentialSourceOptions = {},
): ExecCredentialSource {
  const located = (error: unknown): unknown =>
    options.errorContext !== undefined && error instanceof ExecPluginError
      ? withContext(error, options.errorContext)
      : error;
  const valid = validateExecConfig(exec);
  if (!valid.ok) throw located(toError(String(exec.command), valid.error));
  const config = valid.value;
  const now = options.now ?? Date.now;
  let cached: ExecCredential | undefined;
  let inflight: Promise<ExecCredential> | undefined;
  let generation = 0;

  const credential = (): Promise<ExecCredential> => {
    // client-go's credsExpired: a credential without expiry never expires; one with it is stale once now is after it.
    if (cached && (cached.expiresAt === undefined || now() <= cached.expiresAt)) return Promise.resolve(cached);
    if (!inflight) {
      const run = runOnce(config, cluster, options).catch((error: unknown) => {
        throw located(error);
      });
      inflight = run;
      run.then(
        (fresh) => {
          if (inflight === run) {
            cached = fresh;
            generation += 1;
            inflight = undefined;
          }
        },
        () => {
          if (inflight === run) inflight = undefined;
        },
      );
    }
    return inflight;
  };

  const label = `ExecCredentialSource { command: ${JSON.stringify(config.command)} }`;
  const source = {
    token: async () => (await credential()).token,
    clientCertificate: async () => {
      const certificate = (await credential()).certificate;
      return certificate ? { ...certificate } : undefined;
    },
    // An in-flight run started after the credential being forgotten was obtained, so callers still share it.
    invalidate: () => {
      cached = undefined;
    },
    toString: () => label,
    toJSON: () => ({ kind: 'ExecCredentialSource', command: config.command }),
    [inspect.custom]: () => label,
  } as ExecCredentialSource;
  generations.set(source, () => generation);
  return source;
}
