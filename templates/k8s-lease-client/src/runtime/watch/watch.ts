/**
 * A watch that loses nothing: list (or stream the initial state), then watch
 * from the resourceVersion reached, resuming after every disconnect from the
 * last resourceVersion seen, re-listing after a 410 and telling the consumer
 * so (RESYNC), and failing loudly instead of skipping anything it cannot
 * decode.
 */

import { sendOf } from '../stream.js';
import type { Client } from '../transport.js';
import { isAborted } from './abort.js';
import { BackoffPolicy } from './backoff.js';
import { flattenBatches } from './batch.js';
import type { Batch } from './batch.js';
import { readConnection } from './connection-reader.js';
import { Deduplicator } from './deduplicator.js';
import type { WatchNotification } from './event-shape.js';
import { handOut } from './hand-out.js';
import { listConsistent } from './list-all.js';
import type { WatchTarget } from './list-all.js';
import { FINISH, Machine } from './state-holder.js';
import { nonEmpty } from './resource-version.js';
import type { KubeObjectLike } from './resource-version.js';
import { initialState } from './state.js';
import type { WatchEffect } from './state.js';
import { resolveConfig } from './watch-config.js';
import type { WatchConfig } from './watch-config.js';
import type { WatchOptions } from './watch-options.js';

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
 *   jitter; the failure count resets once a connection proves itself (it ended
 *   cleanly after delivering a new event or lasting 1 s, or failed only after 2 minutes).
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
 * The driver: does what the state asks (LIST, or connect and read a watch), feeds the outcome to the
 * machine and carries out the effect it answers with. Everything that decides lives in ./state.ts (and, line
 * by line, in ./line-decision.ts).
 */
async function* runWatch<T extends KubeObjectLike>(
  client: Client,
  target: WatchTarget,
  options: WatchOptions,
  config: WatchConfig,
): AsyncGenerator<WatchNotification<T> | Batch<T>, void, undefined> {
  const signal = options.signal;
  const seen = new Deduplicator();
  const machine = new Machine<T>(
    initialState(nonEmpty(options.resourceVersion), options.sendInitialEvents === true),
    config.backoff === undefined ? undefined : new BackoffPolicy(config.backoff, config.random),
  );
  const connections = { client, target, options, config, machine, seen };

  for (;;) {
    if (isAborted(signal)) return;
    const state = machine.state;
    let effect: WatchEffect<T> | undefined;
    if (state.kind === 'sync' && state.via === 'list') {
      effect = await list();
      if (effect === FINISH) return;
    } else {
      effect = yield* readConnection(connections);
    }
    if (effect === undefined) continue;
    switch (effect.kind) {
      case 'deliver':
        yield handOut(effect, true, seen, options);
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
}
