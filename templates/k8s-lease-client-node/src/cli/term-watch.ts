// The grace a lost term leaves the command, counted from the last moment this process knew it led, on the
// monotonic clock (the elector's): a process that was paused past its term (SIGSTOP, a frozen VM or container)
// finds on waking that the grace was spent while it slept, and kills its command at once (SIGKILL), rather than
// give it a fresh grace while another replica's command already runs.
import type { LeaderElector } from 'k8s-lease-client';
import { realClock } from 'k8s-lease-client';
import { formatDuration } from './duration.js';

/** How often the watch looks whether the elector still leads; a loss noticed within two looks keeps the whole grace. */
export const TERM_WATCH_MS = 100;

export interface TermWatch {
  /**
   * ms of `grace` left now: all of it when this process found itself leading within the last two looks, else
   * `grace` counted from the last look that did (0 once that is over).
   */
  graceLeft(grace: number): number;
  stop(): void;
}

export function watchTerm(
  elector: Pick<LeaderElector, 'isLeader'>,
  now: () => number = realClock.now,
  every: number = TERM_WATCH_MS,
): TermWatch {
  let seen = now();
  const look = (): void => {
    // isLeader() compares the term's end with the clock now: after a pause it is false at once, whichever timer runs first.
    if (elector.isLeader()) seen = now();
  };
  const timer = setInterval(look, every);
  // The watch never keeps the process alive by itself.
  timer.unref();
  return {
    graceLeft: (grace) => {
      look();
      const since = now() - seen;
      // Within two looks: the loss was noticed as it happened, and the whole grace is the command's.
      return since <= 2 * every ? grace : Math.max(0, Math.min(grace, seen + grace - now()));
    },
    stop: () => clearInterval(timer),
  };
}

/** How the command is being stopped, for the line that says so: `left` of `grace` ms remain. */
export function stopping(left: number, grace: number): string {
  if (left <= 0 && grace > 0) return 'SIGKILL now: its grace ran out while this process could not act';
  if (left <= 0) return 'SIGKILL now';
  return `SIGTERM, SIGKILL after ${formatDuration(left)}${left < grace ? ` of its ${formatDuration(grace)} grace` : ''}`;
}
