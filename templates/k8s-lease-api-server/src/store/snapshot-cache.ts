// The snapshots LISTs are being served from, one per resourceVersion and at most `limit` of them
// (least recently used dropped first), like the watch cache's snapshotter
// (k8s.io/apiserver/pkg/storage/cacher/store/watch_cache_storage.go): one snapshot per resourceVersion,
// those below the compacted revision removed (Compact → RemoveLess).
import type { Snapshot } from './snapshot.js';

export class SnapshotCache {
  /** In least-recently-used order (a Map iterates in insertion order; a hit re-inserts). */
  private readonly byRv = new Map<number, Snapshot>();

  constructor(private readonly limit: number) {}

  get size(): number {
    return this.byRv.size;
  }

  get(rv: number): Snapshot | undefined {
    const found = this.byRv.get(rv);
    if (found !== undefined) {
      this.byRv.delete(rv);
      this.byRv.set(rv, found);
    }
    return found;
  }

  put(snapshot: Snapshot): void {
    if (this.limit <= 0) return;
    this.byRv.delete(snapshot.rv);
    this.byRv.set(snapshot.rv, snapshot);
    for (const rv of this.byRv.keys()) {
      if (this.byRv.size <= this.limit) break;
      this.byRv.delete(rv);
    }
  }

  /** Forgets snapshots older than rv (their history is gone: continues from them answer 410). */
  dropBelow(rv: number): void {
    for (const held of this.byRv.keys()) if (held < rv) this.byRv.delete(held);
  }
}
