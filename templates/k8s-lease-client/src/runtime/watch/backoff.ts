/**
 * The watch's retry delays, apart from the watch itself, as kube-rs keeps its
 * `ResetTimerBackoff` in a module of its own and client-go's reflector holds a
 * `wait.BackoffManager`: capped exponential delays with jitter, a failure
 * count that only a connection which proved itself resets.
 */

import type { ReconnectPolicy } from './watch-options.js';

const DEFAULT_INITIAL_DELAY_MS = 200;
const DEFAULT_MAX_DELAY_MS = 30_000;
const DEFAULT_JITTER = 0.2;
/** A connection that ends cleanly sooner than this without delivering anything counts as a failure (no tight reconnect loop). */
export const MIN_HEALTHY_CONNECTION_MS = 1_000;
/**
 * A connection that ends in an error resets the backoff only if it lasted this long: client-go's reflector
 * backoff manager (wait.NewExponentialBackoffManager(800ms, 30s, 2min, 2.0, 1.0)) forgets past failures only
 * after 2 minutes without one, however many events were delivered in between.
 */
export const BACKOFF_RESET_MS = 120_000;

/** A ReconnectPolicy with its defaults applied and its values checked. */
export interface BackoffSettings {
  readonly maxRetries: number;
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  readonly jitter: number;
}

/** Applies the defaults and checks the values; a RangeError names the option and the value. */
export function backoffSettings(reconnect: ReconnectPolicy | undefined): BackoffSettings {
  const settings: BackoffSettings = {
    maxRetries: reconnect?.maxRetries ?? Number.POSITIVE_INFINITY,
    initialDelayMs: reconnect?.initialDelayMs ?? DEFAULT_INITIAL_DELAY_MS,
    maxDelayMs: reconnect?.maxDelayMs ?? DEFAULT_MAX_DELAY_MS,
    jitter: reconnect?.jitter ?? DEFAULT_JITTER,
  };
  if (!(settings.maxRetries >= 0))
    throw new RangeError(`reconnect.maxRetries must be >= 0, got ${settings.maxRetries}`);
  if (!(settings.initialDelayMs >= 0) || !Number.isFinite(settings.initialDelayMs)) {
    throw new RangeError(`reconnect.initialDelayMs must be a finite number >= 0, got ${settings.initialDelayMs}`);
  }
  if (!(settings.maxDelayMs >= settings.initialDelayMs) || !Number.isFinite(settings.maxDelayMs)) {
    throw new RangeError(`reconnect.maxDelayMs must be finite and >= initialDelayMs, got ${settings.maxDelayMs}`);
  }
  if (!(settings.jitter >= 0 && settings.jitter <= 1))
    throw new RangeError(`reconnect.jitter must be within 0..1, got ${settings.jitter}`);
  return settings;
}

/**
 * Consecutive failures and the delay each one earns. Mutable on purpose: one
 * policy object per watch iteration, consulted by the step function.
 */
export class BackoffPolicy {
  /** Consecutive failures so far (0 after a reset). */
  failures = 0;

  constructor(
    readonly settings: BackoffSettings,
    private readonly random: () => number,
  ) {}

  /**
   * Counts one more failure and returns the delay before the next attempt: `initialDelayMs × 2^(failures-1)`,
   * capped at `maxDelayMs`, shortened by up to `jitter` of itself, and at least `retryAfterMs` (a server's
   * Retry-After beats the cap). `undefined` once the failures exceed `maxRetries`: give up.
   */
  next(retryAfterMs?: number): number | undefined {
    const { maxRetries, initialDelayMs, maxDelayMs, jitter } = this.settings;
    this.failures++;
    if (this.failures > maxRetries) return undefined;
    const exponential = Math.min(maxDelayMs, initialDelayMs * 2 ** Math.min(this.failures - 1, 52));
    const delay = Math.round(exponential * (1 - jitter * this.random()));
    return retryAfterMs === undefined ? delay : Math.max(delay, retryAfterMs);
  }

  /** A connection proved itself: past failures are forgotten. */
  reset(): void {
    this.failures = 0;
  }
}

/** How a watch connection ended, as far as the backoff is concerned. */
export interface ConnectionRecord {
  /** It ended in an error (cut, idle, in-stream ERROR), not a clean end of stream. */
  readonly failed: boolean;
  readonly lastedMs: number;
  /**
   * What it delivered that was new: events handed out, initial events, bookmarks that moved the resume point.
   * Events dropped as already seen (replays at a resume boundary) do not count.
   */
  readonly delivered: number;
}

/**
 * Whether a connection proved itself, so the backoff resets. A clean end proves a connection that delivered
 * something new or lasted (client-go's reflector: handleAnyWatch's VeryShortWatchError, a watch shorter than a
 * second that received nothing, is a failure that backs off); one that ended in an error must have lasted
 * client-go's reset period, however much it delivered: a connection cut after one event every time must not
 * retry at full speed forever. Unlike client-go, which counts every event received, events replayed from
 * before the resume point are not progress: a server that sends only those and ends at once is backed off
 * from, not reconnected to thousands of times a second.
 */
export function provedItself(connection: ConnectionRecord): boolean {
  if (connection.failed) return connection.lastedMs >= BACKOFF_RESET_MS;
  return connection.delivered > 0 || connection.lastedMs >= MIN_HEALTHY_CONNECTION_MS;
}
