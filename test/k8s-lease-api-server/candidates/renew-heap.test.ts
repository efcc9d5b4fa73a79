import { describe, expect, it } from 'vitest';
import { RenewHeap } from '../../../templates/k8s-lease-api-server/src/candidates/renew-heap.js';
import { seededRandom } from '../../helpers/seeded-random.js';

describe('RenewHeap', () => {
  it('finds the oldest live renewal and drops outdated entries, and a rebuild keeps only the live ones', () => {
    const heap = new RenewHeap();
    const current = new Map<string, number>();
    const next = seededRandom(9);
    for (let i = 0; i < 2_000; i++) {
      const key = `k${Math.floor(next() * 50)}`;
      const at = Math.floor(next() * 10_000);
      current.set(key, at);
      heap.push({ at, key });
      expect(heap.oldest((k) => current.get(k))?.at).toBe(Math.min(...current.values()));
    }
    heap.rebuild([...current].map(([key, at]) => ({ key, at })));
    expect(heap.size).toBe(current.size);
    expect(heap.oldest((k) => current.get(k))?.at).toBe(Math.min(...current.values()));
  });
});
