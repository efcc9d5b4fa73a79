import { describe, expect, it } from 'vitest';
import {
  ClientClosedError,
  ConnectionError,
  KubernetesApiError,
  UnexpectedResponseError,
} from '../../../../templates/k8s-lease-client/src/runtime/errors.js';
import {
  BACKOFF_RESET_MS,
  BackoffPolicy,
  backoffSettings,
} from '../../../../templates/k8s-lease-client/src/runtime/watch/backoff.js';
import {
  WatchClosedError,
  WatchError,
  WatchIdleTimeoutError,
} from '../../../../templates/k8s-lease-client/src/runtime/watch/errors.js';
import { WatchDecodeError } from '../../../../templates/k8s-lease-client/src/runtime/watch/ndjson.js';
import { initialState, step } from '../../../../templates/k8s-lease-client/src/runtime/watch/state.js';
import type {
  SyncState,
  WatchEffect,
  WatchInput,
  WatchingState,
  WatchState,
} from '../../../../templates/k8s-lease-client/src/runtime/watch/state.js';

type Obj = { metadata: { name: string; resourceVersion: string } };
const a: Obj = { metadata: { name: 'a', resourceVersion: '5' } };

const apiError = (status: number, reason?: string, retryAfterSeconds?: number): KubernetesApiError =>
  new KubernetesApiError({
    status,
    method: 'GET',
    url: 'http://h/x',
    statusObject: reason === undefined ? undefined : { kind: 'Status', code: status, reason },
    retryAfterSeconds,
  });
const gone = apiError(410, 'Expired');
const inStreamGone = new WatchError({ kind: 'Status', code: 410, reason: 'Gone' });
const cut = new TypeError('terminated');
const closedClient = new ClientClosedError({ method: 'GET', url: 'http://h/x?watch=true' });
const refused = new ConnectionError({ method: 'GET', url: 'http://h/x' }, new TypeError('fetch failed'));

const sync = (over: Partial<SyncState> = {}): SyncState => ({
  kind: 'sync',
  reason: undefined,
  rv: undefined,
  via: 'list',
  synced: false,
  ...over,
});
const watching = (over: Partial<WatchingState> = {}): WatchingState => ({
  kind: 'watch',
  fromList: false,
  rv: '10',
  via: 'list',
  synced: true,
  ...over,
});

/** Delays 100, 200, 400, … without jitter; `failures` already counted. */
function policy(failures = 0, maxRetries?: number): BackoffPolicy {
  const backoff = new BackoffPolicy(
    backoffSettings({
      initialDelayMs: 100,
      maxDelayMs: 10_000,
      jitter: 0,
      ...(maxRetries === undefined ? {} : { maxRetries }),
    }),
    () => 0,
  );
  backoff.failures = failures;
  return backoff;
}

const quick = { failed: true, lastedMs: 50, delivered: 3 };
const long = { failed: true, lastedMs: BACKOFF_RESET_MS, delivered: 0 };
const cleanBusy = { failed: false, lastedMs: 50, delivered: 3 };
const cleanEmpty = { failed: false, lastedMs: 5, delivered: 0 };
const closed = (connection: typeof quick, error: unknown = undefined, resourceVersion = '12'): WatchInput<Obj> => ({
  kind: 'closed',
  connection,
  error,
  resourceVersion,
});

interface Case {
  name: string;
  state: WatchState;
  input: WatchInput<Obj>;
  backoff: BackoffPolicy | undefined;
  next: WatchState;
  effect: WatchEffect<Obj> | undefined;
  /** Failures counted on the policy afterwards. */
  failures?: number;
}

const cases: Case[] = [
  // The one sync path: LIST or initial events, at the start or after a 410.
  {
    name: 'the initial LIST: ADDED + onSynced, then a watch from its resourceVersion that remembers it came from a LIST',
    state: sync(),
    input: { kind: 'listed', objects: [a], resourceVersion: '7' },
    backoff: policy(),
    next: watching({ rv: '7', fromList: true, synced: true }),
    effect: { kind: 'deliver', objects: [a], resourceVersion: '7', reason: undefined },
  },
  {
    name: 'a re-list after a 410 is a RESYNC and does not count as the initial sync',
    state: sync({ reason: 'Gone', rv: '3' }),
    input: { kind: 'listed', objects: [], resourceVersion: '9' },
    backoff: policy(),
    next: watching({ rv: '9', fromList: true, synced: false }),
    effect: { kind: 'deliver', objects: [], resourceVersion: '9', reason: 'Gone' },
  },
  {
    name: 'a LIST without a resourceVersion watches from none',
    state: sync(),
    input: { kind: 'listed', objects: [], resourceVersion: '' },
    backoff: policy(),
    next: watching({ rv: undefined, fromList: true }),
    effect: { kind: 'deliver', objects: [], resourceVersion: '', reason: undefined },
  },
  {
    name: 'the initial-events-end bookmark delivers the collected state the same way, and the watch reads on from the bookmark',
    state: sync({ via: 'stream' }),
    input: { kind: 'initialEventsEnd', objects: [a], resourceVersion: '8' },
    backoff: policy(),
    next: watching({ rv: '8', via: 'stream', fromList: false }),
    effect: { kind: 'deliver', objects: [a], resourceVersion: '8', reason: undefined },
  },
  {
    name: 'initial events after a 410 are a RESYNC',
    state: sync({ via: 'stream', reason: 'Expired', synced: true }),
    input: { kind: 'initialEventsEnd', objects: [a], resourceVersion: undefined },
    backoff: policy(),
    next: watching({ rv: undefined, via: 'stream', synced: true }),
    effect: { kind: 'deliver', objects: [a], resourceVersion: '', reason: 'Expired' },
  },
  // Connecting.
  {
    name: 'a watch started at a given resourceVersion is synced by its first connection',
    state: watching({ synced: false }),
    input: { kind: 'connected' },
    backoff: policy(),
    next: watching({ synced: true }),
    effect: { kind: 'synced', resourceVersion: '10' },
  },
  {
    name: 'later connections change nothing',
    state: watching(),
    input: { kind: 'connected' },
    backoff: policy(2),
    next: watching(),
    effect: undefined,
    failures: 2,
  },
  // Failed requests.
  {
    name: 'a failed LIST is retried after the backoff, the state unchanged',
    state: sync({ reason: 'Gone' }),
    input: { kind: 'failed', error: apiError(503) },
    backoff: policy(1),
    next: sync({ reason: 'Gone' }),
    effect: { kind: 'wait', error: apiError(503), attempt: 2, delayMs: 200 },
    failures: 2,
  },
  {
    name: 'a LIST answered by something that is not a list is fatal',
    state: sync(),
    input: {
      kind: 'failed',
      error: new UnexpectedResponseError({ method: 'GET', url: 'http://h/x', kind: 'notAList', received: 'string' }),
    },
    backoff: policy(),
    next: sync(),
    effect: {
      kind: 'fail',
      error: new UnexpectedResponseError({ method: 'GET', url: 'http://h/x', kind: 'notAList', received: 'string' }),
    },
  },
  {
    name: 'a closed client (ClientClosedError) is fatal: it stays closed',
    state: watching(),
    input: { kind: 'failed', error: closedClient },
    backoff: policy(),
    next: watching(),
    effect: { kind: 'fail', error: closedClient },
  },
  {
    name: 'a ConnectionError (the server is down) is retried with backoff',
    state: watching(),
    input: { kind: 'failed', error: refused },
    backoff: policy(),
    next: watching(),
    effect: { kind: 'wait', error: refused, attempt: 1, delayMs: 100 },
    failures: 1,
  },
  {
    name: 'a 410 on connect after a healthy watch re-lists at once',
    state: watching({ rv: '10' }),
    input: { kind: 'failed', error: gone },
    backoff: policy(),
    next: sync({ reason: 'Expired', rv: '10', synced: true }),
    effect: { kind: 'wait', error: gone, attempt: 0, delayMs: 0 },
  },
  {
    name: 'a 410 on connect straight after a LIST (its resourceVersion already too old) backs off before re-listing',
    state: watching({ fromList: true }),
    input: { kind: 'failed', error: gone },
    backoff: policy(),
    next: sync({ reason: 'Expired', rv: '10', synced: true }),
    effect: { kind: 'wait', error: gone, attempt: 1, delayMs: 100 },
    failures: 1,
  },
  {
    name: 'a server without WatchList (400 to sendInitialEvents) gets the state by LIST at once, no wait',
    state: sync({ via: 'stream' }),
    input: { kind: 'failed', error: apiError(400, 'BadRequest') },
    backoff: policy(),
    next: sync({ via: 'list' }),
    effect: undefined,
  },
  {
    name: 'a 422 to sendInitialEvents too, the pending RESYNC kept',
    state: sync({ via: 'stream', reason: 'Gone' }),
    input: { kind: 'failed', error: apiError(422, 'Invalid') },
    backoff: undefined,
    next: sync({ via: 'list', reason: 'Gone' }),
    effect: undefined,
  },
  {
    name: 'a 400 to an ordinary watch is fatal',
    state: watching(),
    input: { kind: 'failed', error: apiError(400, 'BadRequest') },
    backoff: policy(),
    next: watching(),
    effect: { kind: 'fail', error: apiError(400, 'BadRequest') },
  },
  {
    name: "a 429 waits at least the server's Retry-After, and forgets the LIST",
    state: watching({ fromList: true }),
    input: { kind: 'failed', error: apiError(429, 'TooManyRequests', 3) },
    backoff: policy(),
    next: watching({ fromList: false }),
    effect: { kind: 'wait', error: apiError(429, 'TooManyRequests', 3), attempt: 1, delayMs: 3_000 },
    failures: 1,
  },
  {
    name: 'retries exhausted: the last error is thrown',
    state: watching(),
    input: { kind: 'failed', error: cut },
    backoff: policy(3, 3),
    next: watching(),
    effect: { kind: 'fail', error: cut },
    failures: 4,
  },
  {
    name: 'reconnect: false: a 410 on connect is thrown',
    state: watching(),
    input: { kind: 'failed', error: gone },
    backoff: undefined,
    next: watching(),
    effect: { kind: 'fail', error: gone },
  },
  // Streams that ended.
  {
    name: 'a cut after events is still a failure: the backoff grows until a connection proves itself',
    state: watching({ rv: '10' }),
    input: closed(quick, cut, '15'),
    backoff: policy(2),
    next: watching({ rv: '15' }),
    effect: { kind: 'wait', error: cut, attempt: 3, delayMs: 400 },
    failures: 3,
  },
  {
    name: 'a failure after a connection that lasted the reset period starts the backoff over',
    state: watching(),
    input: closed(long, new WatchIdleTimeoutError(5)),
    backoff: policy(6),
    next: watching({ rv: '12' }),
    effect: { kind: 'wait', error: new WatchIdleTimeoutError(5), attempt: 1, delayMs: 100 },
    failures: 1,
  },
  {
    name: 'a clean end of a busy watch reconnects at once and resets the backoff',
    state: watching({ fromList: true }),
    input: closed(cleanBusy),
    backoff: policy(4),
    next: watching({ rv: '12', fromList: false }),
    effect: { kind: 'wait', error: undefined, attempt: 0, delayMs: 0 },
    failures: 0,
  },
  {
    name: 'a clean end without a byte backs off like a failure, reported as a clean end',
    state: watching(),
    input: closed(cleanEmpty),
    backoff: policy(1),
    next: watching({ rv: '12' }),
    effect: { kind: 'wait', error: undefined, attempt: 2, delayMs: 200 },
    failures: 2,
  },
  {
    // The driver counts only progress in `delivered`: events replayed from before the resume point are not.
    name: 'a clean quick end that only replayed seen events (nothing new, resume point unchanged) backs off as an empty one',
    state: watching({ rv: '12' }),
    input: closed({ failed: false, lastedMs: 5, delivered: 0 }, undefined, '12'),
    backoff: policy(3),
    next: watching({ rv: '12' }),
    effect: { kind: 'wait', error: undefined, attempt: 4, delayMs: 800 },
    failures: 4,
  },
  {
    name: 'a clean end without progress that lasted a second (client-go: not a very short watch) reconnects at once',
    state: watching({ rv: '12' }),
    input: closed({ failed: false, lastedMs: 1_000, delivered: 0 }, undefined, '12'),
    backoff: policy(3),
    next: watching({ rv: '12' }),
    effect: { kind: 'wait', error: undefined, attempt: 0, delayMs: 0 },
    failures: 0,
  },
  {
    name: 'clean ends without a byte, retries exhausted: a WatchClosedError',
    state: watching(),
    input: closed(cleanEmpty),
    backoff: policy(1, 1),
    next: watching({ rv: '12' }),
    effect: {
      kind: 'fail',
      error: new WatchClosedError('the server ended the watch at once, without sending anything new'),
    },
    failures: 2,
  },
  {
    name: 'an in-stream 410 after a healthy watch re-lists at once',
    state: watching({ rv: '10' }),
    input: closed({ failed: true, lastedMs: BACKOFF_RESET_MS, delivered: 9 }, inStreamGone, '20'),
    backoff: policy(3),
    next: sync({ reason: 'Gone', rv: '20', synced: true }),
    effect: { kind: 'wait', error: inStreamGone, attempt: 0, delayMs: 0 },
    failures: 0,
  },
  {
    name: 'an in-stream 410 on a connection that did not prove itself backs off',
    state: watching({ rv: '10' }),
    input: closed(quick, inStreamGone, '11'),
    backoff: policy(),
    next: sync({ reason: 'Gone', rv: '11', synced: true }),
    effect: { kind: 'wait', error: inStreamGone, attempt: 1, delayMs: 100 },
    failures: 1,
  },
  {
    name: 'an in-stream 410 straight after a LIST backs off even when the connection proved itself',
    state: watching({ fromList: true }),
    input: closed(long, inStreamGone, '20'),
    backoff: policy(2),
    next: sync({ reason: 'Gone', rv: '20', synced: true }),
    effect: { kind: 'wait', error: inStreamGone, attempt: 1, delayMs: 100 },
    failures: 1,
  },
  {
    name: 'a 410 ends a sendInitialEvents watch: the RESYNC comes from initial events again, from no resourceVersion',
    state: watching({ via: 'stream', rv: '10' }),
    input: closed(long, inStreamGone, '30'),
    backoff: policy(),
    next: sync({ via: 'stream', reason: 'Gone', rv: undefined, synced: true }),
    effect: { kind: 'wait', error: inStreamGone, attempt: 0, delayMs: 0 },
  },
  {
    name: 'a sendInitialEvents connection that ends before its bookmark is started over',
    state: sync({ via: 'stream' }),
    input: closed(cleanBusy),
    backoff: policy(),
    next: sync({ via: 'stream' }),
    effect: { kind: 'wait', error: undefined, attempt: 0, delayMs: 0 },
  },
  {
    name: 'a non-retriable in-stream ERROR is thrown',
    state: watching(),
    input: closed(quick, new WatchError({ code: 403, reason: 'Forbidden' })),
    backoff: policy(),
    next: watching({ rv: '12' }),
    effect: { kind: 'fail', error: new WatchError({ code: 403, reason: 'Forbidden' }) },
  },
  {
    name: 'a line it cannot decode is fatal, never resumed past',
    state: watching(),
    input: closed(quick, new WatchDecodeError({ text: '{', line: 3, truncated: false })),
    backoff: policy(),
    next: watching({ rv: '12' }),
    effect: { kind: 'fail', error: new WatchDecodeError({ text: '{', line: 3, truncated: false }) },
  },
  {
    name: 'reconnect: false: a clean end finishes the iteration',
    state: watching(),
    input: closed(cleanBusy),
    backoff: undefined,
    next: watching({ rv: '12' }),
    effect: { kind: 'finish' },
  },
  {
    name: 'reconnect: false: a clean end before the initial state was complete is an error',
    state: sync({ via: 'stream' }),
    input: closed(cleanBusy),
    backoff: undefined,
    next: sync({ via: 'stream' }),
    effect: { kind: 'fail', error: new WatchClosedError('the watch ended before the initial state was complete') },
  },
  {
    name: 'reconnect: false: an in-stream 410 is thrown',
    state: watching(),
    input: closed(long, inStreamGone),
    backoff: undefined,
    next: watching({ rv: '12' }),
    effect: { kind: 'fail', error: inStreamGone },
  },
  {
    name: 'reconnect: false: a cut is thrown',
    state: watching(),
    input: closed(quick, cut),
    backoff: undefined,
    next: watching({ rv: '12' }),
    effect: { kind: 'fail', error: cut },
  },
];

describe('step: every transition of the watch state machine', () => {
  it.each(cases)('$name', ({ state, input, backoff, next, effect, failures }) => {
    const transition = step(state, input, backoff);
    expect(transition.state).toEqual(next);
    expect(transition.effect).toEqual(effect);
    if (effect?.kind === 'fail')
      expect((transition.effect as { error: unknown }).error).toBeInstanceOf((effect.error as Error).constructor);
    if (backoff !== undefined) expect(backoff.failures).toBe(failures ?? 0);
  });
});

describe('initialState', () => {
  it.each([
    ['no resourceVersion: LIST first', undefined, false, sync()],
    [
      'no resourceVersion, sendInitialEvents: the state from the watch itself',
      undefined,
      true,
      sync({ via: 'stream' }),
    ],
    ['a resourceVersion: watch from it, not yet synced', '42', false, watching({ rv: '42', synced: false })],
  ])('%s', (_name, resourceVersion, sendInitialEvents, expected) => {
    expect(initialState(resourceVersion, sendInitialEvents)).toEqual(expected);
  });
});

describe('WatchError: status is the HTTP status code, as on KubernetesApiError', () => {
  it.each([
    [{ kind: 'Status', code: 410, reason: 'Expired' }, 410, 'Expired'],
    [{ reason: 'Forbidden' }, 0, 'Forbidden'],
  ])('%o', (statusObject, status, reason) => {
    const error = new WatchError(statusObject);
    expect({ status: error.status, code: error.code, reason: error.reason, statusObject: error.statusObject }).toEqual({
      status,
      code: status,
      reason,
      statusObject,
    });
    expect(typeof apiError(status === 0 ? 500 : status).status).toBe(typeof error.status);
  });
});
