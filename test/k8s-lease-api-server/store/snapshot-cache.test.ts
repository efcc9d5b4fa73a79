// The LIST snapshots kept: one per resourceVersion, at most `limit`, least recently used dropped first, and
// those below a compacted revision forgotten (watch_cache_storage.go Compact → RemoveLess).
import { describe, expect, it } from 'vitest';
import { Snapshot } from '../../../templates/k8s-lease-api-server/src/store/snapshot.js';
import { SnapshotCache } from '../../../templates/k8s-lease-api-server/src/store/snapshot-cache.js';
import { SortedChunks } from '../../../templates/k8s-lease-api-server/src/store/sorted-chunks.js';

const snapshot = (rv: number): Snapshot => new Snapshot(rv, new SortedChunks().freeze());

function held(cache: SnapshotCache, rvs: number[]): number[] {
  return rvs.filter((rv) => cache.get(rv) !== undefined);
}

describe('SnapshotCache', () => {
  it('keeps at most limit snapshots, dropping the least recently used', () => {
    const cache = new SnapshotCache(3);
    for (const rv of [1, 2, 3]) cache.put(snapshot(rv));
    expect(cache.get(1)?.rv).toBe(1); // 1 is now the most recently used
    cache.put(snapshot(4));
    expect(cache.size).toBe(3);
    expect(held(cache, [1, 2, 3, 4])).toEqual([1, 3, 4]);
  });

  it('replaces the snapshot of a resourceVersion it already holds', () => {
    const cache = new SnapshotCache(2);
    const first = snapshot(5);
    const second = snapshot(5);
    cache.put(first);
    cache.put(second);
    expect(cache.size).toBe(1);
    expect(cache.get(5)).toBe(second);
  });

  it('forgets every snapshot below a resourceVersion', () => {
    const cache = new SnapshotCache(10);
    for (const rv of [3, 7, 5, 9]) cache.put(snapshot(rv));
    cache.dropBelow(6);
    expect(held(cache, [3, 5, 7, 9])).toEqual([7, 9]);
  });

  it('keeps nothing with a limit of 0', () => {
    const cache = new SnapshotCache(0);
    cache.put(snapshot(1));
    expect(cache.size).toBe(0);
    expect(cache.get(1)).toBeUndefined();
  });
});
