/**
 * The leader elector: client-go's tools/leaderelection on a Lease, driven by
 * the state machine in elector-state.ts.
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

import { ClientClosedError, isConflict, isKubernetesApiError } from '../errors.js';
import { microTimeNow } from '../time.js';
import { bounded } from './bounded.js';
import { realClock } from './clock.js';
import type { FencingToken } from './fencing.js';
import { fencingTokenOf } from './fencing.js';
import type { ElectionLease, ElectionRecord, LeaseLock } from './lease-lock.js';
import { leaseLock } from './lease-lock.js';
import type { LeaderElectionMetrics } from './metrics.js';
import type { AttemptOutcome, ElectorState } from './elector-state.js';
import { delayBeforeAttempt, step } from './elector-state.js';
import type { Observation } from './observation.js';
import { endOfTerm, holderOf, isLeaseValid, NOTHING_OBSERVED, observe, wrote } from './observation.js';
import type { ElectorConfig, LeaderElectorOptions } from './options.js';
import { validateElectorOptions } from './options.js';

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
  return elector(validated.config, options, leaseLock(options.client, options.namespace, options.name));
}

function elector(config: ElectorConfig, options: LeaderElectorOptions, lock: LeaseLock): LeaderElector {
  const { clock, identity, renewDeadline, retryPeriod } = config;
  const cancel = options.signal;
  let observation: Observation = NOTHING_OBSERVED;
  let state: ElectorState = { kind: 'acquiring' };
  let reported = '';
  let running: Promise<void> | undefined;
  let ended = false;
  /** Set when a request found the client closed: the loop ends, and run() rejects with it. */
  let closed: ClientClosedError | undefined;
  /** The fencing token of the term being led (or last led). */
  let token: FencingToken | undefined;

  // Nothing a user's callback does may break the loop: the Lease must still be renewed, released and onStoppedLeading called.
  const report = (error: unknown): void => {
    try {
      config.onError(error);
    } catch {
      // An onError that throws has nowhere left to report to.
    }
  };
  const failed = (error: unknown): void => {
    if (error instanceof ClientClosedError) closed ??= error;
    // A 409 (a stale update's Conflict, a lost create race's AlreadyExists) is the normal end of a race, as client-go
    // treats it (tryAcquireOrRenew returns false); a request cut by our own cancel, or by a closed client, is no failure.
    else if (!(isKubernetesApiError(error) && error.status === 409) && cancel?.aborted !== true) report(error);
  };
  /** Runs a callback; a throw or a rejection is reported, except a rejection with the reason of its own aborted `signal` (work that stopped as asked). */
  const invoke = (callback: () => void | Promise<void>, signal?: AbortSignal): void => {
    try {
      const result = callback();
      if (result instanceof Promise) {
        result.catch((error: unknown) => {
          if (signal?.aborted && (error === signal.reason || (error instanceof Error && error.name === 'AbortError')))
            return;
          report(error);
        });
      }
    } catch (error) {
      report(error);
    }
  };

  const metrics = options.metrics;
  const tell = (figure: (m: LeaderElectionMetrics) => void): void => {
    if (metrics !== undefined) invoke(() => figure(metrics));
  };

  const reportTransition = (): void => {
    const holder = holderOf(observation);
    // Unlike client-go, an empty holder (released) is not announced as a new leader, nor this candidate unless it
    // leads: a write of ours whose reply came too late (elector-state.ts) may already have been overwritten.
    if (holder === reported || holder === '' || (holder === identity && state.kind !== 'leading')) return;
    reported = holder;
    const onNewLeader = options.onNewLeader;
    if (onNewLeader !== undefined) invoke(() => onNewLeader.call(options, holder));
  };

  const freshRecord = (): ElectionRecord => {
    const now = microTimeNow(() => clock.now());
    return {
      holderIdentity: identity,
      leaseDurationSeconds: Math.floor(config.leaseDuration / 1000),
      acquireTime: now,
      renewTime: now,
      leaseTransitions: 0,
    };
  };

  const settle = (lease: ElectionLease): void => {
    observation = wrote(lease, clock.now());
  };

  /** The time the last write was sent: the term a successful one opens is measured from it (elector-state.ts). */
  let sentAt = 0;
  const send = <T>(write: () => Promise<T>): Promise<T> => {
    sentAt = clock.now();
    return write();
  };

  // client-go's tryAcquireOrRenew, fast path included.
  const attempt = async (signal: AbortSignal): Promise<AttemptOutcome> => {
    const startedAt = clock.now();
    sentAt = startedAt;
    const record = freshRecord();
    // 1. The leader updates from its cached object, assuming nobody else wrote: one request per renewal.
    if (
      holderOf(observation) === identity &&
      isLeaseValid(observation, startedAt) &&
      !endOfTerm(observation, identity)
    ) {
      const spec = observation.spec ?? {};
      const fast = await send(() =>
        lock.update(
          {
            ...record,
            acquireTime: spec.acquireTime ?? record.acquireTime,
            leaseTransitions: spec.leaseTransitions ?? 0,
          },
          signal,
        ),
      );
      if (fast.ok) {
        settle(fast.lease);
        return 'renewed';
      }
      failed(fast.error);
      if (signal.aborted) return 'failed';
    }
    // 2. Read (only now, after a conflict or when not leading), or create.
    const read = await lock.get(signal);
    if (read.kind === 'error') {
      failed(read.error);
      return 'failed';
    }
    if (read.kind === 'missing') {
      // Coordinated: the controller creates the Lease, naming its holder (client-go's tryCoordinatedRenew).
      if (config.coordinated) return 'held';
      const created = await send(() => lock.create(record, signal));
      if (!created.ok) {
        failed(created.error);
        return 'failed';
      }
      settle(created.lease);
      return 'acquired';
    }
    observation = observe(observation, read.lease, clock.now());
    const holder = holderOf(observation);
    const leader = holder === identity;
    // Coordinated: only the holder the controller named renews, and only within the term it observed.
    if (config.coordinated && (!leader || !isLeaseValid(observation, startedAt))) return 'held';
    // 3. Never overwrite another holder's lease before it expired by our own observation.
    if (holder !== '' && !leader && isLeaseValid(observation, startedAt)) return 'held';
    if (leader && endOfTerm(observation, identity)) return 'yield';
    // Coordinated mode: the Lease names its next holder, so nobody else takes it, expired or not (client-go's
    // tryCoordinatedRenew never acquires; here the preferred candidate may, once the term has expired).
    if (!leader && endOfTerm(observation, identity)) return 'held';
    const spec = observation.spec ?? {};
    // 4. Keep acquireTime and the count on renewal; a change of holder counts once.
    const next: ElectionRecord = leader
      ? { ...record, acquireTime: spec.acquireTime ?? record.acquireTime, leaseTransitions: spec.leaseTransitions ?? 0 }
      : { ...record, leaseTransitions: (spec.leaseTransitions ?? 0) + 1 };
    // Where client-go counts it: a renewal about to be written after a read, before knowing whether it succeeds.
    if (leader) tell((m) => m.slowpathExercised(config.name));
    const written = await send(() => lock.update(next, signal));
    if (!written.ok) {
      failed(written.error);
      return 'failed';
    }
    settle(written.lease);
    return leader ? 'renewed' : 'acquired';
  };

  // client-go's release(): re-read, and only if we still hold it clear the holder; retry on conflict; all within renewDeadline.
  const release = async (): Promise<void> => {
    const limit = bounded(clock, undefined, clock.now() + renewDeadline);
    try {
      while (!limit.signal.aborted) {
        const read = await lock.get(limit.signal);
        if (read.kind === 'error') report(read.error);
        if (read.kind !== 'found') return;
        observation = observe(observation, read.lease, clock.now());
        if (holderOf(observation) !== identity) return;
        const now = microTimeNow(() => clock.now());
        const leaseTransitions = observation.spec?.leaseTransitions ?? 0;
        const written = await lock.update(
          { holderIdentity: '', leaseDurationSeconds: 1, acquireTime: now, renewTime: now, leaseTransitions },
          limit.signal,
        );
        if (written.ok) return settle(written.lease);
        if (!isConflict(written.error)) return report(written.error);
      }
    } finally {
      limit.dispose();
    }
  };

  const transition = (event: Parameters<typeof step>[1]): void => {
    state = step(state, event, config);
  };

  const loop = async (): Promise<void> => {
    let leading: AbortController | undefined;
    let first = true;
    try {
      while (state.kind === 'acquiring' || state.kind === 'leading') {
        if (!first) {
          try {
            await clock.sleep(delayBeforeAttempt(state, clock.now(), retryPeriod, config.random), cancel);
          } catch {
            transition({ kind: 'cancelled' });
            continue;
          }
          transition({ kind: 'woke', now: clock.now() });
          if (state.kind !== 'acquiring' && state.kind !== 'leading') break;
        }
        first = false;
        if (cancel?.aborted) {
          transition({ kind: 'cancelled' });
          continue;
        }
        const startedAt = clock.now();
        // Acquisition attempts are bounded too, so a hung request cannot stall the loop.
        const limit = bounded(clock, cancel, state.kind === 'leading' ? state.until : startedAt + renewDeadline);
        const wasLeading = state.kind === 'leading';
        const outcome = await attempt(limit.signal);
        limit.dispose();
        transition(
          closed !== undefined
            ? { kind: 'closed' }
            : cancel?.aborted
              ? { kind: 'cancelled' }
              : { kind: 'attempted', outcome, sentAt, now: clock.now() },
        );
        reportTransition();
        if (!wasLeading && state.kind === 'leading') {
          const controller = new AbortController();
          leading = controller;
          // The term's token, from the write that opened it (the Lease as the server accepted it).
          const opened = fencingTokenOf(lock.cached()) ?? {
            leaseTransitions: 0,
            holderIdentity: identity,
            acquireTime: undefined,
          };
          token = opened;
          tell((m) => m.on(config.name));
          // As client-go's `go OnStartedLeading(ctx)`: the loop does not wait for it, and its end (or failure) does not end the term.
          invoke(() => options.onStartedLeading(controller.signal, opened), controller.signal);
        }
      }
      // Stop the guarded work first, then give the lease up.
      leading?.abort(new Error(`stopped leading ${config.namespace}/${config.name}`));
      if (state.kind === 'releasing') {
        await release();
        transition({ kind: 'released' });
        reportTransition();
      }
    } finally {
      leading?.abort(new Error(`stopped leading ${config.namespace}/${config.name}`));
      // client-go's renew() sets the gauge off once its loop ends; a candidate that never led leaves it untouched.
      if (leading !== undefined) tell((m) => m.off(config.name));
      // As client-go's `defer OnStoppedLeading()`: always, led or not.
      invoke(() => options.onStoppedLeading());
      ended = true;
    }
    if (closed !== undefined) throw closed;
  };

  return {
    run: () => {
      if (ended) return Promise.reject(new ElectorEndedError(config.namespace, config.name, config.identity));
      running ??= loop();
      return running;
    },
    isLeader: () => state.kind === 'leading' && clock.now() < state.until,
    fencingToken: () => (state.kind === 'leading' && clock.now() < state.until ? token : undefined),
    getLeader: () => holderOf(observation),
    observed: () => {
      const spec = observation.spec;
      return {
        holderIdentity: holderOf(observation),
        leaseTransitions: spec?.leaseTransitions,
        leaseDurationSeconds: spec?.leaseDurationSeconds,
        preferredHolder: spec?.preferredHolder,
        strategy: spec?.strategy,
        observedAt: Number.isFinite(observation.time) ? observation.time : undefined,
      };
    },
    check: (maxTolerableExpiredLease) => {
      if (holderOf(observation) !== identity) return undefined;
      if (clock.now() - observation.time > config.leaseDuration + maxTolerableExpiredLease) {
        return new Error(`failed election to renew leadership on lease ${config.namespace}/${config.name}`);
      }
      return undefined;
    },
  };
}
