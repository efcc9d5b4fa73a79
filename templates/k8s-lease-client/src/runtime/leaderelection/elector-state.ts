/**
 * The elector's state machine: one state type and one pure step function.
 * The driver (elector.ts) performs the effects each state asks for.
 *
 * Timing follows client-go's acquire and renew loops, with two tightenings:
 * - The leader's term ends `renewDeadline` after it sent its last successful
 *   write (client-go counts from the start of each renewal round). Measured
 *   from before the write was sent, it ends before any other candidate, who
 *   waits the written leaseDurationSeconds from when it saw that write, may
 *   take over, because validation (options.ts) requires renewDeadline below
 *   those whole seconds (with clocks ticking at about the same rate); and a
 *   leader that was paused (a stalled process, a long GC) notices on waking
 *   that its term is over before it sends anything.
 * - The same deadline guards the step from acquiring to leading: a successful
 *   acquisition whose reply is handled only after the term it opened could
 *   have ended (the process was paused between sending the write and reading
 *   the answer, and another candidate may have taken the Lease meanwhile)
 *   does not start leading. client-go starts leading on any success
 *   (tryAcquireOrRenew in acquire(), leaderelection.go), however late.
 */

import { JITTER_FACTOR } from './options.js';

export type ElectorState =
  | { kind: 'acquiring' }
  /** Leading; `until` is the local time the term ends without a further successful renewal. */
  | { kind: 'leading'; until: number }
  | { kind: 'releasing' }
  | { kind: 'stopped'; led: boolean };

export type AttemptOutcome = 'acquired' | 'renewed' | 'held' | 'yield' | 'failed';

export type ElectorEvent =
  /**
   * An attempt ended with `outcome` at local time `now`; `sentAt` is when the request that succeeded (the
   * write, or for a failed or held attempt its first request) was sent.
   */
  | { kind: 'attempted'; outcome: AttemptOutcome; sentAt: number; now: number }
  /** Woke up (from a wait or a request) at `now`. */
  | { kind: 'woke'; now: number }
  | { kind: 'cancelled' }
  /** The client was closed: nothing more can be sent, not even a release. */
  | { kind: 'closed' }
  | { kind: 'released' };

export interface StepConfig {
  renewDeadline: number;
  releaseOnCancel: boolean;
}

export function step(state: ElectorState, event: ElectorEvent, config: StepConfig): ElectorState {
  const leaving = (): ElectorState => (config.releaseOnCancel ? { kind: 'releasing' } : { kind: 'stopped', led: true });
  if (event.kind === 'closed' && state.kind !== 'stopped') return { kind: 'stopped', led: state.kind !== 'acquiring' };
  switch (state.kind) {
    case 'acquiring':
      if (event.kind === 'cancelled') return { kind: 'stopped', led: false };
      // 'renewed': the Lease already named us (a restart under the same identity), as client-go, that is success.
      // A success handled after the term it opened could have ended is stale: the next attempt finds out who holds
      // the Lease now (its write conflicts if another candidate took over), rather than leading on an old reply.
      if (event.kind === 'attempted' && (event.outcome === 'acquired' || event.outcome === 'renewed')) {
        const until = event.sentAt + config.renewDeadline;
        return event.now < until ? { kind: 'leading', until } : state;
      }
      return state;
    case 'leading':
      if (event.kind === 'cancelled') return leaving();
      if (event.kind === 'attempted' && (event.outcome === 'renewed' || event.outcome === 'acquired')) {
        // A success that came back after the term ended does not revive it: the other candidates may already act on its expiry.
        return event.now < state.until ? { kind: 'leading', until: event.sentAt + config.renewDeadline } : leaving();
      }
      // Another holder was seen: it took over, so stop now rather than at the end of the term (client-go polls on).
      if (event.kind === 'attempted' && event.outcome === 'held') return leaving();
      if ((event.kind === 'attempted' || event.kind === 'woke') && event.now >= state.until) return leaving();
      return state;
    case 'releasing':
      return event.kind === 'released' ? { kind: 'stopped', led: true } : state;
    case 'stopped':
      return state;
  }
}

/** How long to wait before the next attempt: a jittered retryPeriod while acquiring (wait.JitterUntil), retryPeriod while leading, never past the term. */
export function delayBeforeAttempt(
  state: ElectorState,
  now: number,
  retryPeriod: number,
  random: () => number,
): number {
  if (state.kind === 'leading') return Math.max(0, Math.min(retryPeriod, state.until - now));
  return retryPeriod * (1 + random() * JITTER_FACTOR);
}
