import { createLeaderElector } from 'k8s-lease-client';
import type { Candidacy } from './candidacy.js';
import { electorOptions } from './candidacy.js';
import type { LockArgs } from './args.js';
import { formatDuration } from './duration.js';
import type { RunningCommand } from './child.js';
import { fencingEnv, startCommand } from './child.js';
import { EXIT_ERROR, EXIT_LOST, EXIT_TIMEOUT, signalExitCode } from './exit-codes.js';
import { oneLine } from './messages.js';
import { stopping, watchTerm } from './term-watch.js';

export interface LockRun extends Candidacy {
  readonly args: LockArgs;
}

export async function runLock(run: LockRun): Promise<number> {
  const { namespace, args, io, probes } = run;
  const where = `${namespace}/${args.name}`;
  const stop = new AbortController();
  let child: RunningCommand | undefined;
  let lost = false;
  let timedOut = false;
  let interrupted: NodeJS.Signals | undefined;
  let fatal: unknown;

  const elector = createLeaderElector({
    ...electorOptions(run, stop.signal, (error) => {
      fatal ??= error;
      stop.abort();
    }),
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
        const left = termWatch.graceLeft(args.grace);
        io.stderr(`k8s-lease: lost Lease ${where}; stopping the command (${stopping(left, args.grace)})\n`);
        started.terminate(left);
      });
    },
    onStoppedLeading: () => {},
  });

  probes?.healthz.setLeaderElection(elector);
  const termWatch = watchTerm(elector);

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
    termWatch.stop();
    unsubscribe();
  }
}
