import { createLeaderElector } from 'k8s-lease-client';
import type { CoordinatedArgs, ElectArgs, RestartPolicy } from './args.js';
import type { RunningCommand } from './child.js';
import { fencingEnv, startCommand } from './child.js';
import { EXIT_ERROR, EXIT_NO_COORDINATION, signalExitCode } from './exit-codes.js';
import type { Candidacy } from './candidacy.js';
import { electorOptions, errorReporter } from './candidacy.js';
import type { RunningCandidacy } from './coordinated.js';
import { servedCandidateVersion, startCandidacy } from './coordinated.js';
import { oneLine } from './messages.js';
import { stopping, watchTerm } from './term-watch.js';

export interface ElectRun extends Candidacy {
  readonly args: ElectArgs;
}

/** Between a command's end and its restart while still leading: a command that fails at once must not spin. */
export const RESTART_DELAY_MS = 1_000;

/** Whether a command that ended with `code` while leading is started again. */
export function restarts(policy: RestartPolicy, code: number): boolean {
  return policy === 'always' || (policy === 'on-failure' && code !== 0);
}

/** How the replica's part in the election ended, when it did. */
type Ending =
  | { kind: 'exit'; code: number }
  | { kind: 'fatal'; error: unknown }
  | { kind: 'signal'; signal: NodeJS.Signals };

/** The LeaseCandidate of `--coordinated`, once discovery found the API; 'unserved' when the cluster has none. */
async function candidacyFor(
  run: ElectRun,
  versions: CoordinatedArgs,
  onFatal: (error: unknown) => void,
): Promise<RunningCandidacy | 'unserved'> {
  const { client, namespace, args, io } = run;
  const groupVersion = await servedCandidateVersion(client);
  if (groupVersion === undefined) return 'unserved';
  return startCandidacy({
    client,
    namespace,
    identity: args.identity,
    leaseName: args.name,
    versions,
    groupVersion,
    withdrawTimeout: args.renewDeadline,
    io,
    onError: errorReporter(io, onFatal),
  });
}

export async function runElect(run: ElectRun): Promise<number> {
  const { namespace, args, io, probes } = run;
  const where = `${namespace}/${args.name}`;
  // An object, so that what the callbacks set is not narrowed away in the loop below.
  const end: { ending: Ending | undefined } = { ending: undefined };
  const current = (): Ending | undefined => end.ending;
  let child: RunningCommand | undefined;
  let round: AbortController | undefined;
  const candidacy =
    args.coordinated === undefined
      ? undefined
      : await candidacyFor(run, args.coordinated, (error) => {
          end.ending ??= { kind: 'fatal', error };
          round?.abort();
        });
  if (candidacy === 'unserved') {
    io.stderr(
      'k8s-lease: elect --coordinated: the cluster serves no LeaseCandidate (coordination.k8s.io v1beta1, v1alpha2 or v1alpha1: Kubernetes 1.31+ with the CoordinatedLeaderElection feature gate); run without --coordinated\n',
    );
    return EXIT_NO_COORDINATION;
  }
  // Stepping down for good: the candidacy goes first, so the controller does not elect this replica again.
  const leave = (stop: AbortController): void => {
    if (candidacy === undefined) stop.abort();
    else void candidacy.withdraw().then(() => stop.abort());
  };
  const unsubscribe = io.onSignal((signal) => {
    // The command handles the signal; once it exits, this replica steps down and ends with its code.
    if (end.ending === undefined) end.ending = { kind: 'signal', signal };
    if (child?.running() === true) child.process.kill(signal);
    else round?.abort();
  });
  try {
    while (end.ending === undefined) {
      const stop = new AbortController();
      round = stop;
      const elector = createLeaderElector({
        ...electorOptions(run, stop.signal, (error) => {
          end.ending ??= { kind: 'fatal', error };
          stop.abort();
        }),
        coordinated: candidacy !== undefined,
        onStartedLeading: (term, token) => {
          const env = args.fencingEnv ? { ...io.env, ...fencingEnv(namespace, args.name, token) } : io.env;
          const supervise = (): void => {
            const started = startCommand(args.command, env, io);
            child = started;
            void started.exit.then(async (code) => {
              if (term.aborted) return;
              if (end.ending === undefined && restarts(args.restart, code)) {
                await new Promise((resolve) => setTimeout(resolve, RESTART_DELAY_MS));
                if (!term.aborted && end.ending === undefined) return supervise();
              }
              end.ending ??= { kind: 'exit', code };
              leave(stop);
            });
          };
          supervise();
          term.addEventListener('abort', () => {
            if (child?.running() !== true) return;
            const left = termWatch.graceLeft(args.grace);
            io.stderr(`k8s-lease: lost leadership of ${where}; stopping the command (${stopping(left, args.grace)})\n`);
            child.terminate(left);
          });
        },
        onStoppedLeading: () => {},
      });
      // Each candidacy is a new elector: the health check follows the current one.
      probes?.healthz.setLeaderElection(elector);
      const termWatch = watchTerm(elector);
      try {
        await elector.run();
      } finally {
        termWatch.stop();
      }
      const exit = await child?.exit;
      child = undefined;
      // Read through a call: TypeScript would keep the loop condition's narrowing across the awaits above.
      const after = current();
      if (after === undefined) io.stderr(`k8s-lease: rejoining the election for ${where}\n`);
      else if (after.kind === 'signal' && exit !== undefined) end.ending = { kind: 'exit', code: exit };
    }
    const ending = current() ?? { kind: 'exit', code: EXIT_ERROR };
    if (ending.kind === 'exit') return ending.code;
    if (ending.kind === 'signal') return signalExitCode(ending.signal);
    io.stderr(`k8s-lease: ${oneLine(ending.error)}\n`);
    return EXIT_ERROR;
  } finally {
    unsubscribe();
    await candidacy?.withdraw();
  }
}
