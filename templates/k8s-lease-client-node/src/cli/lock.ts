// `k8s-lease lock NAME -- COMMAND`: run a command while holding a Lease, as `etcdctl lock` and `consul lock` do for
// their stores. The Lease is taken and kept by the library's elector (client-go's semantics, releaseOnCancel); this
// file only starts and stops the child around the term it opens.
import type { Client } from 'k8s-lease-client';
import { createLeaderElector, isForbidden, isNotFound, isUnauthorized } from 'k8s-lease-client';
import type { LockArgs } from './args.js';
import { formatDuration } from './duration.js';
import type { RunningCommand } from './child.js';
import { fencingEnv, startCommand } from './child.js';
import { EXIT_ERROR, EXIT_LOST, EXIT_TIMEOUT, signalExitCode } from './exit-codes.js';
import type { CliIo } from './io.js';
import type { ElectionProbes } from './probes.js';
import { oneLine } from './messages.js';

export interface LockRun {
  readonly client: Client;
  readonly namespace: string;
  readonly args: LockArgs;
  readonly io: CliIo;
  /** With --healthz-port: what the elector reports to. */
  readonly probes?: ElectionProbes | undefined;
}

/** A request error that retrying cannot mend: the credentials, the permissions, or the namespace are wrong. */
export function isFatal(error: unknown): boolean {
  return isUnauthorized(error) || isForbidden(error) || isNotFound(error);
}

export async function runLock({ client, namespace, args, io, probes }: LockRun): Promise<number> {
  const where = `${namespace}/${args.name}`;
  const stop = new AbortController();
  let child: RunningCommand | undefined;
  let lost = false;
  let timedOut = false;
  let interrupted: NodeJS.Signals | undefined;
  let fatal: unknown;
  const warned = new Set<string>();

  const elector = createLeaderElector({
    client,
    namespace,
    name: args.name,
    identity: args.identity,
    leaseDuration: args.leaseDuration,
    renewDeadline: args.renewDeadline,
    retryPeriod: args.retryPeriod,
    releaseOnCancel: true,
    signal: stop.signal,
    metrics: probes?.metrics,
    onStartedLeading: (term, token) => {
      clearTimeout(timer);
      const env = args.fencingEnv ? { ...io.env, ...fencingEnv(namespace, args.name, token) } : io.env;
      const started = startCommand(args.command, env, io);
      child = started;
      // The command is done: give the Lease up (releaseOnCancel).
      void started.exit.then(() => stop.abort());
      term.addEventListener('abort', () => {
        // The term ended while the command still runs: only a lost Lease does that (we cancel only once it exited).
        if (!started.running()) return;
        lost = true;
        io.stderr(
          `k8s-lease: lost Lease ${where}; stopping the command (SIGTERM, SIGKILL after ${formatDuration(args.grace)})\n`,
        );
        started.terminate(args.grace);
      });
    },
    onStoppedLeading: () => {},
    onError: (error) => {
      if (isFatal(error)) {
        fatal ??= error;
        stop.abort();
        return;
      }
      const line = oneLine(error);
      if (warned.has(line)) return;
      warned.add(line);
      io.stderr(`k8s-lease: ${line} (retrying)\n`);
    },
  });

  probes?.healthz.setLeaderElection(elector);

  const timer =
    args.timeout === undefined
      ? undefined
      : setTimeout(() => {
          if (child !== undefined) return;
          timedOut = true;
          stop.abort();
        }, args.timeout);
  const unsubscribe = io.onSignal((signal) => {
    // With the command running, the signal is its to handle: the Lease is released once it exits.
    if (child?.running() === true) child.process.kill(signal);
    else {
      interrupted ??= signal;
      stop.abort();
    }
  });
  try {
    await elector.run();
    if (child !== undefined) {
      const code = await child.exit;
      if (!lost) return code;
      io.stderr(`k8s-lease: the command was stopped because Lease ${where} was lost\n`);
      return EXIT_LOST;
    }
    if (fatal !== undefined) {
      io.stderr(`k8s-lease: ${oneLine(fatal)}\n`);
      return EXIT_ERROR;
    }
    if (timedOut) {
      const holder = elector.getLeader();
      io.stderr(
        `k8s-lease: timed out after ${formatDuration(args.timeout ?? 0)} waiting for Lease ${where}${holder === '' ? '' : ` (held by ${JSON.stringify(holder)})`}\n`,
      );
      return EXIT_TIMEOUT;
    }
    return signalExitCode(interrupted ?? 'SIGTERM');
  } finally {
    clearTimeout(timer);
    unsubscribe();
  }
}
