/**
 * The leader elector: client-go's tools/leaderelection on a Lease. The
 * decisions are pure and elsewhere: what one attempt does (decision.ts,
 * carried out by elector-attempt.ts) and how the elector's state moves
 * (elector-state.ts). This file runs the loop around them, owns the one
 * observation of the Lease, and calls the user's callbacks.
 *
 * Guarantees and limits (as client-go's package documentation states them):
 * - The API server does not stop a deposed leader's other writes; the
 *   guarded work itself must stop when the signal given to onStartedLeading
 *   aborts. Beyond client-go, each term has a fencing token (fencing.ts),
 *   given to onStartedLeading, that guarded writes can carry and their
 *   receivers check.
 * - Never late: a reply handled after the term it would open could have
 *   ended (the process was paused in between) starts nothing (elector-state.ts).
 * - Expiry is judged by each candidate's own clock (the local time it saw the
 *   record change), never by timestamps another holder wrote. Any clock
 *   offset is tolerated, but the clocks must tick at about the same rate.
 *   leaseDuration / renewDeadline is the tolerated ratio of rates.
 * - A leader whose process is paused for longer than its term notices on
 *   waking and steps down before sending anything.
 */

import { ClientClosedError, isKubernetesApiError } from '../errors.js';
import { bounded } from './bounded.js';
import { realClock } from './clock.js';
import type { AttemptContext } from './elector-attempt.js';
import { attempt } from './elector-attempt.js';
import type { ElectorEvent, ElectorState } from './elector-state.js';
import { delayBeforeAttempt, step } from './elector-state.js';
import type { FencingToken } from './fencing.js';
import { fencingTokenOf } from './fencing.js';
import type { GuardedCalls } from './guarded-calls.js';
import { guardedCalls } from './guarded-calls.js';
import type { LeaseLock } from './lease-lock.js';
import { leaseLock } from './lease-lock.js';
import type { LeaderElectionMetrics } from './metrics.js';
import type { Observation } from './observation.js';
import { holderOf, NOTHING_OBSERVED } from './observation.js';
import type { ElectorConfig, LeaderElectorOptions } from './options.js';
import { validateElectorOptions } from './options.js';
import { release } from './release.js';

/** The election as this candidate last saw it. preferredHolder and strategy are reported, never written. */
export interface ObservedElection {
  /** The Lease's `spec.holderIdentity` ('' when none). */
  holderIdentity: string;
  /** The Lease's `spec.leaseTransitions`: how often leadership changed hands. */
  leaseTransitions: number | undefined;
  /** The Lease's `spec.leaseDurationSeconds`, as the holder wrote it. */
  leaseDurationSeconds: number | undefined;
  /** The Lease's `spec.preferredHolder` (coordinated leader election). */
  preferredHolder: string | undefined;
  /** The Lease's `spec.strategy` (coordinated leader election). */
  strategy: string | undefined;
  /** Local ms when the record last changed; undefined before the first read. */
  observedAt: number | undefined;
}

/** `run()` on an elector whose run has ended: an elector is one candidacy, so rejoining takes a new one. */
export class ElectorEndedError extends Error {
  override readonly name = 'ElectorEndedError';
  constructor(namespace: string, name: string, identity: string) {
    super(
      `the leader elector for ${namespace}/${name} (${identity}) has ended: create a new one with createLeaderElector to rejoin`,
    );
  }
}

/** A leader election over one Lease, made by `createLeaderElector`; `run()` it once. */
export interface LeaderElector {
  /**
   * Runs the election until `signal` aborts or leadership is lost; resolves after onStoppedLeading. Call once: while
   * it runs, a second call returns the same promise; once it has ended, `run()` rejects with ElectorEndedError
   * (an elector is one candidacy; rejoin with a new one). Rejects with ClientClosedError when the client is closed
   * under it (k8s-lease-client-node's `close()`), after onStoppedLeading.
   */
  run(): Promise<void>;
  /** True while leading and within the current term. */
  isLeader(): boolean;
  /**
   * The fencing token of the current term while `isLeader()` is true, else undefined. The same token is given
   * to onStartedLeading; it does not change on renewals.
   */
  fencingToken(): FencingToken | undefined;
  /** The last observed holder ('' when none). */
  getLeader(): string;
  /** The Lease record as this candidate last read or wrote it. */
  observed(): ObservedElection;
  /**
   * client-go's Check: an error when this candidate is the observed holder
   * but has not renewed for leaseDuration + maxTolerableExpiredLease ms (a
   * stuck loop that should have stepped down).
   */
  check(maxTolerableExpiredLease: number): Error | undefined;
}

/**
 * Creates a leader elector over a Lease with client-go's semantics (acquire, renew within `renewDeadline`,
 * step down, optional release on cancel, coordinated mode). Nothing is sent until `run()`.
 *
 * @example
 * ```ts
 * const stop = new AbortController();
 * const elector = createLeaderElector({
 *   client, namespace: 'kube-system', name: 'my-controller', identity: `${hostname()}-${crypto.randomUUID()}`,
 *   signal: stop.signal, releaseOnCancel: true,
 *   onStartedLeading: async (signal, token) => { await reconcileUntil(signal, token); },
 *   onStoppedLeading: () => console.log('no longer leading'),
 * });
 * await elector.run(); // resolves once leadership is lost or `stop.abort()` is called
 * ```
 *
 * @param options - The Lease, this candidate's identity, the timings and the callbacks.
 * @throws RangeError with a one-line message for invalid options (timings out of order, a missing callback,
 *   an empty identity).
 * @throws InvalidPathParameterError for a namespace or name that is not a single path segment.
 */
export function createLeaderElector(options: LeaderElectorOptions): LeaderElector {
  const validated = validateElectorOptions(options, options.clock ?? realClock);
  if (!validated.ok) throw new RangeError(`invalid leader election options: ${validated.message}`);
  return electorOf(newRun(validated.config, options, leaseLock(options.client, options.namespace, options.name)));
}

/** One elector's mutable facts; only the functions below change them. */
interface Run {
  readonly config: ElectorConfig;
  readonly options: LeaderElectorOptions;
  readonly lock: LeaseLock;
  readonly calls: GuardedCalls;
  /** The Lease as last read or written, and when its record last changed: kept here only. */
  observation: Observation;
  state: ElectorState;
  /** The holder last announced to onNewLeader. */
  reported: string;
  /** The fencing token of the term being led (or last led). */
  token: FencingToken | undefined;
  /** Set when a request found the client closed: the loop ends, and run() rejects with it. */
  closed: ClientClosedError | undefined;
  /** Aborts the guarded work of the term; set once this candidate started leading. */
  leading: AbortController | undefined;
  running: Promise<void> | undefined;
  ended: boolean;
}

function newRun(config: ElectorConfig, options: LeaderElectorOptions, lock: LeaseLock): Run {
  return {
    config,
    options,
    lock,
    calls: guardedCalls(config.onError),
    observation: NOTHING_OBSERVED,
    state: { kind: 'acquiring' },
    reported: '',
    token: undefined,
    closed: undefined,
    leading: undefined,
    running: undefined,
    ended: false,
  };
}

function electorOf(run: Run): LeaderElector {
  const { clock } = run.config;
  const leadingNow = (): boolean => run.state.kind === 'leading' && clock.now() < run.state.until;
  return {
    run: () => {
      if (run.ended)
        return Promise.reject(new ElectorEndedError(run.config.namespace, run.config.name, run.config.identity));
      run.running ??= loop(run);
      return run.running;
    },
    isLeader: leadingNow,
    fencingToken: () => (leadingNow() ? run.token : undefined),
    getLeader: () => holderOf(run.observation),
    observed: () => observedElection(run.observation),
    check: (maxTolerableExpiredLease) => check(run, maxTolerableExpiredLease),
  };
}

function observedElection(observation: Observation): ObservedElection {
  const spec = observation.lease?.spec;
  return {
    holderIdentity: holderOf(observation),
    leaseTransitions: spec?.leaseTransitions,
    leaseDurationSeconds: spec?.leaseDurationSeconds,
    preferredHolder: spec?.preferredHolder,
    strategy: spec?.strategy,
    observedAt: Number.isFinite(observation.time) ? observation.time : undefined,
  };
}

function check(run: Run, maxTolerableExpiredLease: number): Error | undefined {
  const { clock, identity, leaseDuration, namespace, name } = run.config;
  if (holderOf(run.observation) !== identity) return undefined;
  if (clock.now() - run.observation.time > leaseDuration + maxTolerableExpiredLease) {
    return new Error(`failed election to renew leadership on lease ${namespace}/${name}`);
  }
  return undefined;
}

const active = (state: ElectorState): boolean => state.kind === 'acquiring' || state.kind === 'leading';

const stoppedLeading = (config: ElectorConfig): Error =>
  new Error(`stopped leading ${config.namespace}/${config.name}`);

async function loop(run: Run): Promise<void> {
  try {
    for (let first = true; active(run.state); first = false) {
      if (!first && !(await waited(run))) continue;
      await round(run);
    }
    // Stop the guarded work first, then give the lease up.
    run.leading?.abort(stoppedLeading(run.config));
    if (run.state.kind === 'releasing') {
      run.observation = await release({ ...run.config, lock: run.lock, report: run.calls.report }, run.observation);
      transition(run, { kind: 'released' });
      reportTransition(run);
    }
  } finally {
    finish(run);
  }
  if (run.closed !== undefined) throw run.closed;
}

/** Waits before the next attempt; false when the wait ended it (cancelled, or the term ran out meanwhile). */
async function waited(run: Run): Promise<boolean> {
  const { clock, retryPeriod, random } = run.config;
  try {
    await clock.sleep(delayBeforeAttempt(run.state, clock.now(), retryPeriod, random), run.options.signal);
  } catch {
    transition(run, { kind: 'cancelled' });
    return false;
  }
  transition(run, { kind: 'woke', now: clock.now() });
  return active(run.state);
}

/** One attempt, bounded by the term (or, while acquiring, renewDeadline), and what follows from its outcome. */
async function round(run: Run): Promise<void> {
  const { clock, renewDeadline } = run.config;
  const cancel = run.options.signal;
  if (cancel?.aborted) return transition(run, { kind: 'cancelled' });
  const wasLeading = run.state.kind === 'leading';
  // Acquisition attempts are bounded too, so a hung request cannot stall the loop.
  const limit = bounded(clock, cancel, run.state.kind === 'leading' ? run.state.until : clock.now() + renewDeadline);
  const { outcome, sentAt, observation } = await attempt(attemptContext(run), run.observation, limit.signal);
  limit.dispose();
  run.observation = observation;
  transition(
    run,
    run.closed !== undefined
      ? { kind: 'closed' }
      : cancel?.aborted
        ? { kind: 'cancelled' }
        : { kind: 'attempted', outcome, sentAt, now: clock.now() },
  );
  reportTransition(run);
  if (!wasLeading && run.state.kind === 'leading') startLeading(run);
}

function attemptContext(run: Run): AttemptContext {
  return {
    lock: run.lock,
    clock: run.config.clock,
    decision: run.config,
    failed: (error) => failed(run, error),
    slowPath: () => tell(run, (m) => m.slowpathExercised(run.config.name)),
  };
}

function failed(run: Run, error: unknown): void {
  if (error instanceof ClientClosedError) run.closed ??= error;
  // A 409 (a stale update's Conflict, a lost create race's AlreadyExists) is the normal end of a race, as client-go
  // treats it (tryAcquireOrRenew returns false); a request cut by our own cancel, or by a closed client, is no failure.
  else if (!(isKubernetesApiError(error) && error.status === 409) && run.options.signal?.aborted !== true)
    run.calls.report(error);
}

function transition(run: Run, event: ElectorEvent): void {
  run.state = step(run.state, event, run.config);
}

function tell(run: Run, figure: (m: LeaderElectionMetrics) => void): void {
  const metrics = run.options.metrics;
  if (metrics !== undefined) run.calls.invoke(() => figure(metrics));
}

function reportTransition(run: Run): void {
  const holder = holderOf(run.observation);
  // Unlike client-go, an empty holder (released) is not announced as a new leader, nor this candidate unless it
  // leads: a write of ours whose reply came too late (elector-state.ts) may already have been overwritten.
  if (holder === run.reported || holder === '' || (holder === run.config.identity && run.state.kind !== 'leading'))
    return;
  run.reported = holder;
  const { options } = run;
  const onNewLeader = options.onNewLeader;
  if (onNewLeader !== undefined) run.calls.invoke(() => onNewLeader.call(options, holder));
}

function startLeading(run: Run): void {
  const controller = new AbortController();
  run.leading = controller;
  // The term's token, from the write that opened it (the Lease as the server accepted it).
  const opened = fencingTokenOf(run.observation.lease) ?? {
    leaseTransitions: 0,
    holderIdentity: run.config.identity,
    acquireTime: undefined,
  };
  run.token = opened;
  tell(run, (m) => m.on(run.config.name));
  // As client-go's `go OnStartedLeading(ctx)`: the loop does not wait for it, and its end (or failure) does not end the term.
  run.calls.invoke(() => run.options.onStartedLeading(controller.signal, opened), controller.signal);
}

function finish(run: Run): void {
  run.leading?.abort(stoppedLeading(run.config));
  // client-go's renew() sets the gauge off once its loop ends; a candidate that never led leaves it untouched.
  if (run.leading !== undefined) tell(run, (m) => m.off(run.config.name));
  // As client-go's `defer OnStoppedLeading()`: always, led or not.
  run.calls.invoke(() => run.options.onStoppedLeading());
  run.ended = true;
}
