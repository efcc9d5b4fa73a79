// `lease-api-server serve …`: runs the test server until interrupted (SIGINT/SIGTERM or an abort signal).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { Command, ServeArgs } from './cli-args.js';
import { USAGE, parseCommand } from './cli-args.js';
import type { LeaseApiServer, LeaseApiServerOptions } from './options.js';
import { packagedReleases } from './openapi/packaged-documents.js';
import { resolveRelease } from './release.js';
import type { Result } from './result.js';
import { err, ok } from './result.js';
import { startLeaseApiServer } from './server.js';

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Stops the server when aborted; defaults to SIGINT/SIGTERM. */
  signal?: AbortSignal | undefined;
}

const processIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

async function loadOpenApi(path: string): Promise<Record<string, unknown>> {
  const parsed: unknown = JSON.parse(await readFile(path, 'utf8'));
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Error(`${path} does not hold a JSON object`);
  return Object.fromEntries(Object.entries(parsed));
}

async function serverOptions(args: ServeArgs): Promise<LeaseApiServerOptions> {
  const options: LeaseApiServerOptions = { port: args.port, forbiddenTokens: args.forbiddenTokens };
  if (args.host !== undefined) options.host = args.host;
  if (args.release !== undefined) options.release = args.release;
  if (args.openapi !== undefined) options.openapi = await loadOpenApi(args.openapi);
  if (args.token !== undefined) options.token = args.token;
  if (args.tls) options.tls = { clientCertificates: args.clientCertificates };
  if (args.historyWindow !== undefined) options.historyWindow = args.historyWindow;
  if (args.namespaces.length > 0) options.namespaces = args.namespaces;
  if (args.corsAllowedOrigins.length > 0) options.corsAllowedOrigins = args.corsAllowedOrigins;
  if (args.bookmarkIntervalMs !== undefined) options.bookmarkIntervalMs = args.bookmarkIntervalMs;
  if (args.coordinatedLeaderElection) options.coordinatedLeaderElection = true;
  if (args.watchList !== undefined) options.watchList = args.watchList;
  return options;
}

function stopped(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal !== undefined) {
      if (signal.aborted) resolve();
      else signal.addEventListener('abort', () => resolve(), { once: true });
      return;
    }
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/** One line for a start-up failure: a Node system error reads as its code and path, never a stack. */
function failureText(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const code = Reflect.get(e, 'code');
  const message = e.message.split('\n')[0] ?? '';
  return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
}

/** The command line, checked as far as it can be without starting anything (the release included). */
function checkedCommand(argv: readonly string[]): Result<Command, string> {
  const command = parseCommand(argv);
  if (!command.ok || command.value.kind !== 'serve') return command;
  const release = command.value.args.release;
  if (release === undefined) return command;
  const resolved = resolveRelease(release, packagedReleases(), command.value.args.openapi !== undefined);
  return resolved.ok ? ok(command.value) : err(`--release: ${resolved.error}`);
}

/** The server package's version; undefined when run from templates/ (no package.json above). */
function packageVersion(): string | undefined {
  try {
    const manifest: unknown = createRequire(import.meta.url)('../package.json');
    const version = typeof manifest === 'object' && manifest !== null ? Reflect.get(manifest, 'version') : undefined;
    return typeof version === 'string' ? version : undefined;
  } catch {
    return undefined;
  }
}

function versionText(): string {
  const releases = packagedReleases();
  const served =
    releases.length === 0
      ? 'no packaged release: give --release and --openapi'
      : `Kubernetes ${releases.at(-1)} by default; --release ${releases.map((r) => r.split('.').slice(0, 2).join('.')).join(', ')}`;
  return `lease-api-server ${packageVersion() ?? '(unpackaged)'} (${served})\n`;
}

/** Runs the CLI; resolves with the exit code once the server has stopped (0) or failed to start. */
export async function main(argv: string[], io: CliIo = processIo): Promise<number> {
  const command = checkedCommand(argv);
  if (!command.ok) {
    io.stderr(`error: ${command.error} (see lease-api-server --help)\n`);
    return 2;
  }
  if (command.value.kind === 'help') {
    io.stdout(USAGE);
    return 0;
  }
  if (command.value.kind === 'version') {
    io.stdout(versionText());
    return 0;
  }
  const args = command.value.args;
  let server: LeaseApiServer;
  try {
    server = await startLeaseApiServer(await serverOptions(args));
  } catch (e) {
    io.stderr(`error: ${failureText(e)}\n`);
    return 1;
  }
  // Everything that can fail is done before "listening" is printed, so a script waiting for that line never
  // sees a server that then dies.
  let kubeconfigPath: string | undefined;
  if (args.kubeconfig !== undefined) {
    try {
      kubeconfigPath = await server.writeKubeconfig(args.kubeconfig);
    } catch (e) {
      await server.close();
      io.stderr(`error: --kubeconfig ${JSON.stringify(args.kubeconfig)}: ${failureText(e)}\n`);
      return 1;
    }
  }
  io.stdout(`Lease API server (Kubernetes ${server.release}) listening on ${server.url}\n`);
  if (kubeconfigPath !== undefined) io.stdout(`Wrote kubeconfig to ${kubeconfigPath}\n`);
  await stopped(io.signal);
  await server.close();
  return 0;
}

// Allows `tsx templates/k8s-lease-api-server/src/cli.ts serve …` during development; the package bin imports main().
const entry = process.argv[1];
if (entry !== undefined && import.meta.url === pathToFileURL(entry).href) {
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
