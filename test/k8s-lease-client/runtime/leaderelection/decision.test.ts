// One attempt's decision, without a server or a clock: every branch of decideAttempt
// (templates/k8s-lease-client/src/runtime/leaderelection/decision.ts). Each row cites the branch of client-go's
// tools/leaderelection/leaderelection.go (tryAcquireOrRenew, tryCoordinatedRenew) that fixes its answer, or the
// tightening the module states where this elector differs.
import { describe, expect, it } from 'vitest';
import type {
  Decision,
  DecisionOptions,
  LeaseRead,
} from '../../../../templates/k8s-lease-client/src/runtime/leaderelection/decision.js';
import { decideAttempt } from '../../../../templates/k8s-lease-client/src/runtime/leaderelection/decision.js';
import type {
  ElectionLeaseSpec,
  ElectionRecord,
} from '../../../../templates/k8s-lease-client/src/runtime/leaderelection/lease-lock.js';
import type { Observation } from '../../../../templates/k8s-lease-client/src/runtime/leaderelection/observation.js';
import {
  NOTHING_OBSERVED,
  wrote,
} from '../../../../templates/k8s-lease-client/src/runtime/leaderelection/observation.js';
import { asMicroTime, microTimeNow } from '../../../../templates/k8s-lease-client/src/runtime/time.js';

const ME = 'me';
const SEEN_AT = Date.UTC(2026, 0, 1);
/** Within the 15 s the record says, counted from when it was seen. */
const VALID = SEEN_AT + 14_999;
/** isLeaseValid's time.After is strict: at observedTime + leaseDuration the Lease has expired. */
const EXPIRED = SEEN_AT + 15_000;
const ACQUIRED = asMicroTime('2026-01-01T00:00:00.000000Z');
const PLAIN: DecisionOptions = { identity: ME, leaseDuration: 15_500, coordinated: false };
const COORDINATED: DecisionOptions = { ...PLAIN, coordinated: true };

const seen = (spec: ElectionLeaseSpec): Observation =>
  wrote({ metadata: { name: 'l', namespace: 'default', resourceVersion: '7' }, spec }, SEEN_AT);
const heldBy = (holderIdentity: string, extra: ElectionLeaseSpec = {}): Observation =>
  seen({
    holderIdentity,
    leaseDurationSeconds: 15,
    acquireTime: ACQUIRED,
    renewTime: ACQUIRED,
    leaseTransitions: 4,
    ...extra,
  });
const endOfTermFor = (preferredHolder: string): ElectionLeaseSpec => ({
  preferredHolder,
  strategy: 'OldestEmulationVersion',
});

/** tryAcquireOrRenew's fresh leaderElectionRecord at `now`: leaseDurationSeconds in whole seconds. */
const fresh = (now: number, leaseTransitions = 0): ElectionRecord => ({
  holderIdentity: ME,
  leaseDurationSeconds: 15,
  acquireTime: microTimeNow(() => now),
  renewTime: microTimeNow(() => now),
  leaseTransitions,
});
/** A renewal keeps the term's acquireTime and the count. */
const renewal = (now: number): ElectionRecord => ({ ...fresh(now), acquireTime: ACQUIRED, leaseTransitions: 4 });

interface Row {
  name: string;
  read: LeaseRead;
  observation: Observation;
  now: number;
  options?: DecisionOptions;
  expected: Decision;
}

const rows: Row[] = [
  // Before any request.
  {
    name: 'tryAcquireOrRenew step 1: the leader within its lease renews from the observed Lease, without a read',
    read: 'unread',
    observation: heldBy(ME),
    now: VALID,
    expected: { kind: 'renew', path: 'fast', record: renewal(VALID) },
  },
  {
    name: 'tryAcquireOrRenew step 1 (IsLeader false): a candidate that is not the observed holder reads first',
    read: 'unread',
    observation: heldBy('other'),
    now: VALID,
    expected: { kind: 'read' },
  },
  {
    name: 'tryAcquireOrRenew step 1 (isLeaseValid false): a leader whose lease expired by its own clock reads first',
    read: 'unread',
    observation: heldBy(ME),
    now: EXPIRED,
    expected: { kind: 'read' },
  },
  {
    name: 'tryAcquireOrRenew step 1: nothing observed yet, nothing to renew from',
    read: 'unread',
    observation: NOTHING_OBSERVED,
    now: VALID,
    expected: { kind: 'read' },
  },
  {
    name: 'tryCoordinatedRenew step 2b, before the read: a leader at the end of its term does not take the fast path',
    read: 'unread',
    observation: heldBy(ME, endOfTermFor('better')),
    now: VALID,
    options: COORDINATED,
    expected: { kind: 'read' },
  },
  // The Lease does not exist.
  {
    name: 'tryAcquireOrRenew step 2 (IsNotFound): create the Lease with a fresh record, no transitions',
    read: 'missing',
    observation: NOTHING_OBSERVED,
    now: VALID,
    expected: { kind: 'acquire', write: 'create', record: fresh(VALID) },
  },
  {
    name: 'tryCoordinatedRenew step 1 (IsNotFound returns false): the controller creates the Lease, not the candidate',
    read: 'missing',
    observation: NOTHING_OBSERVED,
    now: VALID,
    options: COORDINATED,
    expected: { kind: 'hold' },
  },
  // After a read found the Lease.
  {
    name: 'tryAcquireOrRenew step 3: held by another and not expired by our observation: hold',
    read: 'found',
    observation: heldBy('other'),
    now: VALID,
    expected: { kind: 'hold' },
  },
  {
    name: 'tryAcquireOrRenew step 4 (not IsLeader): another’s expired lease is taken, leaderTransitions + 1',
    read: 'found',
    observation: heldBy('other'),
    now: EXPIRED,
    expected: { kind: 'acquire', write: 'update', record: fresh(EXPIRED, 5) },
  },
  {
    name: 'tryAcquireOrRenew step 3 (empty HolderIdentity): a released Lease is taken at once, leaderTransitions + 1',
    read: 'found',
    observation: seen({ holderIdentity: '', leaseDurationSeconds: 1, leaseTransitions: 4 }),
    now: SEEN_AT,
    expected: { kind: 'acquire', write: 'update', record: fresh(SEEN_AT, 5) },
  },
  {
    name: 'tryAcquireOrRenew step 4 (IsLeader): the slow path renews, keeping acquireTime and leaderTransitions',
    read: 'found',
    observation: heldBy(ME),
    now: VALID,
    expected: { kind: 'renew', path: 'slow', record: renewal(VALID) },
  },
  {
    name: 'tryAcquireOrRenew step 4 (IsLeader): a Lease naming us after expiry (a restart) is renewed, not re-counted',
    read: 'found',
    observation: heldBy(ME),
    now: EXPIRED,
    expected: { kind: 'renew', path: 'slow', record: renewal(EXPIRED) },
  },
  {
    name: 'tryCoordinatedRenew step 2b: the leader at the end of its term (another preferredHolder) yields',
    read: 'found',
    observation: heldBy(ME, endOfTermFor('better')),
    now: VALID,
    options: COORDINATED,
    expected: { kind: 'yield' },
  },
  {
    name: 'tryCoordinatedRenew step 2b, also uncoordinated (client-go’s tryAcquireOrRenew ignores preferredHolder): yield',
    read: 'found',
    observation: heldBy(ME, endOfTermFor('better')),
    now: VALID,
    expected: { kind: 'yield' },
  },
  {
    name: 'tryCoordinatedRenew step 3 (IsLeader): the holder the controller named renews while its term is valid',
    read: 'found',
    observation: heldBy(ME, { strategy: 'OldestEmulationVersion' }),
    now: VALID,
    options: COORDINATED,
    expected: {
      kind: 'renew',
      path: 'slow',
      record: renewal(VALID),
    },
  },
  {
    name: 'tryCoordinatedRenew step 2 (hasExpired): the named holder does not renew a term that expired',
    read: 'found',
    observation: heldBy(ME),
    now: EXPIRED,
    options: COORDINATED,
    expected: { kind: 'hold' },
  },
  {
    name: 'tryCoordinatedRenew step 2 (not IsLeader): a candidate the Lease does not name never takes it, expired or not',
    read: 'found',
    observation: heldBy('other'),
    now: EXPIRED,
    options: COORDINATED,
    expected: { kind: 'hold' },
  },
  {
    name: 'end of term for another, uncoordinated: once expired, only the preferred holder may take it (module comment)',
    read: 'found',
    observation: heldBy('other', endOfTermFor('better')),
    now: EXPIRED,
    expected: { kind: 'hold' },
  },
  {
    name: 'end of term naming us as preferredHolder: the expired Lease is ours to take (tryAcquireOrRenew step 4)',
    read: 'found',
    observation: heldBy('other', endOfTermFor(ME)),
    now: EXPIRED,
    expected: { kind: 'acquire', write: 'update', record: fresh(EXPIRED, 5) },
  },
];

describe('decideAttempt', () => {
  it.each(rows)('$name', ({ read, observation, now, options, expected }) => {
    expect(decideAttempt(read, observation, now, options ?? PLAIN)).toEqual(expected);
  });

  it('writes leaseDurationSeconds as the whole seconds of leaseDuration (int(LeaseDuration / time.Second))', () => {
    const decision = decideAttempt('missing', NOTHING_OBSERVED, VALID, { ...PLAIN, leaseDuration: 2_999 });
    expect(decision.kind === 'acquire' && decision.record.leaseDurationSeconds).toBe(2);
  });
});
