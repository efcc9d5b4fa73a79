// The coordinated-leader-election rules, with the cases of kubernetes pkg/controlplane/controller/leaderelection
// election_test.go (TestPickBestLeaderOldestEmulationVersion, TestValidLeaseCandidateForOldestEmulationVersion,
// TestCompare, TestPickBestStrategy) and leaderelection_controller.go isLeaseExpired.
import { describe, expect, it } from 'vitest';
import {
  type Candidate,
  compareCandidates,
  isLeaseExpired,
  pickBestLeaderOldestEmulationVersion,
  pickBestStrategy,
  readCandidate,
} from '../../../templates/k8s-lease-api-server/src/candidates/election.js';
import type { JsonObject } from '../../../templates/k8s-lease-api-server/src/json.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const HOUR_AGO = '2026-03-01T11:00:00Z';
const NOW_TEXT = '2026-03-01T12:00:00Z';

function candidate(name: string, spec: JsonObject, creationTimestamp = NOW_TEXT): Candidate {
  return readCandidate(`default/${name}`, {
    metadata: { name, namespace: 'default', creationTimestamp },
    spec: { leaseName: 'component-A', ...spec },
  });
}

const versions = (emulationVersion: string, binaryVersion: string): JsonObject => ({ emulationVersion, binaryVersion });

describe('readCandidate', () => {
  it('reads names, times, tolerant versions and the strategy (or v1alpha1 preferredStrategies[0])', () => {
    const c = readCandidate('kube-system/apiserver-a', {
      metadata: { name: 'apiserver-a', creationTimestamp: HOUR_AGO },
      spec: {
        binaryVersion: 'v1.33',
        emulationVersion: '1.32.0',
        renewTime: '2026-03-01T12:00:00.000000Z',
        pingTime: '2026-03-01T12:00:01.500000Z',
        preferredStrategies: ['OldestEmulationVersion', 'other.io/x'],
      },
    });
    expect(c.name).toBe('apiserver-a');
    expect(c.creation).toBe(NOW - 3_600_000);
    expect([c.renewTime, c.pingTime]).toEqual([NOW, NOW + 1_500]);
    expect(c.strategy).toBe('OldestEmulationVersion');
    expect([c.binary?.major, c.binary?.minor, c.binary?.patch]).toEqual([1n, 33n, 0n]);
    expect(candidate('x', { binaryVersion: 'invalid' }).binary).toBeUndefined();
  });
});

describe('pickBestLeaderOldestEmulationVersion', () => {
  it('elects no one among no candidates, and the only one among one', () => {
    expect(pickBestLeaderOldestEmulationVersion([])).toBeUndefined();
    expect(pickBestLeaderOldestEmulationVersion([candidate('candidate1', versions('0.1.0', '0.1.0'))])?.name).toBe(
      'candidate1',
    );
  });

  it.each<[string, Candidate[]]>([
    [
      'different emulation versions',
      [
        candidate('candidate1', versions('0.1.0', '0.1.0'), HOUR_AGO),
        candidate('candidate2', versions('0.2.0', '0.2.0')),
      ],
    ],
    [
      'same emulation versions, different binary versions',
      [
        candidate('candidate1', versions('0.1.0', '0.1.0'), HOUR_AGO),
        candidate('candidate2', versions('0.1.0', '0.2.0')),
      ],
    ],
    [
      'same versions, different creation timestamps',
      [
        candidate('candidate2', versions('0.1.0', '0.1.0')),
        candidate('candidate1', versions('0.1.0', '0.1.0'), HOUR_AGO),
      ],
    ],
  ])('elects candidate1 among candidates of %s', (_what, candidates) => {
    expect(pickBestLeaderOldestEmulationVersion(candidates)?.name).toBe('candidate1');
  });

  it('passes over candidates whose emulation or binary version does not parse (validLeaseCandidateForOldestEmulationVersion)', () => {
    const valid = candidate('valid', versions('0.9.0', '0.9.0'));
    expect(pickBestLeaderOldestEmulationVersion([candidate('a', versions('invalid', '0.1.0')), valid])).toBe(valid);
    expect(pickBestLeaderOldestEmulationVersion([candidate('b', versions('0.1.0', 'invalid')), valid])).toBe(valid);
    expect(pickBestLeaderOldestEmulationVersion([candidate('c', {})])).toBeUndefined();
  });
});

describe('compareCandidates (election.go compare)', () => {
  it.each<[string, Candidate, Candidate, number]>([
    [
      'identical versions, later timestamp',
      candidate('l', versions('1.20.0', '1.21.0'), '2026-03-01T12:00:01Z'),
      candidate('r', versions('1.20.0', '1.21.0')),
      1,
    ],
    ['no lhs version', candidate('l', {}), candidate('r', versions('1.20.0', '1.21.0')), -1],
    ['no rhs version', candidate('l', versions('1.20.0', '1.21.0')), candidate('r', {}), 1],
    ['invalid lhs version', candidate('l', versions('xyz', 'xyz')), candidate('r', versions('1.20.0', '1.21.0')), -1],
    ['invalid rhs version', candidate('l', versions('1.20.0', '1.21.0')), candidate('r', versions('xyz', 'xyz')), 1],
    [
      'lhs less than rhs',
      candidate('l', versions('1.19.0', '1.20.0')),
      candidate('r', versions('1.20.0', '1.20.0')),
      -1,
    ],
    [
      'rhs less than lhs',
      candidate('l', versions('1.20.0', '1.20.0')),
      candidate('r', versions('1.19.0', '1.20.0')),
      1,
    ],
    [
      'numeric, not lexicographic, order',
      candidate('l', versions('1.2.0', '1.20.0')),
      candidate('r', versions('1.19.0', '1.20.0')),
      -1,
    ],
  ])('%s → %i', (_what, lhs, rhs, expected) => {
    expect(compareCandidates(lhs, rhs)).toBe(expected);
  });

  it('decides a tie in everything kube-apiserver compares by name, whatever the order', () => {
    const a = candidate('a', versions('1.20.0', '1.20.0'));
    const b = candidate('b', versions('1.20.0', '1.20.0'));
    expect([compareCandidates(a, b), compareCandidates(b, a), compareCandidates(a, a)]).toEqual([-1, 1, 0]);
  });
});

describe('pickBestStrategy', () => {
  const strategy = (name: string, s: string, binaryVersion?: string): Candidate =>
    candidate(name, binaryVersion === undefined ? { strategy: s } : { strategy: s, binaryVersion });

  it.each<[string, Candidate[], string]>([
    ['a single candidate', [strategy('candidate1', 'OldestEmulationVersion')], 'OldestEmulationVersion'],
    [
      'different strategies, the newer binary version first',
      [strategy('candidate1', 'OldestEmulationVersion', '1.32.0'), strategy('candidate2', 'foo.com/bar', '1.31.0')],
      'OldestEmulationVersion',
    ],
    [
      'different strategies, the newer binary version last',
      [strategy('candidate2', 'foo.com/bar', '1.31.0'), strategy('candidate1', 'OldestEmulationVersion', '1.32.0')],
      'OldestEmulationVersion',
    ],
    [
      'different strategies, versions compared as numbers (1.1.10 > 1.1.2)',
      [strategy('candidate1', 'OldestEmulationVersion', '1.1.10'), strategy('candidate2', 'foo.com/bar', '1.1.2')],
      'OldestEmulationVersion',
    ],
    [
      'the same strategy',
      [
        strategy('candidate1', 'OldestEmulationVersion', '1.31.0'),
        strategy('candidate2', 'OldestEmulationVersion', '1.31.0'),
      ],
      'OldestEmulationVersion',
    ],
  ])('picks the strategy of the newest binary version among %s', (_what, candidates, expected) => {
    expect(pickBestStrategy(candidates)).toEqual({ ok: true, strategy: expected });
  });

  it.each<[string, Candidate[]]>([
    ['without versions', [strategy('candidate1', 'OldestEmulationVersion'), strategy('candidate2', 'foo.com/bar')]],
    [
      'of the same binary version',
      [strategy('candidate1', 'OldestEmulationVersion', '1.31.0'), strategy('candidate2', 'foo.com/bar', '1.31.0')],
    ],
  ])('fails on different strategies %s', (_what, candidates) => {
    expect(pickBestStrategy(candidates)).toEqual({
      ok: false,
      error: 'candidates with the same binary version have different strategies OldestEmulationVersion and foo.com/bar',
    });
  });

  it('has no strategy when no candidate names one', () => {
    expect(pickBestStrategy([candidate('a', {})])).toEqual({ ok: false, error: 'no strategy' });
  });
});

describe('isLeaseExpired', () => {
  const lease = (spec: JsonObject): JsonObject => ({ metadata: { name: 'l' }, spec });

  it('is expired once renewTime + leaseDurationSeconds lies before now, or when either is unset', () => {
    const renewed = { renewTime: '2026-03-01T12:00:00.000000Z', leaseDurationSeconds: 15 };
    expect(isLeaseExpired(lease(renewed), NOW + 15_000)).toBe(false);
    expect(isLeaseExpired(lease(renewed), NOW + 15_001)).toBe(true);
    expect(isLeaseExpired(lease({ leaseDurationSeconds: 15 }), NOW)).toBe(true);
    expect(isLeaseExpired(lease({ renewTime: '2026-03-01T12:00:00.000000Z' }), NOW)).toBe(true);
  });
});
