import { forkChild } from '../lib/fork-child.js';
import { recordGoals } from '../lib/goal.js';
import { goalsOf, SLOW_WATCHER_BUFFER_MIB } from '../lib/goals.js';
import { environment, median, round, runInterleaved, type BenchContext, type BenchResult } from '../lib/harness.js';
import {
  isSlowWatcherResult,
  type SlowWatcherConfig,
  type SlowWatcherResult,
  type SlowWatcherScenario,
} from './slow-watcher.js';

const MB = 1024 * 1024;
const EVENT_BYTES = 200_000;
const WATCH_BUFFER_BYTES = SLOW_WATCHER_BUFFER_MIB * MB;

/** One scenario in a fresh process (through tsx, as the benchmarks run), so its peak RSS is its own. */
function runScenario(config: SlowWatcherConfig): Promise<SlowWatcherResult> {
  return new Promise((resolve, reject) => {
    const child = forkChild(new URL('./slow-watcher.child.ts', import.meta.url), [JSON.stringify(config)], {
      tsx: true,
    });
    let result: SlowWatcherResult | undefined;
    child.on('message', (message: unknown) => {
      if (isSlowWatcherResult(message)) result = message;
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      result !== undefined
        ? resolve(result)
        : reject(new Error(`slow-watcher child exited with ${String(code)} and no result`)),
    );
  });
}

/**
 * `slow-watcher`: the Lease API server's peak memory while a watch client never reads, against the
 * same run with only a reading watch. Unbounded, the never-reading watch would hold every event
 * (events × 200 KB); kube-apiserver terminates such a watcher, and so does this server.
 */
export async function benchSlowWatcher(context: BenchContext): Promise<BenchResult> {
  const events = context.quick ? 300 : 2_000;
  const rounds = context.quick ? 1 : 3;
  const scenarios: readonly SlowWatcherScenario[] = ['reading only', 'never-reading'];
  // A scenario whose child dies is recorded as failed: its figures come out NaN (recorded as null), so the figure goals are not measured.
  const { results: ran, failed } = await runInterleaved(scenarios, rounds, (scenario) =>
    runScenario({ scenario, events, eventBytes: EVENT_BYTES, watchBufferBytes: WATCH_BUFFER_BYTES }),
  );
  const results: Record<SlowWatcherScenario, SlowWatcherResult[]> = {
    'reading only': ran.get('reading only') ?? [],
    'never-reading': ran.get('never-reading') ?? [],
  };
  const rss = (s: SlowWatcherScenario): number => median(results[s].map((r) => r.peakRssBytes));
  const live = (s: SlowWatcherScenario): number => median(results[s].map((r) => r.peakLiveBytes));
  const ratio = rss('never-reading') / rss('reading only');
  const extraLive = live('never-reading') - live('reading only');
  // A failed scenario confirmed nothing: its check goals are missed, not passed on an empty list.
  const allDelivered =
    failed.length === 0 && Object.values(results).every((list) => list.every((r) => r.events === events));
  const terminated = ran.has('never-reading') && results['never-reading'].every((r) => r.activeWatchesAfter === 1);
  const figures = {
    events,
    'event bytes': EVENT_BYTES,
    'unbounded backlog (MB)': round((events * EVENT_BYTES) / MB, 1),
    rounds,
    'peak RSS, reading only (MB)': round(rss('reading only') / MB, 1),
    'peak RSS, with a never-reading watcher (MB)': round(rss('never-reading') / MB, 1),
    'peak heap+external, reading only (MB)': round(live('reading only') / MB, 1),
    'peak heap+external, with a never-reading watcher (MB)': round(live('never-reading') / MB, 1),
    'extra heap+external for the never-reading watcher (MB)': round(extraLive / MB, 1),
    'RSS ratio (never-reading ÷ reading only)': round(ratio, 2),
  };
  return {
    name: 'slow-watcher',
    command: `npm run bench -- slow-watcher${context.quick ? ' --quick' : ''}`,
    environment: environment(),
    figures,
    ...(failed.length === 0 ? {} : { failed }),
    goals: recordGoals(goalsOf('slow-watcher'), figures, {
      terminated: { met: terminated },
      'all-delivered': { met: allDelivered, detail: `${events} events` },
    }),
  };
}
