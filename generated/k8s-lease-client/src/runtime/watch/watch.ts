/**
 * A watch that loses nothing: list (or stream the initial state), then watch
 * from the resourceVersion reached, resuming after every disconnect from the
 * last resourceVersion seen, re-listing after a 410 and telling the consumer
 * so (RESYNC), and failing loudly instead of skipping anything it cannot
 * decode.
 */

import type { KubernetesStatus } from '../errors.js';
import { excerpt, isKubernetesApiError, RequestTimeoutError, ResponseTooLargeError } from '../errors.js';
import type { QueryValue } from '../query.js';
import { encodeQuery } from '../query.js';
import { sendOf, stream } from '../stream.js';
import type { Client } from '../transport.js';
import { copyQuery, listConsistent, pageLimit } from './listAll.js';
import type { WatchTarget } from './listAll.js';
import { checkMaxLineBytes, DEFAULT_MAX_LINE_BYTES, NdjsonDecoder, WatchDecodeError } from './ndjson.js';
import { isDecimal, isNewerDecimal, isNewerResourceVersion, keyOf, nonEmpty } from './resourceVersion.js';
import type { KubeObjectLike } from './resourceVersion.js';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK';

export interface WatchEvent<T> {
  readonly type: WatchEventType;
  readonly object: T;
}

/** Emitted after a 410 Gone when the watch re-listed: `objects` is the complete current state; consumers replace theirs. */
export interface ResyncEvent<T> {
  readonly type: 'RESYNC';
  readonly objects: readonly T[];
  readonly resourceVersion: string;
  readonly reason: 'Expired' | 'Gone';
}

export type WatchNotification<T> = WatchEvent<T> | ResyncEvent<T>;

export interface ReconnectPolicy {
  /** Consecutive failures tolerated before the iteration throws the last error; default Infinity. */
  maxRetries?: number;
  /** Delay before the first retry; default 200 ms. Doubles per consecutive failure. */
  initialDelayMs?: number;
  /** Cap of the delay; default 30,000 ms. A longer Retry-After is still honoured. */
  maxDelayMs?: number;
  /** 0..1, default 0.2: each delay is shortened by a random fraction of up to this much. */
  jitter?: number;
}

export interface WatchConnectInfo {
  /** resourceVersion the watch (re)starts from; undefined when streaming the initial state. */
  resourceVersion: string | undefined;
  /** Consecutive failed attempts before this connection (0 on a first try). */
  attempt: number;
}

export interface WatchDisconnectInfo {
  /** Why: the error, a WatchIdleTimeoutError, or undefined for a clean end of stream. */
  error: unknown;
  /** Consecutive failures so far, this one included (0 when the end was not a failure). */
  attempt: number;
  /** How long the watch waits before the next attempt. */
  delayMs: number;
}

export interface WatchResyncInfo {
  reason: 'Expired' | 'Gone';
  resourceVersion: string;
  objects: number;
}

export interface WatchOptions {
  /** Start watching from here instead of listing first. */
  resourceVersion?: string;
  /** Default true. Bookmarks keep the resume point fresh on quiet watches. */
  allowWatchBookmarks?: boolean;
  /** Sent to the server: it ends each watch connection cleanly after this long (the watch then reconnects). */
  timeoutSeconds?: number;
  /** Aborting ends the iteration cleanly: the for-await loop exits (`next()` resolves `done`), the connection is closed. */
  signal?: AbortSignal;
  /** `false`: a single connection; any disconnect ends the iteration (a clean end returns, anything else throws). */
  reconnect?: false | ReconnectPolicy;
  /** Reconnect after this long without a byte from the server (bookmarks count); default 300,000 ms. */
  idleTimeoutMs?: number;
  /**
   * Longest watch event line read, in bytes; default 16 MiB. A longer one ends the iteration with a
   * ResponseTooLargeError (`limit: 'maxLineBytes'`), the connection closed: a resume would replay it.
   */
  maxLineBytes?: number;
  /**
   * Get the initial state from the watch itself (`sendInitialEvents=true&resourceVersionMatch=NotOlderThan`,
   * Kubernetes ≥ 1.27 with WatchList) instead of a LIST. The initial events are collected until the
   * `k8s.io/initial-events-end` bookmark, then yielded as ADDED. Falls back to a LIST when the server
   * rejects the parameters (400/422).
   */
  sendInitialEvents?: boolean;
  /** Page size of the LISTs made by the watch; default 500, 0 for unpaged. */
  listLimit?: number;
  onConnect?: (info: WatchConnectInfo) => void;
  /** Called before every wait for a retry: after a lost or ended connection, or a failed request. */
  onDisconnect?: (info: WatchDisconnectInfo) => void;
  /** Called when a re-list after a 410 completed, just before the RESYNC is yielded. */
  onResync?: (info: WatchResyncInfo) => void;
  /**
   * Called once the initial state has been yielded in full (after the consumer took the last initial
   * ADDED); with `resourceVersion` given, at the first connection (`objects: 0`). Not called for RESYNCs.
   */
  onSynced?: (info: { resourceVersion: string; objects: number }) => void;
  /** Injectable for tests. Must resolve (or reject) promptly when `signal` aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Injectable for tests; default Math.random. */
  random?: () => number;
}

/** An in-stream `{"type":"ERROR"}` event. Never yielded: a 410 leads to a RESYNC, retriable codes to a reconnect, the rest is thrown. */
export class WatchError extends Error {
  override readonly name = 'WatchError';
  readonly status: KubernetesStatus;
  /** `Status.code` (0 when absent). */
  readonly code: number;
  /** `Status.reason` ('' when absent). */
  readonly reason: string;

  constructor(status: KubernetesStatus) {
    const code = typeof status.code === 'number' ? status.code : 0;
    const reason = typeof status.reason === 'string' ? status.reason : '';
    const message = typeof status.message === 'string' && status.message !== '' ? `: ${status.message}` : '';
    // The whole Status stays on `status`; the message gets a bounded excerpt with control characters escaped.
    super(`watch error ${code} ${excerpt(`${reason || 'Unknown'}${message}`)}`);
    this.status = status;
    this.code = code;
    this.reason = reason;
  }
}

/** No byte arrived for `idleTimeoutMs`: the connection is considered dead and is replaced. */
export class WatchIdleTimeoutError extends Error {
  override readonly name = 'WatchIdleTimeoutError';
  readonly idleTimeoutMs: number;

  constructor(idleTimeoutMs: number) {
    super(`watch stream idle for ${idleTimeoutMs} ms`);
    this.idleTimeoutMs = idleTimeoutMs;
  }
}

/** The server ended a watch cleanly where that is not expected; only thrown when no retry is left. */
export class WatchClosedError extends Error {
  override readonly name = 'WatchClosedError';
}

/** Annotation of the bookmark that ends the initial events of a `sendInitialEvents` watch. */
export const INITIAL_EVENTS_END_ANNOTATION: string = 'k8s.io/initial-events-end';

const DEFAULT_IDLE_TIMEOUT_MS = 300_000;
const DEFAULT_INITIAL_DELAY_MS = 200;
const DEFAULT_MAX_DELAY_MS = 30_000;
const DEFAULT_JITTER = 0.2;
/** A connection that ends cleanly sooner than this without delivering anything counts as a failure (no tight reconnect loop). */
const MIN_HEALTHY_CONNECTION_MS = 1_000;
/**
 * A connection that ends in an error resets the backoff only if it lasted this long: client-go's reflector
 * backoff manager (wait.NewExponentialBackoffManager(800ms, 30s, 2min, 2.0, 1.0)) forgets past failures only
 * after 2 minutes without one, however many events were delivered in between.
 */
const BACKOFF_RESET_MS = 120_000;
const WATCH_KEYS: ReadonlySet<string> = new Set([
  'watch',
  'allowWatchBookmarks',
  'resourceVersion',
  'resourceVersionMatch',
  'sendInitialEvents',
  'timeoutSeconds',
  'limit',
  'continue',
]);

/**
 * Watches the objects of `target` (a LIST path plus selectors). Without
 * `options.resourceVersion` it first lists (consistently, in pages) and
 * yields an ADDED per object, like client-go's reflector. It then yields
 * every change exactly once, in order per object, across reconnects:
 * ADDED/MODIFIED/DELETED/BOOKMARK as the server sends them, and a RESYNC
 * (the complete state, which replaces the consumer's) whenever history was
 * lost (410).
 *
 * - Reconnects (from the last resourceVersion seen, bookmarks included) after
 *   a lost connection, a clean server-side end, an idle stream, a 429
 *   (honouring Retry-After) or a 5xx, with capped exponential backoff and
 *   jitter; the failure count resets on every successful connection.
 * - Within one iteration, an event whose object resourceVersion is not newer
 *   than the last one yielded for that object (`namespace/name`) is dropped:
 *   resumes may replay the boundary event.
 * - Throws, ending the iteration: KubernetesApiError for non-retriable HTTP
 *   answers (400, 401, 403, 404, 422, …), WatchError for a non-retriable
 *   in-stream ERROR, WatchDecodeError for anything it cannot decode, and the
 *   last error as is once `maxRetries` consecutive failures are exceeded
 *   (a TypeError from fetch for network failures).
 * - `options.signal` aborting ends the iteration cleanly (done, no throw) and
 *   closes the connection; so does `break`.
 *
 * Each `[Symbol.asyncIterator]()` call starts an independent watch.
 */
export function watch<T extends KubeObjectLike>(client: Client, target: WatchTarget, options: WatchOptions = {}): AsyncIterable<WatchNotification<T>> {
  const config = resolveConfig(options);
  // A client that cannot stream would otherwise fail every connection attempt and be retried forever.
  sendOf(client);
  return {
    [Symbol.asyncIterator]: (): AsyncIterator<WatchNotification<T>> => flattenBatches(runWatch<T>(client, target, options, config), options.signal),
  };
}

/**
 * A chunk's events, handed over at once: the generator below yields one
 * batch per chunk read and this iterator hands the events out one by one
 * without resuming the generator for each, which a busy watch (hundreds of
 * thousands of events) notices. The generator resumes only once the consumer
 * has taken the whole batch, so everything it does after a yield still
 * happens after the consumer saw the events.
 */
class Batch<T> {
  constructor(readonly events: ReadonlyArray<WatchNotification<T>>) {}
}

function flattenBatches<T>(inner: AsyncGenerator<WatchNotification<T> | Batch<T>, void, undefined>, signal: AbortSignal | undefined): AsyncIterator<WatchNotification<T>> {
  let buffered: ReadonlyArray<WatchNotification<T>> = [];
  let next = 0;
  const pull = async (): Promise<IteratorResult<WatchNotification<T>>> => {
    for (;;) {
      const result = await inner.next();
      if (result.done === true) return { value: undefined, done: true };
      if (!(result.value instanceof Batch)) return { value: result.value, done: false };
      if (result.value.events.length === 0) continue;
      buffered = result.value.events;
      next = 1;
      return { value: buffered[0]!, done: false };
    }
  };
  return {
    next: (): Promise<IteratorResult<WatchNotification<T>>> => {
      if (next < buffered.length) {
        // Aborting ends the iteration at once, as it does between batches.
        if (signal?.aborted === true) {
          buffered = [];
          return inner.return(undefined).then(() => ({ value: undefined, done: true }));
        }
        return Promise.resolve({ value: buffered[next++]!, done: false });
      }
      buffered = [];
      return pull();
    },
    return: (): Promise<IteratorResult<WatchNotification<T>>> => {
      buffered = [];
      return inner.return(undefined).then(() => ({ value: undefined, done: true }));
    },
  };
}

interface Policy {
  maxRetries: number;
  initialDelayMs: number;
  maxDelayMs: number;
  jitter: number;
}

interface Config {
  policy: Policy | undefined;
  idleTimeoutMs: number;
  maxLineBytes: number;
  bookmarks: boolean;
  listLimit: number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
}

function resolveConfig(options: WatchOptions): Config {
  const reconnect = options.reconnect;
  let policy: Policy | undefined;
  if (reconnect !== false) {
    policy = {
      maxRetries: reconnect?.maxRetries ?? Number.POSITIVE_INFINITY,
      initialDelayMs: reconnect?.initialDelayMs ?? DEFAULT_INITIAL_DELAY_MS,
      maxDelayMs: reconnect?.maxDelayMs ?? DEFAULT_MAX_DELAY_MS,
      jitter: reconnect?.jitter ?? DEFAULT_JITTER,
    };
    if (!(policy.maxRetries >= 0)) throw new RangeError(`reconnect.maxRetries must be >= 0, got ${policy.maxRetries}`);
    if (!(policy.initialDelayMs >= 0) || !Number.isFinite(policy.initialDelayMs)) throw new RangeError(`reconnect.initialDelayMs must be a finite number >= 0, got ${policy.initialDelayMs}`);
    if (!(policy.maxDelayMs >= policy.initialDelayMs) || !Number.isFinite(policy.maxDelayMs)) throw new RangeError(`reconnect.maxDelayMs must be finite and >= initialDelayMs, got ${policy.maxDelayMs}`);
    if (!(policy.jitter >= 0 && policy.jitter <= 1)) throw new RangeError(`reconnect.jitter must be within 0..1, got ${policy.jitter}`);
  }
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  if (!(idleTimeoutMs > 0) || !Number.isFinite(idleTimeoutMs)) throw new RangeError(`idleTimeoutMs must be a finite number > 0, got ${idleTimeoutMs}`);
  const timeoutSeconds = options.timeoutSeconds;
  if (timeoutSeconds !== undefined && (!Number.isSafeInteger(timeoutSeconds) || timeoutSeconds < 0)) {
    throw new RangeError(`timeoutSeconds must be an integer >= 0, got ${timeoutSeconds}`);
  }
  return {
    policy,
    idleTimeoutMs,
    maxLineBytes: checkMaxLineBytes(options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES),
    bookmarks: options.allowWatchBookmarks ?? true,
    listLimit: pageLimit(options.listLimit),
    sleep: options.sleep ?? defaultSleep,
    random: options.random ?? Math.random,
  };
}

type Outcome =
  | { kind: 'end' }
  | { kind: 'error'; error: unknown }
  | { kind: 'gone'; error: unknown; reason: 'Expired' | 'Gone' };

async function* runWatch<T extends KubeObjectLike>(
  client: Client,
  target: WatchTarget,
  options: WatchOptions,
  config: Config,
): AsyncGenerator<WatchNotification<T> | Batch<T>, void, undefined> {
  const { policy, sleep } = config;
  const signal = options.signal;
  const seen = new Deduplicator();
  let rv = nonEmpty(options.resourceVersion);
  /** How the initial state (and the state after a 410) is obtained: LIST, or a sendInitialEvents watch. */
  let stateMode: 'list' | 'stream' = options.sendInitialEvents === true ? 'stream' : 'list';
  let needState = rv === undefined;
  let resyncReason: 'Expired' | 'Gone' | undefined;
  let synced = false;
  let failures = 0;
  let listedJustBefore = false;

  /** Delay before retrying after `error`, or throws it when it is not retriable or retries are exhausted. */
  const retryDelay = (error: unknown): number => {
    if (policy === undefined || !isRetriable(error)) throw error;
    return backoff(error);
  };
  /** The next capped exponential delay (with jitter, at least Retry-After); throws `error` once retries are exhausted. */
  const backoff = (error: unknown): number => {
    if (policy === undefined) throw error;
    failures++;
    if (failures > policy.maxRetries) throw error;
    const exponential = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** Math.min(failures - 1, 52));
    const delay = Math.round(exponential * (1 - policy.jitter * config.random()));
    const retryAfter = retryAfterMs(error);
    return retryAfter === undefined ? delay : Math.max(delay, retryAfter);
  };
  /** Waits `delayMs` after reporting; false when aborted meanwhile. */
  const pause = async (error: unknown, delayMs: number): Promise<boolean> => {
    options.onDisconnect?.({ error, attempt: failures, delayMs });
    if (delayMs <= 0) return !isAborted(signal);
    try {
      await sleep(delayMs, signal);
    } catch (sleepError) {
      if (isAborted(signal)) return false;
      throw sleepError;
    }
    return !isAborted(signal);
  };

  for (;;) {
    if (isAborted(signal)) return;

    // 1. The complete state by LIST, when needed.
    if (needState && stateMode === 'list') {
      let listed: { items: T[]; resourceVersion: string };
      try {
        listed = await listConsistent<T>(client, target, config.listLimit, signal);
      } catch (error) {
        if (isAborted(signal)) return;
        if (!(await pause(error, retryDelay(error)))) return;
        continue;
      }
      rv = nonEmpty(listed.resourceVersion);
      needState = false;
      listedJustBefore = true;
      if (resyncReason !== undefined) {
        yield* resync(listed.items, listed.resourceVersion, resyncReason);
        resyncReason = undefined;
      } else {
        seen.reset();
        for (const object of listed.items) {
          seen.accept(object);
          yield { type: 'ADDED', object };
          if (isAborted(signal)) return;
        }
        synced = true;
        options.onSynced?.({ resourceVersion: listed.resourceVersion, objects: listed.items.length });
      }
    }

    // 2. Connect.
    const streaming = needState && stateMode === 'stream';
    const params: Record<string, QueryValue> = { watch: true };
    if (config.bookmarks || streaming) params['allowWatchBookmarks'] = true;
    if (streaming) {
      params['sendInitialEvents'] = true;
      params['resourceVersionMatch'] = 'NotOlderThan';
      params['resourceVersion'] = '';
    } else {
      params['resourceVersion'] = rv;
      seen.forgetTombstonesBefore(rv);
    }
    if (options.timeoutSeconds !== undefined) params['timeoutSeconds'] = options.timeoutSeconds;
    copyQuery(params, target.query, WATCH_KEYS);

    let response: Response;
    try {
      response = await stream(client, { method: 'GET', path: target.path, query: encodeQuery(params) }, { signal });
    } catch (error) {
      if (isAborted(signal)) return;
      const gone = goneReason(error);
      if (gone !== undefined && policy !== undefined) {
        // Relist at once, unless the resourceVersion just came from a LIST: then back off like any failure.
        const delay = listedJustBefore ? retryDelay(error) : 0;
        listedJustBefore = false;
        needState = true;
        resyncReason = gone;
        if (!(await pause(error, delay))) return;
        continue;
      }
      if (streaming && isKubernetesApiError(error) && (error.status === 400 || error.status === 422)) {
        // No WatchList on this server: get the state by LIST instead.
        stateMode = 'list';
        continue;
      }
      listedJustBefore = false;
      if (!(await pause(error, retryDelay(error)))) return;
      continue;
    }
    const attempt = failures;
    options.onConnect?.({ resourceVersion: streaming ? undefined : rv, attempt });
    if (!synced && !needState) {
      synced = true;
      options.onSynced?.({ resourceVersion: rv ?? '', objects: 0 });
    }

    // 3. Read until the stream ends, fails or asks for a re-list.
    // Starting at resourceVersion "0" (or none) the server first sends synthetic ADDED events in no particular order: only a
    // stream that starts at a concrete resourceVersion is ordered, and only there does the watermark decide.
    const ordered = !streaming && rv !== undefined && rv !== '' && rv !== '0';
    const connectedAt = Date.now();
    let delivered = 0;
    let outcome: Outcome = { kind: 'end' };
    const body = response.body;
    if (body !== null) {
      const reader = body.getReader();
      const decoder = new NdjsonDecoder(config.maxLineBytes);
      let idleFired = false;
      const watchdog = new IdleWatchdog(config.idleTimeoutMs, () => {
        idleFired = true;
        reader.cancel(new WatchIdleTimeoutError(config.idleTimeoutMs)).catch(ignore);
      });
      /** Initial events of a streaming (sendInitialEvents) connection, held until the initial-events-end bookmark. */
      const initial = streaming ? new Map<string, T>() : undefined;
      const unkeyed: T[] = [];
      try {
        reading: for (;;) {
          let chunk: ReadableStreamReadResult<Uint8Array>;
          watchdog.arm();
          try {
            chunk = await reader.read();
          } catch (error) {
            if (isAborted(signal)) return;
            outcome = { kind: 'error', error };
            break;
          } finally {
            watchdog.disarm();
          }
          const values: unknown[] = [];
          let decodeError: unknown;
          try {
            if (chunk.done) {
              if (idleFired) {
                outcome = { kind: 'error', error: new WatchIdleTimeoutError(config.idleTimeoutMs) };
                break;
              }
              decoder.end(values);
            } else {
              decoder.write(chunk.value, values);
            }
          } catch (error) {
            decodeError = error;
          }
          // This chunk's events, handed over together once the chunk is processed (see flattenBatches).
          const batch: Array<WatchNotification<T>> = [];
          for (let i = 0; i < values.length; i++) {
            let event: RawEvent;
            try {
              event = toEvent(values[i]);
            } catch (shapeError) {
              if (batch.length > 0) yield new Batch(batch);
              throw shapeError;
            }
            const type = event.type;
            if (type === 'ERROR') {
              if (batch.length > 0) yield new Batch(batch);
              const error = new WatchError(event.object as KubernetesStatus);
              const gone = goneReason(error);
              outcome = gone === undefined ? { kind: 'error', error } : { kind: 'gone', error, reason: gone };
              break reading;
            }
            delivered++;
            const object = event.object as T;
            const objectRv = object.metadata?.resourceVersion;
            if (initial !== undefined && needState) {
              if (type === 'BOOKMARK') {
                if (!isInitialEventsEnd(object)) continue;
                // The initial state is complete: hand it out, then go on as an ordinary watch from the bookmark.
                rv = nonEmpty(objectRv) ?? rv;
                needState = false;
                const objects = [...unkeyed, ...initial.values()];
                initial.clear();
                unkeyed.length = 0;
                if (resyncReason !== undefined) {
                  yield* resync(objects, rv ?? '', resyncReason);
                  resyncReason = undefined;
                } else {
                  seen.reset();
                  for (const added of objects) {
                    seen.accept(added);
                    yield { type: 'ADDED', object: added };
                    if (isAborted(signal)) return;
                  }
                  synced = true;
                  options.onSynced?.({ resourceVersion: rv ?? '', objects: objects.length });
                }
                yield { type, object };
                if (isAborted(signal)) return;
                continue;
              }
              const key = keyOf(object);
              if (key === undefined) unkeyed.push(object);
              else if (type === 'DELETED') initial.delete(key);
              else initial.set(key, object);
              continue;
            }
            if (type === 'BOOKMARK') {
              if (objectRv !== undefined && (rv === undefined || isNewerResourceVersion(objectRv, rv))) rv = objectRv;
              batch.push(event as WatchEvent<T>);
              continue;
            }
            if (objectRv !== undefined) {
              if (ordered && rv !== undefined && isDecimal(objectRv) && isDecimal(rv)) {
                // Fast path: from a concrete resourceVersion, a watch stream delivers events in resourceVersion
                // order, so anything at or below the highest one seen is a replay from a resume boundary.
                if (!isNewerDecimal(objectRv, rv)) continue;
                rv = objectRv;
              } else {
                // An unordered stream (synthetic ADDED events, starting at resourceVersion "0") only moves the resume point by BOOKMARK:
                // resuming from the highest version seen would skip objects whose older events had not yet arrived.
                if (ordered && (rv === undefined || isNewerResourceVersion(objectRv, rv))) rv = objectRv;
                if (!seen.accept(object, type === 'DELETED')) continue;
              }
            }
            // The decoded line is already a checked { type, object } event: handed out as it is, no copy.
            batch.push(event as WatchEvent<T>);
          }
          if (batch.length > 0) {
            yield new Batch(batch);
            if (isAborted(signal)) return;
          }
          if (decodeError !== undefined) throw decodeError;
          if (chunk.done) break;
        }
      } finally {
        watchdog.clear();
        await reader.cancel().catch(ignore);
      }
    }

    // 4. Decide what comes next. Only a connection that proved itself resets the backoff: one that fails straight
    // after its 200 must not retry at full speed forever, nor one that delivers an event and then an in-stream ERROR
    // (or is cut) every time. A clean end proves a connection that delivered events or lasted; an error ends it as a
    // failure unless it lasted as long as client-go's backoff reset.
    if (isAborted(signal)) return;
    const lasted = Date.now() - connectedAt;
    const healthy = outcome.kind === 'error' ? lasted >= BACKOFF_RESET_MS : delivered > 0 || lasted >= MIN_HEALTHY_CONNECTION_MS;
    const relistedJustBefore = listedJustBefore;
    if (healthy) {
      failures = 0;
      listedJustBefore = false;
    }
    if (outcome.kind === 'gone') {
      if (policy === undefined) throw outcome.error;
      needState = true;
      resyncReason = outcome.reason;
      if (stateMode === 'stream') rv = undefined;
      // Re-list at once after a healthy watch; a 410 straight after a fresh LIST backs off like any failure.
      if (!(await pause(outcome.error, healthy && !relistedJustBefore ? 0 : backoff(outcome.error)))) return;
      continue;
    }
    listedJustBefore = false;
    if (outcome.kind === 'end') {
      // A streaming connection that ends before the initial-events-end bookmark is simply started over (nothing was yielded).
      if (policy === undefined) {
        if (needState) throw new WatchClosedError('the watch ended before the initial state was complete');
        return;
      }
      const delay = healthy ? 0 : retryDelay(new WatchClosedError('the server ended the watch at once, without sending anything'));
      if (!(await pause(undefined, delay))) return;
      continue;
    }
    if (!(await pause(outcome.error, retryDelay(outcome.error)))) return;
  }

  /** Replaces the deduplication state and yields the RESYNC. */
  async function* resync(objects: T[], resourceVersion: string, reason: 'Expired' | 'Gone'): AsyncGenerator<WatchNotification<T>, void, undefined> {
    seen.reset();
    for (const object of objects) seen.accept(object);
    options.onResync?.({ reason, resourceVersion, objects: objects.length });
    yield { type: 'RESYNC', objects, resourceVersion, reason };
  }
}

/** A decoded watch line, checked for the shape every watch event has. */
interface RawEvent {
  type: WatchEventType | 'ERROR';
  object: unknown;
}

const EVENT_TYPES: ReadonlySet<string> = new Set(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR']);

function toEvent(value: unknown): RawEvent {
  if (typeof value === 'object' && value !== null) {
    const type: unknown = (value as { type?: unknown }).type;
    const object: unknown = (value as { object?: unknown }).object;
    if (typeof type === 'string' && EVENT_TYPES.has(type) && typeof object === 'object' && object !== null) {
      return value as RawEvent;
    }
  }
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return failShape(text);
}

function failShape(text: string): never {
  throw new WatchDecodeError({ text, line: 0, truncated: false, problem: 'not a watch event ({"type":…,"object":{…}})' });
}

function isInitialEventsEnd(object: unknown): boolean {
  const metadata: unknown = (object as { metadata?: unknown }).metadata;
  if (typeof metadata !== 'object' || metadata === null) return false;
  const annotations: unknown = (metadata as { annotations?: unknown }).annotations;
  if (typeof annotations !== 'object' || annotations === null) return false;
  return (annotations as Record<string, unknown>)[INITIAL_EVENTS_END_ANNOTATION] === 'true';
}

/** 'Expired'/'Gone' for a 410 (HTTP or in-stream), else undefined. */
function goneReason(error: unknown): 'Expired' | 'Gone' | undefined {
  let code: number;
  let reason: string;
  if (error instanceof WatchError) {
    code = error.code;
    reason = error.reason;
  } else if (isKubernetesApiError(error)) {
    code = error.status;
    reason = error.reason;
  } else {
    return undefined;
  }
  if (code !== 410 && reason !== 'Expired' && reason !== 'Gone') return undefined;
  return reason === 'Gone' ? 'Gone' : 'Expired';
}

const RETRIABLE_STATUS: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);
const RETRIABLE_REASONS: ReadonlySet<string> = new Set(['TooManyRequests', 'ServerTimeout', 'Timeout', 'InternalError', 'ServiceUnavailable']);

/**
 * 410 (by re-listing), 429 and 5xx answers, dropped/idle/cut connections, client-side timeouts and
 * network failures are retried; other API errors (401, 403, 404, 400, 422, …),
 * decode errors and unknown in-stream errors are not.
 */
function isRetriable(error: unknown): boolean {
  // A resume would replay the same line.
  if (error instanceof WatchDecodeError || error instanceof ResponseTooLargeError) return false;
  // A 410 is answered by a re-list, which is a retry of its own.
  if (goneReason(error) !== undefined) return true;
  if (error instanceof WatchError) return RETRIABLE_STATUS.has(error.code) || RETRIABLE_REASONS.has(error.reason);
  if (isKubernetesApiError(error)) return RETRIABLE_STATUS.has(error.status);
  if (error instanceof WatchIdleTimeoutError || error instanceof WatchClosedError || error instanceof RequestTimeoutError) return true;
  // A body that is not a list (proxy error page) is not going to fix itself.
  if (error instanceof TypeError && error.message === 'LIST response is not a list object') return false;
  // fetch and body-read failures: connection refused/reset, socket closed mid-stream ("terminated"), DNS, TLS.
  return true;
}

function retryAfterMs(error: unknown): number | undefined {
  let seconds: number | undefined;
  if (isKubernetesApiError(error)) seconds = error.retryAfterSeconds;
  else if (error instanceof WatchError) seconds = error.status.details?.retryAfterSeconds;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined;
}


function ignore(): void {}


/** A function, not `signal?.aborted`, so control-flow narrowing does not assume it cannot change across awaits. */
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal !== undefined && signal.aborted;
}

/**
 * Per-object last yielded resourceVersion, so an event replayed at a resume
 * boundary is never yielded twice. Deleted objects are remembered until the
 * watch resumes from past their deletion, so the map does not grow with churn.
 */
class Deduplicator {
  private readonly live = new Map<string, string>();
  private readonly tombstones = new Map<string, string>();

  reset(): void {
    this.live.clear();
    this.tombstones.clear();
  }

  /** Records the object; false when it is not newer than what was yielded for its key. */
  accept(object: KubeObjectLike, deleted = false): boolean {
    const rv = object.metadata?.resourceVersion;
    const key = keyOf(object);
    if (rv === undefined || key === undefined) return true;
    const last = this.live.get(key) ?? this.tombstones.get(key);
    if (last !== undefined && !isNewerResourceVersion(rv, last)) return false;
    if (deleted) {
      this.live.delete(key);
      this.tombstones.set(key, rv);
    } else {
      this.tombstones.delete(key);
      this.live.set(key, rv);
    }
    return true;
  }

  /** A watch from `rv` cannot replay a deletion older than `rv`. */
  forgetTombstonesBefore(rv: string | undefined): void {
    if (rv === undefined || this.tombstones.size === 0) return;
    for (const [key, deletedAt] of this.tombstones) {
      // Only decimal resourceVersions are ordered; opaque ones are kept (compared for equality only).
      if (isDecimal(rv) && isDecimal(deletedAt) && isNewerResourceVersion(rv, deletedAt)) this.tombstones.delete(key);
    }
  }
}

/**
 * Fires when a read has been pending for `ms`. One timer per period rather
 * than one per chunk: arm/disarm only record timestamps. Time spent while the
 * consumer holds an event (no read pending) does not count as idle.
 */
class IdleWatchdog {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private since: number | undefined;
  private stopped = false;

  constructor(
    private readonly ms: number,
    private readonly fire: () => void,
  ) {}

  arm(): void {
    this.since = Date.now();
    if (this.timer === undefined && !this.stopped) this.timer = setTimeout(this.check, this.ms);
  }

  disarm(): void {
    this.since = undefined;
  }

  clear(): void {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private readonly check = (): void => {
    this.timer = undefined;
    const since = this.since;
    if (since === undefined || this.stopped) return;
    const elapsed = Date.now() - since;
    if (elapsed >= this.ms) {
      this.stopped = true;
      this.fire();
    } else {
      this.timer = setTimeout(this.check, this.ms - elapsed);
    }
  };
}

/** setTimeout as a promise that settles early (resolves) when `signal` aborts, leaving no timer or listener behind. */
function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (isAborted(signal)) {
      resolve();
      return;
    }
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
