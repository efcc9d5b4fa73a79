// `k8s-lease`: parses the command line, loads the cluster's configuration as kubectl would, runs the subcommand,
// and turns whatever ends it into one line on stderr and an exit code. Each subcommand, the client and the
// kubeconfig loader are imported only once they are needed: `--version`, `--help` and a bad command line load
// none of them, and `lock` not what get, watch, release or the health server need.
import { createRequire } from 'node:module';
import type { Client } from 'k8s-lease-client';
import type { CommonArgs } from './args.js';
import { parseCommand, UsageError } from './args.js';
import { EXIT_ERROR, EXIT_USAGE } from './exit-codes.js';
import type { CliIo } from './io.js';
import { oneLine } from './messages.js';
import type { RunningProbes } from './probes.js';
import { USAGE } from './usage.js';

/** The package's version (dist/cli/main.js sits two folders below its package.json); undefined from templates/. */
function packageVersion(): string | undefined {
  try {
    const manifest: unknown = createRequire(import.meta.url)('../../package.json');
    const version = typeof manifest === 'object' && manifest !== null ? Reflect.get(manifest, 'version') : undefined;
    return typeof version === 'string' ? version : undefined;
  } catch {
    return undefined;
  }
}

interface Cluster {
  readonly client: Client;
  readonly namespace: string;
  readonly close: () => Promise<void>;
}

async function connect(args: CommonArgs, io: CliIo): Promise<Cluster> {
  const [{ loadClientConfig }, { createClient }] = await Promise.all([
    import('../client-config.js'),
    import('k8s-lease-client'),
  ]);
  const config = await loadClientConfig({
    kubeconfig: args.kubeconfig,
    context: args.context,
    env: io.env,
    onWarning: (message) => io.stderr(`k8s-lease: warning: ${message}\n`),
  });
  return {
    client: createClient(config.clientOptions),
    namespace: args.namespace ?? config.namespace,
    close: () => config.close(),
  };
}

/** Runs `k8s-lease` with `argv` (without node and the script); resolves with the exit code. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  let command: ReturnType<typeof parseCommand>;
  try {
    command = parseCommand(argv);
  } catch (error) {
    io.stderr(`k8s-lease: ${oneLine(error)}\n`);
    return error instanceof UsageError ? EXIT_USAGE : EXIT_ERROR;
  }
  if (command.kind === 'help') {
    io.stdout(USAGE[command.topic ?? 'main']);
    return 0;
  }
  if (command.kind === 'version') {
    io.stdout(`k8s-lease ${packageVersion() ?? '(unpackaged)'}\n`);
    return 0;
  }
  let cluster: Cluster | undefined;
  try {
    cluster = await connect(command.args, io);
    const { client, namespace } = cluster;
    if (command.kind === 'lock' || command.kind === 'elect') {
      // The health server only for --healthz-port.
      const probes: RunningProbes | undefined =
        command.args.healthzPort === undefined
          ? undefined
          : await import('./probes.js').then(({ startProbes }) => startProbes(command.args, io));
      try {
        return command.kind === 'lock'
          ? await import('./lock.js').then(({ runLock }) =>
              runLock({ client, namespace, args: command.args, io, probes }),
            )
          : await import('./elect.js').then(({ runElect }) =>
              runElect({ client, namespace, args: command.args, io, probes }),
            );
      } finally {
        await probes?.close();
      }
    }
    const { kind, args } = command;
    if (kind === 'release')
      return await import('./release.js').then(({ runRelease }) => runRelease({ client, namespace, args, io }));
    if (kind === 'watch')
      return await import('./watch.js').then(({ runWatch }) => runWatch({ client, namespace, args, io }));
    return await import('./show.js').then(({ runShow }) => runShow({ client, namespace, args, io }));
  } catch (error) {
    io.stderr(`k8s-lease: ${oneLine(error)}\n`);
    return EXIT_ERROR;
  } finally {
    await cluster?.close();
  }
}
