/**
 * A watch's options resolved once, when `watch()` is called rather than at the first connection: defaults
 * applied and every value checked, a RangeError naming the option and the value.
 */

import { defaultSleep } from './abort.js';
import { backoffSettings } from './backoff.js';
import type { BackoffSettings } from './backoff.js';
import { pageLimit } from './list-all.js';
import { checkMaxLineBytes, DEFAULT_MAX_LINE_BYTES } from './ndjson.js';
import type { WatchOptions } from './watch-options.js';

const DEFAULT_IDLE_TIMEOUT_MS = 300_000;

/** WatchOptions with their defaults applied and their values checked. */
export interface WatchConfig {
  /** undefined: `reconnect: false`, a single connection. */
  backoff: BackoffSettings | undefined;
  idleTimeoutMs: number;
  maxLineBytes: number;
  bookmarks: boolean;
  listLimit: number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
}

/** Applies the defaults and checks the values. */
export function resolveConfig(options: WatchOptions): WatchConfig {
  const reconnect = options.reconnect;
  const backoff = reconnect === false ? undefined : backoffSettings(reconnect);
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  if (!(idleTimeoutMs > 0) || !Number.isFinite(idleTimeoutMs))
    throw new RangeError(`idleTimeoutMs must be a finite number > 0, got ${idleTimeoutMs}`);
  const timeoutSeconds = options.timeoutSeconds;
  if (timeoutSeconds !== undefined && (!Number.isSafeInteger(timeoutSeconds) || timeoutSeconds < 0)) {
    throw new RangeError(`timeoutSeconds must be an integer >= 0, got ${timeoutSeconds}`);
  }
  return {
    backoff,
    idleTimeoutMs,
    maxLineBytes: checkMaxLineBytes(options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES),
    bookmarks: options.allowWatchBookmarks ?? true,
    listLimit: pageLimit(options.listLimit),
    sleep: options.sleep ?? defaultSleep,
    random: options.random ?? Math.random,
  };
}
