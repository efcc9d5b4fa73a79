/**
 * What a candidate knows of the election: the Lease it last read or wrote
 * and the local time it first saw that record. As client-go, expiry is judged
 * only by that local time plus the record's leaseDurationSeconds, never by
 * renewTime, which another holder's clock wrote. The Lease is kept here and
 * only here: its resourceVersion is what the next update is conditional on
 * (client-go keeps it a second time in resourcelock.LeaseLock; the lock here
 * keeps nothing, lease-lock.ts).
 */

import type { ElectionLease, ElectionLeaseSpec } from './lease-lock.js';

export interface Observation {
  /** The Lease as last read or written; undefined before the first read. */
  lease: ElectionLease | undefined;
  /** The spec as compared for changes (client-go compares the raw record). */
  raw: string;
  /** Local ms when `raw` last changed. */
  time: number;
}

export const NOTHING_OBSERVED: Observation = { lease: undefined, raw: '', time: -Infinity };

/** The record's fields, in a fixed order, as the change detector compares them. */
export function rawRecord(spec: ElectionLeaseSpec | undefined): string {
  const s = spec ?? {};
  return JSON.stringify([
    s.holderIdentity,
    s.leaseDurationSeconds,
    s.acquireTime,
    s.renewTime,
    s.leaseTransitions,
    s.preferredHolder,
    s.strategy,
  ]);
}

/**
 * Moves observedTime only when the record changed, as tryAcquireOrRenew step 2. The Lease itself is always
 * the one just read: an unchanged record under a new resourceVersion (a label changed) is no renewal, but the
 * next update must carry that resourceVersion.
 */
export function observe(previous: Observation, lease: ElectionLease, now: number): Observation {
  const raw = rawRecord(lease.spec);
  return raw === previous.raw ? { ...previous, lease } : { lease, raw, time: now };
}

/** A write of our own is an observation at the time it succeeded. */
export function wrote(lease: ElectionLease, now: number): Observation {
  return { lease, raw: rawRecord(lease.spec), time: now };
}

/** The record last observed ({} before the first read). */
export function recordOf(observation: Observation): ElectionLeaseSpec {
  return observation.lease?.spec ?? {};
}

export function holderOf(observation: Observation): string {
  return recordOf(observation).holderIdentity ?? '';
}

/** client-go's isLeaseValid: observedTime + leaseDurationSeconds is still ahead of now. */
export function isLeaseValid(observation: Observation, now: number): boolean {
  return observation.time + (recordOf(observation).leaseDurationSeconds ?? 0) * 1000 > now;
}

/**
 * Coordinated leader election (1.31+): the Lease names another preferred
 * holder and a strategy, so the holder stops renewing and lets its term end
 * (client-go's tryCoordinatedRenew, "end of term").
 */
export function endOfTerm(observation: Observation, identity: string): boolean {
  const spec = recordOf(observation);
  return !!spec.strategy && !!spec.preferredHolder && spec.preferredHolder !== identity;
}
