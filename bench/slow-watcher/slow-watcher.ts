/** What the slow-watcher benchmark's parent and child exchange. */
export type SlowWatcherScenario = 'reading only' | 'never-reading';

export interface SlowWatcherConfig {
  scenario: SlowWatcherScenario;
  events: number;
  eventBytes: number;
  /** The server's watchBufferBytes (passed explicitly, equal to its default). */
  watchBufferBytes: number;
}

export interface SlowWatcherResult {
  scenario: SlowWatcherScenario;
  /** Events the reading watch received (must equal the events written). */
  events: number;
  /** process.resourceUsage().maxRSS of the server's process. */
  peakRssBytes: number;
  /** Highest heapUsed + external seen after a write (no forced GC: an upper estimate). */
  peakLiveBytes: number;
  activeWatchesAfter: number;
  ms: number;
}

export function isSlowWatcherResult(value: unknown): value is SlowWatcherResult {
  return typeof value === 'object' && value !== null && 'peakRssBytes' in value && 'scenario' in value;
}
