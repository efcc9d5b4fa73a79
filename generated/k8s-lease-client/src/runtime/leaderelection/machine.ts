// Copied by lease-api-generator from templates/runtime/leaderelection/machine.ts. DO NOT EDIT: edit that file and run `npm run generate`.
/**
 * The elector's state machine: one state type and one pure step function.
 * The driver (elector.ts) performs the effects each state asks for.
 *
 * Timing follows client-go's acquire and renew loops, with one tightening:
 * the leader's term ends `renewDeadline` after the start of its last
 * successful renewal (client-go counts from the start of each renewal round).
 * Measured from before the write was sent, it ends before any other
 * candidate, who waits the written leaseDurationSeconds from when it saw that
 * write, may take over, because validation (options.ts) requires renewDeadline
 * below those whole seconds (with clocks ticking at about the same rate); and
 * a leader that was paused (a stalled process, a long GC) notices on waking
 * that its term is over before it sends anything.
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
  | { kind: 'attempted'; outcome: AttemptOutcome; startedAt: number; now: number }
  /** Woke up (from a wait or a request) at `now`. */
  | { kind: 'woke'; now: number }
  | { kind: 'cancelled' }
  | { kind: 'released' };

export interface StepConfig {
  renewDeadline: number;
  releaseOnCancel: boolean;
}

export function step(state: ElectorState, event: ElectorEvent, config: StepConfig): ElectorState {
  const leaving = (): ElectorState => (config.releaseOnCancel ? { kind: 'releasing' } : { kind: 'stopped', led: true });
  switch (state.kind) {
    case 'acquiring':
      if (event.kind === 'cancelled') return { kind: 'stopped', led: false };
      // 'renewed': the Lease already named us (a restart under the same identity), as client-go, that is success.
      if (event.kind === 'attempted' && (event.outcome === 'acquired' || event.outcome === 'renewed')) {
        return { kind: 'leading', until: event.startedAt + config.renewDeadline };
      }
      return state;
    case 'leading':
      if (event.kind === 'cancelled') return leaving();
      if (event.kind === 'attempted' && (event.outcome === 'renewed' || event.outcome === 'acquired')) {
        // A success that came back after the term ended does not revive it: the other candidates may already act on its expiry.
        return event.now < state.until ? { kind: 'leading', until: event.startedAt + config.renewDeadline } : leaving();
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
