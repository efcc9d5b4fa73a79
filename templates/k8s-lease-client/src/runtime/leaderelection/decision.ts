/**
 * What one attempt of the elector does, decided without I/O: client-go's
 * tryAcquireOrRenew (and, in coordinated mode, tryCoordinatedRenew) in
 * tools/leaderelection/leaderelection.go, cut at its two points of decision.
 * Before any request (nothing read yet), the leader renews from the Lease it
 * observed (the fast path, step 1) or the attempt reads. After the read (the
 * Lease folded into the observation, or missing), it holds back, yields, or
 * writes, and this says the record to write. The elector (elector-attempt.ts)
 * only carries the decision out.
 */

import type { MicroTime } from '../time.js';
import { microTimeNow } from '../time.js';
import type { ElectionRecord } from './lease-lock.js';
import type { Observation } from './observation.js';
import { endOfTerm, holderOf, isLeaseValid, recordOf } from './observation.js';

/** What the attempt knows of the Lease: nothing read yet, that it does not exist, or (in the observation) what a read found. */
export type LeaseRead = 'unread' | 'missing' | 'found';

export interface DecisionOptions {
  identity: string;
  /** ms; written as whole leaseDurationSeconds. */
  leaseDuration: number;
  coordinated: boolean;
}

export type Decision =
  /** Nothing to act on without reading the Lease first. */
  | { kind: 'read' }
  /** Another candidate holds the Lease (or, coordinated, it is not ours to renew): write nothing, try again later. */
  | { kind: 'hold' }
  /** Coordinated end of term: the Lease names another preferred holder; stop renewing and let the term end. */
  | { kind: 'yield' }
  /** Take the Lease: create it (missing) or write it over the expired or free record. */
  | { kind: 'acquire'; write: 'create' | 'update'; record: ElectionRecord }
  /** Renew our own term: from the observed Lease without reading (fast) or after a read (slow, client-go's slow path). */
  | { kind: 'renew'; path: 'fast' | 'slow'; record: ElectionRecord };

/** tryAcquireOrRenew's one decision: `now` is the local time the attempt started, as client-go's `now`. */
export function decideAttempt(
  read: LeaseRead,
  observation: Observation,
  now: number,
  options: DecisionOptions,
): Decision {
  const fresh = freshRecord(
    microTimeNow(() => now),
    options,
  );
  const leader = holderOf(observation) === options.identity;
  const valid = isLeaseValid(observation, now);
  // Coordinated mode: the Lease names its next holder, so nobody else takes it, expired or not.
  const termEnded = endOfTerm(observation, options.identity);
  if (read === 'unread') {
    return leader && valid && !termEnded
      ? { kind: 'renew', path: 'fast', record: kept(fresh, observation) }
      : { kind: 'read' };
  }
  if (read === 'missing') {
    // Coordinated: the controller creates the Lease, naming its holder (tryCoordinatedRenew returns false).
    return options.coordinated ? { kind: 'hold' } : { kind: 'acquire', write: 'create', record: fresh };
  }
  if (options.coordinated && (!leader || !valid)) return { kind: 'hold' };
  if (holderOf(observation) !== '' && !leader && valid) return { kind: 'hold' };
  if (termEnded) return leader ? { kind: 'yield' } : { kind: 'hold' };
  if (leader) return { kind: 'renew', path: 'slow', record: kept(fresh, observation) };
  const transitions = recordOf(observation).leaseTransitions ?? 0;
  return { kind: 'acquire', write: 'update', record: { ...fresh, leaseTransitions: transitions + 1 } };
}

/** The record tryAcquireOrRenew starts from: this candidate, now, no transitions yet. */
function freshRecord(now: MicroTime, options: DecisionOptions): ElectionRecord {
  return {
    holderIdentity: options.identity,
    leaseDurationSeconds: Math.floor(options.leaseDuration / 1000),
    acquireTime: now,
    renewTime: now,
    leaseTransitions: 0,
  };
}

/** A renewal keeps the term's acquireTime and the count of transitions (tryAcquireOrRenew steps 1 and 4). */
function kept(fresh: ElectionRecord, observation: Observation): ElectionRecord {
  const spec = recordOf(observation);
  return { ...fresh, acquireTime: spec.acquireTime ?? fresh.acquireTime, leaseTransitions: spec.leaseTransitions ?? 0 };
}
