/**
 * What a candidate knows of the election: the record it last saw and the
 * local time it first saw it. As client-go, expiry is judged only by that
 * local time plus the record's leaseDurationSeconds, never by renewTime,
 * which another holder's clock wrote.
 */

import type { ElectionLease, ElectionLeaseSpec } from './lease-lock.js';

export interface Observation {
  spec: ElectionLeaseSpec | undefined;
  /** The spec as compared for changes (client-go compares the raw record). */
  raw: string;
  /** Local ms when `raw` last changed. */
  time: number;
}

export const NOTHING_OBSERVED: Observation = { spec: undefined, raw: '', time: -Infinity };

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

/** Moves observedTime only when the record changed, as tryAcquireOrRenew step 2. */
export function observe(previous: Observation, lease: ElectionLease, now: number): Observation {
  const raw = rawRecord(lease.spec);
  return raw === previous.raw ? previous : { spec: lease.spec, raw, time: now };
}

/** A write of our own is an observation at the time it succeeded. */
export function wrote(lease: ElectionLease, now: number): Observation {
  return { spec: lease.spec, raw: rawRecord(lease.spec), time: now };
}

export function holderOf(observation: Observation): string {
  return observation.spec?.holderIdentity ?? '';
}

/** client-go's isLeaseValid: observedTime + leaseDurationSeconds is still ahead of now. */
export function isLeaseValid(observation: Observation, now: number): boolean {
  return observation.time + (observation.spec?.leaseDurationSeconds ?? 0) * 1000 > now;
}

/**
 * Coordinated leader election (1.31+): the Lease names another preferred
 * holder and a strategy, so the holder stops renewing and lets its term end
 * (client-go's tryCoordinatedRenew, "end of term").
 */
export function endOfTerm(observation: Observation, identity: string): boolean {
  const spec = observation.spec;
  return !!spec?.strategy && !!spec.preferredHolder && spec.preferredHolder !== identity;
}
