/**
 * One attempt of the elector, as client-go's tryAcquireOrRenew: asks
 * decision.ts what to do, and carries it out (at most a renewal from the
 * observed Lease, a read, and one write). Nothing is decided here; the
 * observation goes in and comes out as a value.
 */

import type { ElectionClock } from './clock.js';
import type { Decision, DecisionOptions } from './decision.js';
import { decideAttempt } from './decision.js';
import type { AttemptOutcome } from './elector-state.js';
import type { ElectionLease, LeaseLock } from './lease-lock.js';
import type { Observation } from './observation.js';
import { observe, wrote } from './observation.js';

export interface AttemptContext {
  lock: LeaseLock;
  clock: ElectionClock;
  decision: DecisionOptions;
  /** Told of each request that failed; the elector tells a lost race from a failure. */
  failed(error: unknown): void;
  /** A renewal about to be written after a read (client-go's slowpathExercised). */
  slowPath(): void;
}

/** How an attempt ended: its outcome, when the write that succeeded was sent, and the observation after it. */
export interface Attempted {
  outcome: AttemptOutcome;
  /** When the successful write was sent (the term it opens counts from it, elector-state.ts); else the attempt's start. */
  sentAt: number;
  observation: Observation;
}

export async function attempt(ctx: AttemptContext, before: Observation, signal: AbortSignal): Promise<Attempted> {
  const startedAt = ctx.clock.now();
  const first = decideAttempt('unread', before, startedAt, ctx.decision);
  // 1. The leader updates from the Lease it observed, assuming nobody else wrote: one request per renewal.
  if (first.kind === 'renew' && before.lease !== undefined) {
    const fast = await write(ctx, first, before.lease, before, signal);
    if (fast.outcome !== 'failed' || signal.aborted) return fast;
  }
  // 2. Read (only now, after a failed fast path or when not leading), then decide on what was read.
  const read = await ctx.lock.get(signal);
  if (read.kind === 'error') {
    ctx.failed(read.error);
    return { outcome: 'failed', sentAt: startedAt, observation: before };
  }
  const observation = read.kind === 'found' ? observe(before, read.lease, ctx.clock.now()) : before;
  const decision = decideAttempt(read.kind, observation, startedAt, ctx.decision);
  if (decision.kind === 'hold' || decision.kind === 'yield' || decision.kind === 'read') {
    return { outcome: decision.kind === 'yield' ? 'yield' : 'held', sentAt: startedAt, observation };
  }
  if (decision.kind === 'renew') ctx.slowPath();
  return write(ctx, decision, read.kind === 'found' ? read.lease : undefined, observation, signal);
}

/**
 * Carries out a write the decision asked for: an update over `base` (the Lease just read, or observed for the fast
 * path), or, with no Lease to write over (the read found none), a create.
 */
async function write(
  ctx: AttemptContext,
  decision: Extract<Decision, { record: unknown }>,
  base: ElectionLease | undefined,
  observation: Observation,
  signal: AbortSignal,
): Promise<Attempted> {
  const sentAt = ctx.clock.now();
  const written =
    base === undefined
      ? await ctx.lock.create(decision.record, signal)
      : await ctx.lock.update(base, decision.record, signal);
  if (!written.ok) {
    ctx.failed(written.error);
    return { outcome: 'failed', sentAt, observation };
  }
  return {
    outcome: decision.kind === 'renew' ? 'renewed' : 'acquired',
    sentAt,
    observation: wrote(written.lease, ctx.clock.now()),
  };
}
