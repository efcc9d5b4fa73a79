// A min-heap of (renewTime, candidate key) with lazy deletion: an entry counts only while it still matches
// the candidate's current renewTime, so a renewal is one push and the oldest renewal is found in O(log n).

export interface RenewEntry {
  at: number;
  key: string;
}

export class RenewHeap {
  private entries: RenewEntry[] = [];

  get size(): number {
    return this.entries.length;
  }

  push(entry: RenewEntry): void {
    const heap = this.entries;
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const up = heap[parent];
      if (up === undefined || up.at <= entry.at) break;
      heap[i] = up;
      i = parent;
    }
    heap[i] = entry;
  }

  /** The oldest entry for which `current(key)` is still `at`; outdated entries on the way are dropped. */
  oldest(current: (key: string) => number | undefined): RenewEntry | undefined {
    for (;;) {
      const top = this.entries[0];
      if (top === undefined || current(top.key) === top.at) return top;
      this.pop();
    }
  }

  /** Rebuilt from the live entries alone, when outdated ones pile up below the top. */
  rebuild(live: Iterable<RenewEntry>): void {
    this.entries = [];
    for (const entry of live) this.push(entry);
  }

  private pop(): void {
    const heap = this.entries;
    const last = heap.pop();
    if (last === undefined || heap.length === 0) return;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      const at = (j: number): number => heap[j]?.at ?? Number.POSITIVE_INFINITY;
      const current = smallest === i ? last.at : at(smallest);
      if (left < heap.length && at(left) < current) smallest = left;
      if (right < heap.length && at(right) < (smallest === i ? last.at : at(smallest))) smallest = right;
      if (smallest === i) break;
      heap[i] = heap[smallest] as RenewEntry;
      i = smallest;
    }
    heap[i] = last;
  }
}
