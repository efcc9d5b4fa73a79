/**
 * A watch that loses nothing: list (or stream the initial state), then watch
 * from the resourceVersion reached, resuming after every disconnect from the
 * last resourceVersion seen, re-listing after a 410 and telling the consumer
 * so (RESYNC), and failing loudly instead of skipping anything it cannot
 * decode.
 */

import type { KubernetesStatus } from '../errors.js';
import type { QueryValue } from '../query.js';
import { encodeQuery } from '../query.js';
import { sendOf, stream } from '../stream.js';
import type { Client } from '../transport.js';
import { copyQuery, listConsistent, pageLimit } from './list-all.js';
import type { WatchTarget } from './list-all.js';
import { BackoffPolicy, backoffSettings } from './backoff.js';
import type { BackoffSettings } from './backoff.js';
import { WatchError, WatchIdleTimeoutError } from './errors.js';
import { checkMaxLineBytes, DEFAULT_MAX_LINE_BYTES, NdjsonDecoder } from './ndjson.js';
import { isDecimal, isNewerDecimal, isNewerResourceVersion, keyOf, nonEmpty } from './resource-version.js';
import type { KubeObjectLike } from './resource-version.js';
import { Deduplicator } from './deduplicator.js';
import { isInitialEventsEnd, toEvent } from './event-shape.js';
import type { RawEvent, ResyncEvent, WatchEvent, WatchNotification } from './event-shape.js';
import { IdleWatchdog } from './idle-watchdog.js';
import { initialState, step } from './state.js';
import type { WatchEffect, WatchInput, WatchState } from './state.js';
import type { WatchOptions } from './watch-options.js';

const DEFAULT_IDLE_TIMEOUT_MS = 300_000;
/** The watch's stopped, aborted end. */
const FINISH: WatchEffect<never> = { kind: 'finish' };
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
 *   jitter; the failure count resets once a connection proves itself (./backoff.ts).
 * - Within one iteration, an event whose object resourceVersion is not newer
 *   than the last one yielded for that object (`namespace/name`) is dropped:
 *   resumes may replay the boundary event.
 * - Throws, ending the iteration: KubernetesApiError for non-retriable HTTP
 *   answers (400, 401, 403, 404, 422, …), WatchError for a non-retriable
 *   in-stream ERROR, WatchDecodeError for anything it cannot decode, and the
 *   last error as is once `maxRetries` consecutive failures are exceeded
 *   (a ConnectionError, a TypeError, for network failures).
 * - `options.signal` aborting ends the iteration cleanly (done, no throw) and
 *   closes the connection; so does `break`.
 *
 * Each `[Symbol.asyncIterator]()` call starts an independent watch.
 */
export function watch<T extends KubeObjectLike>(
  client: Client,
  target: WatchTarget,
  options: WatchOptions = {},
): AsyncIterable<WatchNotification<T>> {
  const config = resolveConfig(options);
  // A client that cannot stream would otherwise fail every connection attempt and be retried forever.
  sendOf(client);
  return {
    [Symbol.asyncIterator]: (): AsyncIterator<WatchNotification<T>> =>
      flattenBatches(runWatch<T>(client, target, options, config), options.signal),
  };
}

/**
 * The same watch as `watch()`, as the driver produces it: a chunk's events (and an initial state) come as
 * one Batch, other notifications one by one. For consumers that take a batch's events synchronously (the
 * informer), which then pay no promise and no iterator step per event; they must stop taking a batch's
 * events once `options.signal` aborts, as `watch()` does.
 */
export function watchBatches<T extends KubeObjectLike>(
  client: Client,
  target: WatchTarget,
  options: WatchOptions = {},
): AsyncIterable<WatchNotification<T> | Batch<T>> {
  const config = resolveConfig(options);
  sendOf(client);
  return {
    [Symbol.asyncIterator]: (): AsyncIterator<WatchNotification<T> | Batch<T>> =>
      runWatch<T>(client, target, options, config),
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
export class Batch<T> {
  constructor(readonly events: ReadonlyArray<WatchNotification<T>>) {}
}

function flattenBatches<T>(
  inner: AsyncGenerator<WatchNotification<T> | Batch<T>, void, undefined>,
  signal: AbortSignal | undefined,
): AsyncIterator<WatchNotification<T>> {
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

interface Config {
  /** undefined: `reconnect: false`, a single connection. */
  backoff: BackoffSettings | undefined;
  idleTimeoutMs: number;
  maxLineBytes: number;
  bookmarks: boolean;
  listLimit: number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
}

function resolveConfig(options: WatchOptions): Config {
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

/** The state machine of one iteration: its state, its backoff, and the one way to move it (./state.ts's `step`). */
class Machine<T> {
  constructor(
    public state: WatchState,
    readonly backoff: BackoffPolicy | undefined,
  ) {}

  feed(input: WatchInput<T>): WatchEffect<T> | undefined {
    const { state, effect } = step(this.state, input, this.backoff);
    this.state = state;
    return effect;
  }
}

/**
 * The driver: does what the state asks (LIST, or connect and read a watch), feeds the outcome to the
 * machine and carries out the effect it answers with. Everything that decides lives in ./state.ts.
 */
async function* runWatch<T extends KubeObjectLike>(
  client: Client,
  target: WatchTarget,
  options: WatchOptions,
  config: Config,
): AsyncGenerator<WatchNotification<T> | Batch<T>, void, undefined> {
  const signal = options.signal;
  const seen = new Deduplicator();
  const machine = new Machine<T>(
    initialState(nonEmpty(options.resourceVersion), options.sendInitialEvents === true),
    config.backoff === undefined ? undefined : new BackoffPolicy(config.backoff, config.random),
  );

  for (;;) {
    if (isAborted(signal)) return;
    const state = machine.state;
    let effect: WatchEffect<T> | undefined;
    if (state.kind === 'sync' && state.via === 'list') {
      effect = await list();
      if (effect === FINISH) return;
    } else {
      effect = yield* readWatch();
    }
    if (effect === undefined) continue;
    switch (effect.kind) {
      case 'deliver':
        yield handOut(effect, true);
        if (isAborted(signal)) return;
        if (effect.reason === undefined)
          options.onSynced?.({ resourceVersion: effect.resourceVersion, objects: effect.objects.length });
        // This generator lives as long as the watch: a reference to the listed objects must not outlive their hand-out.
        effect = undefined;
        break;
      case 'wait':
        if (!(await pause(effect))) return;
        break;
      case 'fail':
        throw effect.error;
      case 'finish':
        return;
      case 'synced':
        options.onSynced?.({ resourceVersion: effect.resourceVersion, objects: 0 });
        break;
    }
  }

  /** Waits after reporting the disconnect; false when aborted meanwhile. */
  async function pause({
    error,
    attempt,
    delayMs,
  }: {
    error: unknown;
    attempt: number;
    delayMs: number;
  }): Promise<boolean> {
    options.onDisconnect?.({ error, attempt, delayMs });
    if (delayMs <= 0) return !isAborted(signal);
    try {
      await config.sleep(delayMs, signal);
    } catch (sleepError) {
      if (isAborted(signal)) return false;
      throw sleepError;
    }
    return !isAborted(signal);
  }

  /** One consistent LIST, fed to the machine (in a frame of its own, so nothing of the list stays in the watch's); FINISH when aborted. */
  async function list(): Promise<WatchEffect<T> | undefined> {
    try {
      const listed = await listConsistent<T>(client, target, config.listLimit, signal);
      return machine.feed({ kind: 'listed', objects: listed.items, resourceVersion: listed.resourceVersion });
    } catch (error) {
      if (isAborted(signal)) return FINISH;
      return machine.feed({ kind: 'failed', error });
    }
  }

  /**
   * A complete state as what is yielded for it, the one path for every sync (LIST or initial events, at the
   * start or after a 410): the deduplication state is replaced, then one batch of ADDED (the caller calls
   * onSynced once it was taken), or onResync and the RESYNC. `watermarked`: the next events are read from a new
   * connection at `resourceVersion`.
   */
  function handOut(
    { objects, resourceVersion, reason }: Extract<WatchEffect<T>, { kind: 'deliver' }>,
    watermarked: boolean,
  ): Batch<T> | ResyncEvent<T> {
    seen.replace(objects, watermarked && isOrderedFrom(resourceVersion));
    if (reason !== undefined) {
      options.onResync?.({ reason, resourceVersion, objects: objects.length });
      return { type: 'RESYNC', objects, resourceVersion, reason };
    }
    // One batch rather than a yield per object: a generator resume per object is most of a large sync's own cost.
    const events = new Array<WatchNotification<T>>(objects.length);
    for (let i = 0; i < objects.length; i++) events[i] = { type: 'ADDED', object: objects[i]! };
    return new Batch(events);
  }

  /**
   * One watch connection, from the request to the end of its stream: yields its events and returns the effect
   * the machine answers its end with (`finish` when aborted). A sendInitialEvents connection collects the
   * initial events until the initial-events-end bookmark, has the machine deliver them, and reads on as an
   * ordinary watch.
   */
  async function* readWatch(): AsyncGenerator<WatchNotification<T> | Batch<T>, WatchEffect<T> | undefined, undefined> {
    const state = machine.state;
    const streaming = state.kind === 'sync';
    let rv = state.rv;
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
      if (isAborted(signal)) return FINISH;
      return machine.feed({ kind: 'failed', error });
    }
    options.onConnect?.({ resourceVersion: streaming ? undefined : rv, attempt: machine.backoff?.failures ?? 0 });
    const syncedEffect = machine.feed({ kind: 'connected' });
    if (syncedEffect?.kind === 'synced')
      options.onSynced?.({ resourceVersion: syncedEffect.resourceVersion, objects: 0 });

    // Starting at resourceVersion "0" (or none) the server first sends synthetic ADDED events in no particular order: only a
    // stream that starts at a concrete resourceVersion is ordered, and only there does the watermark decide.
    const ordered = !streaming && rv !== undefined && rv !== '' && rv !== '0';
    const connectedAt = Date.now();
    /**
     * What the connection brought that is new: events handed out, initial events collected, bookmarks that moved the
     * resume point. Replays dropped as already seen do not count: a server that sends only those and ends the
     * connection makes no progress, and must not be reconnected to at full speed.
     */
    let progressed = 0;
    let failed = false;
    let failure: unknown;
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
      let initial = streaming ? new Map<string, T>() : undefined;
      const unkeyed: T[] = [];
      try {
        reading: for (;;) {
          let chunk: ReadableStreamReadResult<Uint8Array>;
          watchdog.arm();
          try {
            chunk = await reader.read();
          } catch (error) {
            if (isAborted(signal)) return FINISH;
            failed = true;
            failure = error;
            break;
          } finally {
            watchdog.disarm();
          }
          const values: unknown[] = [];
          let decodeError: unknown;
          try {
            if (chunk.done) {
              if (idleFired) {
                failed = true;
                failure = new WatchIdleTimeoutError(config.idleTimeoutMs);
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
              failed = true;
              failure = new WatchError(event.object as KubernetesStatus);
              break reading;
            }
            const object = event.object as T;
            const objectRv = object.metadata?.resourceVersion;
            if (initial !== undefined) {
              if (type === 'BOOKMARK') {
                if (!isInitialEventsEnd(object)) continue;
                progressed++;
                // The initial state is complete: hand it out, then go on as an ordinary watch from the bookmark.
                let effect = machine.feed({
                  kind: 'initialEventsEnd',
                  objects: [...unkeyed, ...initial.values()],
                  resourceVersion: objectRv,
                });
                initial = undefined;
                unkeyed.length = 0;
                rv = machine.state.rv;
                if (effect?.kind === 'deliver') {
                  // The rest of this connection is read as an unordered stream (see `ordered`), where the map decides.
                  yield handOut(effect, false);
                  if (isAborted(signal)) return FINISH;
                  if (effect.reason === undefined)
                    options.onSynced?.({ resourceVersion: effect.resourceVersion, objects: effect.objects.length });
                  // This connection may last hours: it must not keep the initial objects once the consumer has them.
                  effect = undefined;
                }
                yield { type, object };
                if (isAborted(signal)) return FINISH;
                continue;
              }
              const key = keyOf(object);
              progressed++;
              if (key === undefined) unkeyed.push(object);
              else if (type === 'DELETED') initial.delete(key);
              else initial.set(key, object);
              continue;
            }
            if (type === 'BOOKMARK') {
              if (objectRv !== undefined && (rv === undefined || isNewerResourceVersion(objectRv, rv))) {
                rv = objectRv;
                progressed++;
              }
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
            progressed++;
            batch.push(event as WatchEvent<T>);
          }
          if (batch.length > 0) {
            yield new Batch(batch);
            if (isAborted(signal)) return FINISH;
          }
          if (decodeError !== undefined) throw decodeError;
          if (chunk.done) break;
        }
      } finally {
        watchdog.clear();
        await reader.cancel().catch(ignore);
      }
    }
    if (isAborted(signal)) return FINISH;
    const connection = { failed, lastedMs: Date.now() - connectedAt, delivered: progressed };
    return machine.feed({ kind: 'closed', connection, error: failure, resourceVersion: rv });
  }
}

function ignore(): void {}

/** A watch from `rv` replays in resourceVersion order and its decimal resourceVersions are checked by watermark (see readWatch). */
function isOrderedFrom(rv: string): boolean {
  return rv !== '' && rv !== '0' && isDecimal(rv);
}

/** A function, not `signal?.aborted`, so control-flow narrowing does not assume it cannot change across awaits. */
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
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
