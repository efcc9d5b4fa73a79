// The controller's per-Lease candidate index (templates/k8s-lease-api-server/src/candidates/candidate-index.ts) keeps, per change,
// what a whole pass over the candidates would compute with election.go's rules (pickBestLeaderOldestEmulationVersion,
// pickBestStrategy) and the oldest renewal; checked against that pass after every step of seeded random changes.
import { describe, expect, it } from 'vitest';
import { LeaseCandidates } from '../../../templates/k8s-lease-api-server/src/candidates/candidate-index.js';
import type { Candidate } from '../../../templates/k8s-lease-api-server/src/candidates/election.js';
import {
  compareVersions,
  pickBestLeaderOldestEmulationVersion,
  readCandidate,
} from '../../../templates/k8s-lease-api-server/src/candidates/election.js';
import type { JsonObject } from '../../../templates/k8s-lease-api-server/src/json.js';
import { seededRandom } from '../../helpers/seeded-random.js';

const T0 = Date.UTC(2026, 0, 1);
const micro = (ms: number): string => new Date(ms).toISOString().replace('Z', '000Z');

function candidateObject(name: string, pick: (n: number) => number): JsonObject {
  const versions = ['1.32.0', '1.33.0', '1.34.0'];
  const strategies = ['OldestEmulationVersion', 'OldestEmulationVersion', 'Other'];
  const spec: JsonObject = { leaseName: 'l' };
  const binary = versions[pick(3)] ?? '1.34.0';
  if (pick(10) > 0) spec['binaryVersion'] = binary;
  if (pick(10) > 0) spec['emulationVersion'] = versions[pick(3)] ?? '1.34.0';
  if (pick(10) > 0) spec['strategy'] = strategies[pick(3)] ?? 'OldestEmulationVersion';
  if (pick(10) > 0) spec['renewTime'] = micro(T0 + pick(100) * 1000);
  if (pick(3) === 0) spec['pingTime'] = micro(T0 + pick(100) * 1000);
  return {
    metadata: { name, namespace: 'default', creationTimestamp: new Date(T0 - pick(5) * 1000).toISOString() },
    spec,
  };
}

/** pickBestStrategy over the top binary version: its strategy, or a disagreement among those candidates. */
function strategyByPass(list: readonly Candidate[]): string {
  const withStrategy = list.filter((c) => c.strategy !== undefined);
  if (withStrategy.length === 0) return 'none';
  let top = withStrategy[0];
  for (const c of withStrategy) if (top === undefined || compareVersions(c.binary, top.binary) > 0) top = c;
  const strategies = new Set(
    withStrategy.filter((c) => compareVersions(c.binary, top?.binary) === 0).map((c) => c.strategy),
  );
  return strategies.size === 1 ? String([...strategies][0]) : 'conflict';
}

describe('LeaseCandidates (the per-Lease candidate index)', () => {
  it.each([1, 2, 3, 4, 5])('answers as a whole pass would after every change (seed %i)', (seed) => {
    const next = seededRandom(seed);
    const pick = (n: number): number => Math.floor(next() * n);
    const index = new LeaseCandidates();
    const live = new Map<string, Candidate>();
    for (let step = 0; step < 600; step++) {
      const key = `default/c${pick(25)}`;
      if (pick(5) === 0) {
        index.delete(key);
        live.delete(key);
      } else {
        const c = readCandidate(key, candidateObject(key.slice(8), pick));
        index.set(c);
        live.set(key, c);
      }
      const admissible = [...live.values()].filter((c) => c.renewTime !== undefined);
      expect(index.electee()?.key, `step ${step}`).toBe(pickBestLeaderOldestEmulationVersion(admissible)?.key);
      const strategy = index.bestStrategy();
      expect(strategy.ok ? strategy.strategy : strategy.error === 'no strategy' ? 'none' : 'conflict').toBe(
        strategyByPass(admissible),
      );
      const renewals = admissible.map((c) => c.renewTime ?? 0);
      expect(index.oldestRenewal()).toBe(renewals.length === 0 ? undefined : Math.min(...renewals));
      const t = T0 + pick(100) * 1000;
      expect(index.awaitingPing(t, 5_000)).toBe(
        admissible.some(
          (c) =>
            c.pingTime !== undefined && c.renewTime !== undefined && c.renewTime < c.pingTime && c.pingTime + 5_000 > t,
        ),
      );
    }
  });
});
