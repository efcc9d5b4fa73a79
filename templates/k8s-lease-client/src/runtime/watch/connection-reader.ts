/**
 * One watch connection, from the request to the end of its stream: the bytes become lines (./ndjson.ts),
 * the lines events (./event-shape.ts), and what each event means is decided by ./line-decision.ts; this
 * reader does the I/O, keeps the counts and carries the decisions out. The machine (./state-holder.ts) hears of
 * the connection's start and end, and of the end of a sendInitialEvents connection's initial events.
 */

import type { KubernetesStatus } from '../errors.js';
import type { QueryValue } from '../query.js';
import { encodeQuery } from '../query.js';
import { stream } from '../stream.js';
import type { Client } from '../transport.js';
import { isAborted } from './abort.js';
import { Batch } from './batch.js';
import type { Deduplicator } from './deduplicator.js';
import { WatchError, WatchIdleTimeoutError } from './errors.js';
import { toEvent } from './event-shape.js';
import type { RawEvent, WatchEvent, WatchNotification } from './event-shape.js';
import { handOut } from './hand-out.js';
import { IdleWatchdog } from './idle-watchdog.js';
import { decideLine, initialLineState } from './line-decision.js';
import { copyQuery } from './list-all.js';
import type { WatchTarget } from './list-all.js';
import { FINISH } from './state-holder.js';
import type { Machine } from './state-holder.js';
import { NdjsonDecoder } from './ndjson.js';
import { keyOf } from './resource-version.js';
import type { KubeObjectLike } from './resource-version.js';
import type { WatchEffect } from './state.js';
import type { WatchConfig } from './watch-config.js';
import type { WatchOptions } from './watch-options.js';

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

/** What one iteration of a watch reads its connections with: what it was asked, and what it keeps across them. */
export interface ConnectionContext<T> {
  readonly client: Client;
  readonly target: WatchTarget;
  readonly options: WatchOptions;
  readonly config: WatchConfig;
  readonly machine: Machine<T>;
  readonly seen: Deduplicator;
}

/**
 * One watch connection, from the request to the end of its stream: yields its events and returns the effect
 * the machine answers its end with (`finish` when aborted). A sendInitialEvents connection collects the
 * initial events until the initial-events-end bookmark, has the machine deliver them, and reads on as an
 * ordinary watch.
 */
export async function* readConnection<T extends KubeObjectLike>({
  client,
  target,
  options,
  config,
  machine,
  seen,
}: ConnectionContext<T>): AsyncGenerator<WatchNotification<T> | Batch<T>, WatchEffect<T> | undefined, undefined> {
  const signal = options.signal;
  const state = machine.state;
  const streaming = state.kind === 'sync';
  const rv = state.rv;
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

  const line = initialLineState(rv, streaming);
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
    const initial = new Map<string, T>();
    const unkeyed: T[] = [];
    /**
     * The next chunk is asked for before this one is decoded: with a read pending, fetch keeps taking bytes off the
     * socket while the events are parsed and handed out. Without one, undici's body stream (high-water mark 0) stops
     * reading at every chunk and the server stalls on a full socket until the next read. At most one chunk waits.
     */
    let ahead = readAhead(reader);
    try {
      reading: for (;;) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        watchdog.arm();
        try {
          chunk = await ahead;
          if (!chunk.done) ahead = readAhead(reader);
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
        // This chunk's events, handed over together once the chunk is processed (see ./batch.ts).
        const batch: Array<WatchNotification<T>> = [];
        for (let i = 0; i < values.length; i++) {
          let event: RawEvent;
          try {
            event = toEvent(values[i]);
          } catch (shapeError) {
            if (batch.length > 0) yield new Batch(batch);
            throw shapeError;
          }
          const decision = decideLine(line, event);
          switch (decision.action) {
            case 'fail':
              if (batch.length > 0) yield new Batch(batch);
              failed = true;
              failure = new WatchError(event.object as KubernetesStatus);
              break reading;
            case 'drop':
              continue;
            case 'collect': {
              progressed++;
              const object = event.object as T;
              const key = keyOf(object);
              if (key === undefined) unkeyed.push(object);
              else if (event.type === 'DELETED') initial.delete(key);
              else initial.set(key, object);
              continue;
            }
            case 'endInitialEvents': {
              progressed++;
              // The initial state is complete: hand it out, then go on as an ordinary watch from the bookmark.
              let effect = machine.feed({
                kind: 'initialEventsEnd',
                objects: [...unkeyed, ...initial.values()],
                resourceVersion: resourceVersionOf<T>(event),
              });
              // This connection may last hours: it must not keep the initial objects once the consumer has them.
              initial.clear();
              unkeyed.length = 0;
              line.collecting = false;
              line.rv = machine.state.rv;
              if (effect?.kind === 'deliver') {
                // The rest of this connection is read as an unordered stream (see LineState.ordered), where the map decides.
                yield handOut(effect, false, seen, options);
                if (isAborted(signal)) return FINISH;
                if (effect.reason === undefined)
                  options.onSynced?.({ resourceVersion: effect.resourceVersion, objects: effect.objects.length });
                effect = undefined;
              }
              yield { type: 'BOOKMARK', object: event.object as T };
              if (isAborted(signal)) return FINISH;
              continue;
            }
            case 'handOutIfUnseen':
              if (decision.advance) line.rv = resourceVersionOf<T>(event);
              if (!seen.accept(event.object as T, event.type === 'DELETED')) continue;
              break;
            case 'handOut':
              if (decision.advance) line.rv = resourceVersionOf<T>(event);
              break;
          }
          if (decision.progress) progressed++;
          // The decoded line is already a checked { type, object } event: handed out as it is, no copy.
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
  return machine.feed({ kind: 'closed', connection, error: failure, resourceVersion: line.rv });
}

/** The reader's next chunk; a failure is handled where the read is awaited, not reported as unhandled meanwhile. */
function readAhead(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<ReadableStreamReadResult<Uint8Array>> {
  const next = reader.read();
  next.catch(ignore);
  return next;
}

function resourceVersionOf<T extends KubeObjectLike>(event: RawEvent): string | undefined {
  return (event.object as T).metadata?.resourceVersion;
}

function ignore(): void {}
