import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../templates/k8s-lease-api-server/src/json.js';
import {
  SortedChunks,
  countIn,
  getIn,
  scanIn,
} from '../../../templates/k8s-lease-api-server/src/store/sorted-chunks.js';
import { seededRandom } from '../../helpers/seeded-random.js';
import { type State, obj, sorted } from '../helpers/store-states.js';

describe('SortedChunks', () => {
  it('keeps every frozen view as it was while thousands of random inserts, updates and deletes follow', () => {
    const random = seededRandom(7);
    const live = new SortedChunks();
    const reference: State = new Map();
    const views: { frozen: ReturnType<SortedChunks['freeze']>; expected: [string, JsonObject][] }[] = [];
    for (let step = 0; step < 20_000; step++) {
      const key = `k${Math.floor(random() * 3000)
        .toString()
        .padStart(4, '0')}`;
      if (random() < 0.3) {
        expect(live.delete(key)).toBe(reference.delete(key));
      } else {
        const value = obj(key, step);
        live.set(key, value);
        reference.set(key, value);
      }
      if (step % 1000 === 999) views.push({ frozen: live.freeze(), expected: sorted(reference) });
    }
    expect(live.size).toBe(reference.size);
    for (const { frozen, expected } of views) {
      const seen: [string, JsonObject][] = [];
      scanIn(frozen.chunks, '', undefined, (key, value) => {
        seen.push([key, value]);
        return true;
      });
      expect(seen).toEqual(expected);
      expect(frozen.size).toBe(expected.length);
      // Lookups, counts and bounded scans agree with the reference at a few probe keys.
      for (const probe of ['k0000', 'k1000', 'k1500x', 'k2999', 'k3']) {
        const inRange = expected.filter(([key]) => key >= probe && key < 'k2500');
        expect(countIn(frozen.chunks, probe, 'k2500')).toBe(inRange.length);
        expect(getIn(frozen.chunks, probe)).toBe(expected.find(([key]) => key === probe)?.[1]);
        const firstThree: string[] = [];
        const more = scanIn(frozen.chunks, probe, 'k2500', (key) => {
          if (firstThree.length === 3) return false;
          firstThree.push(key);
          return true;
        });
        expect(firstThree).toEqual(inRange.slice(0, 3).map(([key]) => key));
        expect(more).toBe(inRange.length > 3);
      }
    }
  });
});
