// One attempt of the elector carried out against an in-memory lock
// (templates/k8s-lease-client/src/runtime/leaderelection/elector-attempt.ts): the requests each decision of
// decision.ts leads to, in client-go's tryAcquireOrRenew order (tools/leaderelection/leaderelection.go: the
// leader's optimistic update first, then Get, then Create or Update), and the observation that comes out.
import { describe, expect, it } from 'vitest';
import type { AttemptContext } from '../../../../templates/k8s-lease-client/src/runtime/leaderelection/elector-attempt.js';
import { attempt } from '../../../../templates/k8s-lease-client/src/runtime/leaderelection/elector-attempt.js';
import type {
  ElectionLease,
  ElectionLeaseSpec,
  LeaseLock,
  LockWrite,
} from '../../../../templates/k8s-lease-client/src/runtime/leaderelection/lease-lock.js';
import type { Observation } from '../../../../templates/k8s-lease-client/src/runtime/leaderelection/observation.js';
import {
  NOTHING_OBSERVED,
  wrote,
} from '../../../../templates/k8s-lease-client/src/runtime/leaderelection/observation.js';
import { asMicroTime } from '../../../../templates/k8s-lease-client/src/runtime/time.js';

const NOW = Date.UTC(2026, 0, 1, 0, 0, 5);
const ACQUIRED = asMicroTime('2026-01-01T00:00:00.000000Z');

const leaseOf = (resourceVersion: string, spec: ElectionLeaseSpec): ElectionLease => ({
  metadata: { name: 'l', namespace: 'default', resourceVersion },
  spec,
});
const heldBy = (holderIdentity: string, resourceVersion: string, extra: ElectionLeaseSpec = {}): ElectionLease =>
  leaseOf(resourceVersion, {
    holderIdentity,
    leaseDurationSeconds: 15,
    acquireTime: ACQUIRED,
    renewTime: ACQUIRED,
    leaseTransitions: 3,
    ...extra,
  });

/** A lock over one stored Lease that records each request; an update whose base is stale is a conflict. */
function memoryLock(initial: ElectionLease | undefined, readFails = false) {
  let stored = initial;
  const requests: string[] = [];
  const written = (lease: ElectionLease): LockWrite => {
    stored = lease;
    return { ok: true, lease };
  };
  const lock: LeaseLock = {
    get: async () => {
      requests.push('get');
      if (readFails) return { kind: 'error', error: new Error('read failed') };
      return stored === undefined ? { kind: 'missing' } : { kind: 'found', lease: stored };
    },
    create: async (spec) => {
      requests.push('create');
      return stored === undefined ? written(leaseOf('1', spec)) : { ok: false, error: new Error('AlreadyExists') };
    },
    update: async (base, fields) => {
      const rv = base.metadata?.resourceVersion;
      requests.push(`update@${rv}`);
      if (stored === undefined || rv !== stored.metadata?.resourceVersion)
        return { ok: false, error: new Error('Conflict') };
      return written(leaseOf(String(Number(rv) + 1), { ...base.spec, ...fields }));
    },
  };
  return { lock, requests };
}

function run(lock: LeaseLock, before: Observation, coordinated = false) {
  const failures: unknown[] = [];
  let slowPaths = 0;
  const ctx: AttemptContext = {
    lock,
    clock: { now: () => NOW, sleep: async () => undefined },
    decision: { identity: 'me', leaseDuration: 15_000, coordinated },
    failed: (error) => failures.push(error),
    slowPath: () => slowPaths++,
  };
  return attempt(ctx, before, new AbortController().signal).then((result) => ({ result, failures, slowPaths }));
}

describe('attempt', () => {
  it('the leader within its lease renews from the observed Lease with one update (tryAcquireOrRenew step 1)', async () => {
    const { lock, requests } = memoryLock(heldBy('me', '7'));
    const { result, failures, slowPaths } = await run(lock, wrote(heldBy('me', '7'), NOW - 2_000));
    expect(requests).toEqual(['update@7']);
    expect(result.outcome).toBe('renewed');
    expect(result.sentAt).toBe(NOW);
    expect(result.observation.lease?.metadata?.resourceVersion).toBe('8');
    expect(result.observation.lease?.spec).toMatchObject({
      holderIdentity: 'me',
      acquireTime: ACQUIRED,
      leaseTransitions: 3,
    });
    expect(result.observation.time).toBe(NOW);
    expect([failures, slowPaths]).toEqual([[], 0]);
  });

  it('a failed optimistic update falls back to a read and an update over what was read (the slow path)', async () => {
    const { lock, requests } = memoryLock(heldBy('me', '9'));
    const { result, failures, slowPaths } = await run(lock, wrote(heldBy('me', '7'), NOW - 2_000));
    expect(requests).toEqual(['update@7', 'get', 'update@9']);
    expect(result.outcome).toBe('renewed');
    expect(failures).toEqual([new Error('Conflict')]);
    expect(slowPaths).toBe(1);
  });

  it('a missing Lease is created (tryAcquireOrRenew step 2), unless coordinated (tryCoordinatedRenew)', async () => {
    const plain = memoryLock(undefined);
    const created = await run(plain.lock, NOTHING_OBSERVED);
    expect(plain.requests).toEqual(['get', 'create']);
    expect(created.result.outcome).toBe('acquired');
    expect(created.result.observation.lease?.spec).toMatchObject({ holderIdentity: 'me', leaseTransitions: 0 });
    const coordinated = memoryLock(undefined);
    expect((await run(coordinated.lock, NOTHING_OBSERVED, true)).result.outcome).toBe('held');
    expect(coordinated.requests).toEqual(['get']);
  });

  it('another holder’s valid Lease: one read, nothing written, the read observed (tryAcquireOrRenew step 3)', async () => {
    const { lock, requests } = memoryLock(heldBy('other', '4'));
    const { result } = await run(lock, NOTHING_OBSERVED);
    expect(requests).toEqual(['get']);
    expect(result.outcome).toBe('held');
    expect(result.observation.lease).toEqual(heldBy('other', '4'));
    expect(result.observation.time).toBe(NOW);
  });

  it('an expired Lease of another is taken over what was read, one more transition (step 4)', async () => {
    const { lock, requests } = memoryLock(heldBy('other', '4'));
    const before = wrote(heldBy('other', '4'), NOW - 15_000);
    const { result } = await run(lock, before);
    expect(requests).toEqual(['get', 'update@4']);
    expect(result.outcome).toBe('acquired');
    expect(result.observation.lease?.spec).toMatchObject({ holderIdentity: 'me', leaseTransitions: 4 });
  });

  it('the leader at the end of its term yields without writing (tryCoordinatedRenew step 2b)', async () => {
    const endOfTerm = heldBy('me', '7', { preferredHolder: 'better', strategy: 'OldestEmulationVersion' });
    const { lock, requests } = memoryLock(endOfTerm);
    const { result } = await run(lock, wrote(endOfTerm, NOW - 2_000), true);
    expect(requests).toEqual(['get']);
    expect(result.outcome).toBe('yield');
  });

  it('a failed read is a failed attempt that keeps the observation it had', async () => {
    const { lock } = memoryLock(heldBy('other', '4'), true);
    const before = wrote(heldBy('other', '3'), NOW - 1_000);
    const { result, failures } = await run(lock, before);
    expect(result.outcome).toBe('failed');
    expect(result.observation).toBe(before);
    expect(failures).toEqual([new Error('read failed')]);
  });
});
