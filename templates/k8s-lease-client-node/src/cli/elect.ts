import { createLeaderElector } from 'k8s-lease-client';
import type { ElectArgs, RestartPolicy } from './args.js';
import type { RunningCommand } from './child.js';
import { fencingEnv, startCommand } from './child.js';
import { formatDuration } from './duration.js';
import { EXIT_ERROR, signalExitCode } from './exit-codes.js';
import type { Candidacy } from './candidacy.js';
import { electorOptions } from './candidacy.js';
import { oneLine } from './messages.js';

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

export async function runElect(run: ElectRun): Promise<number> {
  const { namespace, args, io, probes } = run;
  const where = `${namespace}/${args.name}`;
  // An object, so that what the callbacks set is not narrowed away in the loop below.
  const end: { ending: Ending | undefined } = { ending: undefined };
  const current = (): Ending | undefined => end.ending;
  let child: RunningCommand | undefined;
  let round: AbortController | undefined;
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
              stop.abort();
            });
          };
          supervise();
          term.addEventListener('abort', () => {
            if (child?.running() !== true) return;
            io.stderr(
              `k8s-lease: lost leadership of ${where}; stopping the command (SIGTERM, SIGKILL after ${formatDuration(args.grace)})\n`,
            );
            child.terminate(args.grace);
          });
        },
        onStoppedLeading: () => {},
      });
      // Each candidacy is a new elector: the health check follows the current one.
      probes?.healthz.setLeaderElection(elector);
      await elector.run();
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
  }
}
