import { field } from './field.js';
import { forkChild } from './fork-child.js';

/** Parent → child: `reset` zeroes the counters; both are answered with the (post-reset) counters. */
export type StatsRequest = { type: 'reset' } | { type: 'stats' };

/** A stand-in server in a child process, asked for its counters over IPC. */
export interface StatsChild<Listening, Stats> {
  /** What the child said once it listened (its port or URL, the Lease's size, …). */
  readonly listening: Listening;
  reset(): Promise<Stats>;
  stats(): Promise<Stats>;
  close(): Promise<void>;
}

/**
 * Starts a stand-in server's child (`entry`, through tsx, as the benchmarks themselves run) and resolves
 * once it says it listens. The child answers each StatsRequest with one `stats` message, in order, and ends
 * when the parent disconnects. `label` names it in errors ("lease server exited (code 1, …)").
 */
export async function startStatsChild<Listening extends { type: 'listening' }, Stats extends { type: 'stats' }>(
  entry: URL,
  label: string,
): Promise<StatsChild<Listening, Stats>> {
  const child = forkChild(entry, [], { tsx: true });
  const pending: Array<{ resolve: (stats: Stats) => void; reject: (error: Error) => void }> = [];
  let exited = false;

  const listening = new Promise<Listening>((resolve, reject) => {
    child.on('message', (message: unknown) => {
      const type = field(message, 'type');
      // The child speaks this protocol only: a message of either type is that type's shape.
      if (type === 'listening') resolve(message as Listening);
      else if (type === 'stats') pending.shift()?.resolve(message as Stats);
    });
    child.once('exit', (code, signal) => {
      exited = true;
      const error = new Error(`${label} exited (code ${String(code)}, signal ${String(signal)})`);
      reject(error);
      for (const waiter of pending.splice(0)) waiter.reject(error);
    });
    child.once('error', reject);
  });
  const said = await listening;

  function ask(message: StatsRequest): Promise<Stats> {
    return new Promise((resolve, reject) => {
      if (exited) {
        reject(new Error(`${label} has exited`));
        return;
      }
      pending.push({ resolve, reject });
      child.send(message);
    });
  }

  return {
    listening: said,
    reset: () => ask({ type: 'reset' }),
    stats: () => ask({ type: 'stats' }),
    async close() {
      if (exited) return;
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.disconnect();
      await gone;
    },
  };
}
