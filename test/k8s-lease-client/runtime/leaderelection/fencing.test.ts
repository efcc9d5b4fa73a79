// Fencing tokens read from a Lease (templates/k8s-lease-client/src/runtime/leaderelection/fencing.ts). client-go has none; the fields are
// the Lease's own: leaseTransitions counts changes of holder (client-go tools/leaderelection/leaderelection.go
// tryAcquireOrRenew: `LeaderTransitions = oldLeaderElectionRecord.LeaderTransitions + 1` when the holder changes).
import { describe, expect, it } from 'vitest';
import {
  compareFencingTokens,
  fencingTokenOf,
  holdsFencingToken,
} from '../../../../templates/k8s-lease-client/src/runtime/leaderelection/fencing.js';
import type { ElectionLease } from '../../../../templates/k8s-lease-client/src/runtime/leaderelection/lease-lock.js';
import { asMicroTime } from '../../../../templates/k8s-lease-client/src/runtime/time.js';

const T1 = asMicroTime('2026-01-01T00:00:00.000001Z');
const T2 = asMicroTime('2026-01-01T00:00:09.000001Z');
const lease = (holderIdentity: string | undefined, leaseTransitions: number | undefined, acquireTime = T1) =>
  ({ spec: { holderIdentity, leaseTransitions, acquireTime } }) as ElectionLease;

describe('fencing tokens', () => {
  it('are read from the Lease: transitions (0 when absent), holder and acquireTime', () => {
    expect(fencingTokenOf(lease('a', 3))).toEqual({ leaseTransitions: 3, holderIdentity: 'a', acquireTime: T1 });
    expect(fencingTokenOf(lease('a', undefined))?.leaseTransitions).toBe(0);
  });

  it('there is none without a holder (a released Lease) or without a Lease', () => {
    expect(fencingTokenOf(lease('', 3))).toBeUndefined();
    expect(fencingTokenOf(lease(undefined, 3))).toBeUndefined();
    expect(fencingTokenOf(undefined)).toBeUndefined();
  });

  it('a Lease holds a token only while it records the same term', () => {
    const token = { leaseTransitions: 3, holderIdentity: 'a', acquireTime: T1 };
    expect(holdsFencingToken(lease('a', 3), token)).toBe(true);
    expect(holdsFencingToken(lease('b', 4), token)).toBe(false);
    // Released and taken again by the same holder: a new term.
    expect(holdsFencingToken(lease('a', 4, T2), token)).toBe(false);
    // Deleted and created again: the count starts over, acquireTime tells the terms apart.
    expect(holdsFencingToken(lease('a', 3, T2), token)).toBe(false);
    expect(holdsFencingToken(lease('', 3), token)).toBe(false);
  });

  it('order by leaseTransitions: an older term compares below a newer one', () => {
    const older = { leaseTransitions: 3, holderIdentity: 'a', acquireTime: T1 };
    const newer = { leaseTransitions: 4, holderIdentity: 'b', acquireTime: T2 };
    expect(compareFencingTokens(older, newer)).toBeLessThan(0);
    expect(compareFencingTokens(newer, older)).toBeGreaterThan(0);
    expect(compareFencingTokens(older, { ...older })).toBe(0);
  });
});
