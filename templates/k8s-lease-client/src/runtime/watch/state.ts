/**
 * The watch as an explicit state machine: a state type and one step function,
 * as kube-rs's `watcher` (a `State` enum stepped by `step_trampolined`) and
 * client-go's reflector (`ListAndWatch`: `list` or `watchList`, then
 * `watchWithResync`, re-list on an expired resourceVersion) are built.
 *
 * The state says what to do next (LIST, a sendInitialEvents watch, or a watch
 * from a resourceVersion); the drivers (./watch.ts, ./connection-reader.ts) do
 * it and feed the outcome back as an input; `step` answers with the next state
 * and at most one effect for the driver to carry out (hand out the complete
 * state, wait before a retry, throw, finish). The only thing `step` mutates is
 * the backoff policy.
 */

import type { BackoffPolicy, ConnectionRecord } from './backoff.js';
import { provedItself } from './backoff.js';
import type { ResyncReason } from './errors.js';
import { goneReason, isRetriable, retryAfterMs, WatchClosedError } from './errors.js';
import { isKubernetesApiError } from '../errors.js';
import { nonEmpty } from './resource-version.js';

interface Memory {
  /** The resume point: the resourceVersion a watch (re)starts from. */
  readonly rv: string | undefined;
  /** How the complete state is obtained: by LIST, or by a sendInitialEvents watch until the server refuses one. */
  readonly via: 'list' | 'stream';
  /** onSynced has been called: the initial state was handed out, or the watch started from a given resourceVersion. */
  readonly synced: boolean;
}

/** The complete state is needed: the initial one (`reason` undefined, yielded as ADDED) or, after a 410, a RESYNC. */
export interface SyncState extends Memory {
  readonly kind: 'sync';
  readonly reason: ResyncReason | undefined;
}

/** Watching from `rv`. */
export interface WatchingState extends Memory {
  readonly kind: 'watch';
  /**
   * `rv` came from a LIST and no connection has proved itself since: a 410 now means the LIST's own
   * resourceVersion is already too old, so the re-list backs off like any failure instead of looping.
   */
  readonly fromList: boolean;
}

export type WatchState = SyncState | WatchingState;

export type WatchInput<T> =
  /** A consistent LIST completed. */
  | { readonly kind: 'listed'; readonly objects: T[]; readonly resourceVersion: string }
  /** A sendInitialEvents watch reached its `k8s.io/initial-events-end` bookmark (at `resourceVersion`). */
  | { readonly kind: 'initialEventsEnd'; readonly objects: T[]; readonly resourceVersion: string | undefined }
  /** The LIST or the watch request failed before a stream existed. */
  | { readonly kind: 'failed'; readonly error: unknown }
  /** A watch request got its 2xx. */
  | { readonly kind: 'connected' }
  /** A watch stream ended: cleanly (`connection.failed` false) or with `error`; `resourceVersion` is the resume point reached. */
  | {
      readonly kind: 'closed';
      readonly connection: ConnectionRecord;
      readonly error: unknown;
      readonly resourceVersion: string | undefined;
    };

export type WatchEffect<T> =
  /** Hand out the complete state: ADDED per object then onSynced (`reason` undefined), or a RESYNC. */
  | {
      readonly kind: 'deliver';
      readonly objects: T[];
      readonly resourceVersion: string;
      readonly reason: ResyncReason | undefined;
    }
  /** The watch started from a given resourceVersion: onSynced with no objects. */
  | { readonly kind: 'synced'; readonly resourceVersion: string }
  /** Report the disconnect (onDisconnect), then wait `delayMs` before the next attempt. */
  | { readonly kind: 'wait'; readonly error: unknown; readonly attempt: number; readonly delayMs: number }
  /** End the iteration with `error`. */
  | { readonly kind: 'fail'; readonly error: unknown }
  /** End the iteration cleanly. */
  | { readonly kind: 'finish' };

export interface Transition<T> {
  readonly state: WatchState;
  readonly effect: WatchEffect<T> | undefined;
}

/** Where a watch begins: at `resourceVersion` when given, else by getting the complete state. */
export function initialState(resourceVersion: string | undefined, sendInitialEvents: boolean): WatchState {
  const via = sendInitialEvents ? 'stream' : 'list';
  return resourceVersion === undefined
    ? { kind: 'sync', reason: undefined, rv: undefined, via, synced: false }
    : { kind: 'watch', fromList: false, rv: resourceVersion, via, synced: false };
}

/**
 * The next state and effect for `input` in `state`. `backoff` undefined: a single connection
 * (`reconnect: false`), where every failure is final. Counts failures on `backoff`, resets it when a
 * connection proved itself.
 */
export function step<T>(state: WatchState, input: WatchInput<T>, backoff: BackoffPolicy | undefined): Transition<T> {
  switch (input.kind) {
    case 'listed':
      return synced(state, nonEmpty(input.resourceVersion), true, input.objects, input.resourceVersion);
    case 'initialEventsEnd': {
      const rv = nonEmpty(input.resourceVersion) ?? state.rv;
      return synced(state, rv, false, input.objects, rv ?? '');
    }
    case 'connected':
      // Started from a given resourceVersion: the first connection is the sync.
      if (state.kind === 'watch' && !state.synced)
        return { state: { ...state, synced: true }, effect: { kind: 'synced', resourceVersion: state.rv ?? '' } };
      return { state, effect: undefined };
    case 'failed':
      return requestFailed(state, input.error, backoff);
    case 'closed':
      return closed(state, input, backoff);
  }
}

/** The one path for a complete state, whichever way it came (LIST or initial events) and whatever asked for it (start or 410). */
function synced<T>(
  state: WatchState,
  rv: string | undefined,
  fromList: boolean,
  objects: T[],
  resourceVersion: string,
): Transition<T> {
  const reason = state.kind === 'sync' ? state.reason : undefined;
  return {
    state: { kind: 'watch', fromList, rv, via: state.via, synced: state.synced || reason === undefined },
    effect: { kind: 'deliver', objects, resourceVersion, reason },
  };
}

function resync(state: WatchState, reason: ResyncReason, rv: string | undefined): SyncState {
  return { kind: 'sync', reason, rv, via: state.via, synced: state.synced };
}

function requestFailed<T>(state: WatchState, error: unknown, backoff: BackoffPolicy | undefined): Transition<T> {
  // A failed LIST is simply retried.
  if (state.kind === 'sync' && state.via === 'list') return { state, effect: retry(error, backoff) };
  const gone = goneReason(error);
  if (gone !== undefined && backoff !== undefined) {
    // Re-list at once, unless the resourceVersion just came from a LIST: then back off like any failure.
    const effect = state.kind === 'watch' && state.fromList ? retry<T>(error, backoff) : wait<T>(error, backoff, 0);
    return { state: resync(state, gone, state.rv), effect };
  }
  if (state.kind === 'sync' && isKubernetesApiError(error) && (error.status === 400 || error.status === 422)) {
    // No WatchList on this server (client-go's reflector falls back the same way): get the state by LIST instead, now.
    return { state: { ...state, via: 'list' }, effect: undefined };
  }
  return { state: notFromList(state), effect: retry(error, backoff) };
}

/**
 * After a stream ended. Only a connection that proved itself resets the backoff: one that fails straight after
 * its 200 must not retry at full speed forever, nor one that delivers an event and then an in-stream ERROR (or
 * is cut) every time.
 */
function closed<T>(
  state: WatchState,
  input: Extract<WatchInput<T>, { kind: 'closed' }>,
  backoff: BackoffPolicy | undefined,
): Transition<T> {
  const { connection, error } = input;
  const at: WatchState = state.kind === 'watch' ? { ...state, rv: input.resourceVersion } : state;
  const healthy = provedItself(connection);
  const relistedJustBefore = at.kind === 'watch' && at.fromList;
  if (healthy) backoff?.reset();
  const gone = connection.failed ? goneReason(error) : undefined;
  if (gone !== undefined) {
    if (backoff === undefined) return { state: at, effect: { kind: 'fail', error } };
    // Re-list at once after a healthy watch; a 410 straight after a fresh LIST backs off like any failure. A
    // sendInitialEvents watch starts over from no resourceVersion at all.
    const effect = healthy && !relistedJustBefore ? wait<T>(error, backoff, 0) : next<T>(error, backoff);
    return { state: resync(at, gone, at.via === 'stream' ? undefined : at.rv), effect };
  }
  const after = notFromList(at);
  if (!connection.failed) {
    if (backoff === undefined) {
      // A single connection that ended; it fails only if the initial events never completed.
      const effect: WatchEffect<T> =
        after.kind === 'sync'
          ? { kind: 'fail', error: new WatchClosedError('the watch ended before the initial state was complete') }
          : { kind: 'finish' };
      return { state: after, effect };
    }
    if (healthy) return { state: after, effect: wait(undefined, backoff, 0) };
    const delay = retry<T>(
      new WatchClosedError('the server ended the watch at once, without sending anything new'),
      backoff,
    );
    // Reported as a clean end (no error), delayed like a failure.
    return { state: after, effect: delay.kind === 'wait' ? { ...delay, error: undefined } : delay };
  }
  return { state: after, effect: retry(error, backoff) };
}

function notFromList(state: WatchState): WatchState {
  return state.kind === 'watch' && state.fromList ? { ...state, fromList: false } : state;
}

/** Wait the next backoff delay if `error` is retriable and retries are left, else fail with it. */
function retry<T>(error: unknown, backoff: BackoffPolicy | undefined): WatchEffect<T> {
  if (backoff === undefined || !isRetriable(error)) return { kind: 'fail', error };
  return next(error, backoff);
}

/** Wait the next backoff delay (at least the server's Retry-After), or fail with `error` once retries are exhausted. */
function next<T>(error: unknown, backoff: BackoffPolicy): WatchEffect<T> {
  const delayMs = backoff.next(retryAfterMs(error));
  return delayMs === undefined ? { kind: 'fail', error } : wait(error, backoff, delayMs);
}

function wait<T>(error: unknown, backoff: BackoffPolicy, delayMs: number): WatchEffect<T> {
  return { kind: 'wait', error, attempt: backoff.failures, delayMs };
}
