// What a candidate knows of the election, checked without a server or a clock. The rules are client-go's
// (tools/leaderelection/leaderelection.go): tryAcquireOrRenew step 2 moves observedTime only when the raw record
// changed; isLeaseValid is observedTime + leaseDurationSeconds strictly after now (time.Time.After); the
// coordinated "end of term" is tryCoordinatedRenew's check of preferredHolder and strategy.
import { describe, expect, it } from 'vitest';
import type {
  ElectionLease,
  ElectionLeaseSpec,
} from '../../../../templates/k8s-lease-client/src/runtime/leaderelection/lease-lock.js';
import {
  endOfTerm,
  holderOf,
  isLeaseValid,
  NOTHING_OBSERVED,
  observe,
  rawRecord,
  wrote,
} from '../../../../templates/k8s-lease-client/src/runtime/leaderelection/observation.js';
import type { Observation } from '../../../../templates/k8s-lease-client/src/runtime/leaderelection/observation.js';
import { asMicroTime } from '../../../../templates/k8s-lease-client/src/runtime/time.js';

const SPEC: ElectionLeaseSpec = {
  holderIdentity: 'a',
  leaseDurationSeconds: 15,
  acquireTime: asMicroTime('2026-01-01T00:00:00.000000Z'),
  renewTime: asMicroTime('2026-01-01T00:00:10.000000Z'),
  leaseTransitions: 2,
};
const leaseWith = (spec: ElectionLeaseSpec | undefined, resourceVersion = '1'): ElectionLease => ({
  metadata: { name: 'l', namespace: 'default', resourceVersion },
  ...(spec === undefined ? {} : { spec }),
});

describe('rawRecord', () => {
  it('compares the record fields only, in a fixed order, whatever order the object has', () => {
    const reordered: ElectionLeaseSpec = {
      leaseTransitions: 2,
      renewTime: asMicroTime('2026-01-01T00:00:10.000000Z'),
      acquireTime: asMicroTime('2026-01-01T00:00:00.000000Z'),
      leaseDurationSeconds: 15,
      holderIdentity: 'a',
    };
    expect(rawRecord(reordered)).toBe(rawRecord(SPEC));
    expect(rawRecord({ ...SPEC, unknownField: 'x' } as ElectionLeaseSpec)).toBe(rawRecord(SPEC));
  });

  it.each<[string, ElectionLeaseSpec]>([
    ['holderIdentity', { holderIdentity: 'b' }],
    ['leaseDurationSeconds', { leaseDurationSeconds: 16 }],
    ['acquireTime', { acquireTime: asMicroTime('2026-01-01T00:00:01.000000Z') }],
    ['renewTime', { renewTime: asMicroTime('2026-01-01T00:00:12.000000Z') }],
    ['leaseTransitions', { leaseTransitions: 3 }],
    ['preferredHolder', { preferredHolder: 'b' }],
    ['strategy', { strategy: 'OldestEmulationVersion' }],
  ])('tells a change of %s', (_field, change) => {
    expect(rawRecord({ ...SPEC, ...change })).not.toBe(rawRecord(SPEC));
  });

  it('reads a Lease without a spec as an empty record', () => {
    expect(rawRecord(undefined)).toBe(rawRecord({}));
  });
});

describe('observe', () => {
  it('first sight of a record: observed now', () => {
    expect(observe(NOTHING_OBSERVED, leaseWith(SPEC), 5_000)).toEqual({
      lease: leaseWith(SPEC),
      raw: rawRecord(SPEC),
      time: 5_000,
    });
  });

  it('the same record again keeps the time it was first seen (the holder stopped renewing)', () => {
    const first = observe(NOTHING_OBSERVED, leaseWith(SPEC), 5_000);
    // A new resourceVersion alone (a label changed) is not a renewal; but the next update must carry it.
    expect(observe(first, leaseWith({ ...SPEC }, '2'), 9_000)).toEqual({ ...first, lease: leaseWith(SPEC, '2') });
  });

  it('a changed record moves the time, whatever renewTime says (another clock wrote it)', () => {
    const first = observe(NOTHING_OBSERVED, leaseWith(SPEC), 5_000);
    const renewed = { ...SPEC, renewTime: asMicroTime('2000-01-01T00:00:00.000000Z') };
    expect(observe(first, leaseWith(renewed), 9_000)).toEqual({
      lease: leaseWith(renewed),
      raw: rawRecord(renewed),
      time: 9_000,
    });
  });
});

describe('wrote', () => {
  it('our own write is observed when it succeeded, even when the record is unchanged', () => {
    const first = observe(NOTHING_OBSERVED, leaseWith(SPEC), 5_000);
    expect(wrote(leaseWith(SPEC), 7_000)).toEqual({ ...first, time: 7_000 });
  });
});

describe('holderOf', () => {
  it('is the holderIdentity, or empty when nobody holds the Lease or nothing was seen', () => {
    expect(holderOf(wrote(leaseWith(SPEC), 0))).toBe('a');
    expect(holderOf(wrote(leaseWith({ ...SPEC, holderIdentity: '' }), 0))).toBe('');
    expect(holderOf(wrote(leaseWith(undefined), 0))).toBe('');
    expect(holderOf(NOTHING_OBSERVED)).toBe('');
  });
});

describe('isLeaseValid', () => {
  const seen = (leaseDurationSeconds: number | undefined, time: number): Observation => ({
    lease: leaseWith({ holderIdentity: 'a', ...(leaseDurationSeconds === undefined ? {} : { leaseDurationSeconds }) }),
    raw: '',
    time,
  });

  it.each([
    { name: 'within leaseDurationSeconds of the observation', now: 1_000 + 14_999, valid: true },
    { name: 'exactly at its end: no longer (time.After is strict)', now: 1_000 + 15_000, valid: false },
    { name: 'after its end', now: 1_000 + 60_000, valid: false },
  ])('$name', ({ now, valid }) => {
    expect(isLeaseValid(seen(15, 1_000), now)).toBe(valid);
  });

  it('a record without leaseDurationSeconds, or nothing observed, is not valid', () => {
    expect(isLeaseValid(seen(undefined, 1_000), 999)).toBe(true);
    expect(isLeaseValid(seen(undefined, 1_000), 1_000)).toBe(false);
    expect(isLeaseValid(NOTHING_OBSERVED, 0)).toBe(false);
  });
});

describe('endOfTerm (coordinated election)', () => {
  const at = (spec: ElectionLeaseSpec): Observation => wrote(leaseWith(spec), 0);

  it.each<[string, ElectionLeaseSpec, boolean]>([
    [
      'another preferredHolder and a strategy',
      { ...SPEC, preferredHolder: 'b', strategy: 'OldestEmulationVersion' },
      true,
    ],
    ['we are the preferredHolder', { ...SPEC, preferredHolder: 'a', strategy: 'OldestEmulationVersion' }, false],
    ['a preferredHolder without a strategy', { ...SPEC, preferredHolder: 'b' }, false],
    ['a strategy without a preferredHolder', { ...SPEC, strategy: 'OldestEmulationVersion' }, false],
    ['neither', SPEC, false],
  ])('%s: %s', (_name, spec, expected) => {
    expect(endOfTerm(at(spec), 'a')).toBe(expected);
  });
});
