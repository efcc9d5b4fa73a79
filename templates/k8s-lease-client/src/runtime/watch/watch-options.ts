/**
 * What a caller tells `watch` and `createInformer`: where to start, how to reconnect, limits and progress
 * callbacks, and what those callbacks are told. Types only, imported by the driver and by ./backoff.ts alike,
 * so the backoff needs nothing of the watch itself.
 */

/** How a watch retries after a lost connection or a retriable failure: capped exponential backoff with jitter. */
export interface ReconnectPolicy {
  /** Consecutive failures tolerated before the iteration throws the last error; default Infinity. */
  maxRetries?: number | undefined;
  /** Delay before the first retry; default 200 ms. Doubles per consecutive failure. */
  initialDelayMs?: number | undefined;
  /** Cap of the delay; default 30,000 ms. A longer Retry-After is still honoured. */
  maxDelayMs?: number | undefined;
  /** 0..1, default 0.2: each delay is shortened by a random fraction of up to this much. */
  jitter?: number | undefined;
}

/** What `WatchOptions.onConnect` is told before each connection attempt. */
export interface WatchConnectInfo {
  /** resourceVersion the watch (re)starts from; undefined when streaming the initial state. */
  resourceVersion: string | undefined;
  /** Consecutive failed attempts before this connection (0 on a first try). */
  attempt: number;
}

/** What `WatchOptions.onDisconnect` is told before each wait for a retry. */
export interface WatchDisconnectInfo {
  /** Why: the error, a WatchIdleTimeoutError, or undefined for a clean end of stream. */
  error: unknown;
  /** Consecutive failures so far, this one included (0 when the end was not a failure). */
  attempt: number;
  /** How long the watch waits before the next attempt. */
  delayMs: number;
}

/** What `onResync` callbacks are told once a re-list after a 410 completed. */
export interface WatchResyncInfo {
  /** The Status reason of the 410. */
  reason: 'Expired' | 'Gone';
  /** The resourceVersion of the re-list. */
  resourceVersion: string;
  /** How many objects the re-list returned. */
  objects: number;
}

/** Options of `watch` and `createInformer`: where to start, reconnection, limits and progress callbacks. */
export interface WatchOptions {
  /** Start watching from here instead of listing first. */
  resourceVersion?: string | undefined;
  /** Default true. Bookmarks keep the resume point fresh on quiet watches. */
  allowWatchBookmarks?: boolean | undefined;
  /** Sent to the server: it ends each watch connection cleanly after this long (the watch then reconnects). */
  timeoutSeconds?: number | undefined;
  /** Aborting ends the iteration cleanly: the for-await loop exits (`next()` resolves `done`), the connection is closed. */
  signal?: AbortSignal | undefined;
  /** `false`: a single connection; any disconnect ends the iteration (a clean end returns, anything else throws). */
  reconnect?: false | ReconnectPolicy | undefined;
  /** Reconnect after this long without a byte from the server (bookmarks count); default 300,000 ms. */
  idleTimeoutMs?: number | undefined;
  /**
   * Longest watch event line read, in bytes; default 16 MiB. A longer one ends the iteration with a
   * ResponseTooLargeError (`limit: 'maxLineBytes'`), the connection closed: a resume would replay it.
   */
  maxLineBytes?: number | undefined;
  /**
   * Get the initial state from the watch itself (`sendInitialEvents=true&resourceVersionMatch=NotOlderThan`,
   * Kubernetes ≥ 1.27 with WatchList) instead of a LIST. The initial events are collected until the
   * `k8s.io/initial-events-end` bookmark, then yielded as ADDED. Falls back to a LIST when the server
   * rejects the parameters (400/422).
   */
  sendInitialEvents?: boolean | undefined;
  /** Page size of the LISTs made by the watch; default 500, 0 for unpaged. */
  listLimit?: number | undefined;
  /** Called before every connection attempt, the first included. */
  onConnect?: ((info: WatchConnectInfo) => void) | undefined;
  /** Called before every wait for a retry: after a lost or ended connection, or a failed request. */
  onDisconnect?: ((info: WatchDisconnectInfo) => void) | undefined;
  /** Called when a re-list after a 410 completed, just before the RESYNC is yielded. */
  onResync?: ((info: WatchResyncInfo) => void) | undefined;
  /**
   * Called once the initial state has been yielded in full (after the consumer took the last initial
   * ADDED); with `resourceVersion` given, at the first connection (`objects: 0`). Not called for RESYNCs.
   */
  onSynced?: ((info: { resourceVersion: string; objects: number }) => void) | undefined;
  /** Injectable for tests. Must resolve (or reject) promptly when `signal` aborts. */
  sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
  /** Injectable for tests; default Math.random. */
  random?: (() => number) | undefined;
}
