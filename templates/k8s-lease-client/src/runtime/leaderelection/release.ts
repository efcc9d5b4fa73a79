/**
 * client-go's release(): re-read the Lease and, only if this candidate still
 * holds it, clear the holder (leaseDurationSeconds 1, so others take over at
 * once); retry on conflict; all within renewDeadline.
 */

import { isConflict } from '../errors.js';
import { microTimeNow } from '../time.js';
import { bounded } from './bounded.js';
import type { ElectionClock } from './clock.js';
import type { LeaseLock } from './lease-lock.js';
import type { Observation } from './observation.js';
import { holderOf, observe, recordOf, wrote } from './observation.js';

export interface ReleaseContext {
  lock: LeaseLock;
  clock: ElectionClock;
  identity: string;
  renewDeadline: number;
  report(error: unknown): void;
}

/** Releases the Lease if this candidate holds it; returns the observation after the reads and the write. */
export async function release(ctx: ReleaseContext, before: Observation): Promise<Observation> {
  const { clock, lock } = ctx;
  const limit = bounded(clock, undefined, clock.now() + ctx.renewDeadline);
  let observation = before;
  try {
    while (!limit.signal.aborted) {
      const read = await lock.get(limit.signal);
      if (read.kind === 'error') ctx.report(read.error);
      if (read.kind !== 'found') return observation;
      observation = observe(observation, read.lease, clock.now());
      if (holderOf(observation) !== ctx.identity) return observation;
      const now = microTimeNow(() => clock.now());
      const leaseTransitions = recordOf(observation).leaseTransitions ?? 0;
      const written = await lock.update(
        read.lease,
        { holderIdentity: '', leaseDurationSeconds: 1, acquireTime: now, renewTime: now, leaseTransitions },
        limit.signal,
      );
      if (written.ok) return wrote(written.lease, clock.now());
      if (!isConflict(written.error)) {
        ctx.report(written.error);
        return observation;
      }
    }
    return observation;
  } finally {
    limit.dispose();
  }
}
