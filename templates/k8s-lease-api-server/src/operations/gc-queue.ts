// The garbage collector's work queue, as client-go's workqueue dedupes: a key waiting in it is queued once.
// Keys leave in the order they came; add and take are O(1) amortised whatever the queue's length.
export class WorkQueue {
  private items: string[] = [];
  private head = 0;
  private readonly waiting = new Set<string>();

  get size(): number {
    return this.waiting.size;
  }

  add(key: string): void {
    if (this.waiting.has(key)) return;
    this.waiting.add(key);
    this.items.push(key);
  }

  /** The oldest key, removed from the queue; undefined when it is empty. */
  take(): string | undefined {
    if (this.head === this.items.length) return undefined;
    const key = this.items[this.head] as string;
    this.head++;
    this.waiting.delete(key);
    // The taken half is dropped once it outweighs the rest, so memory stays O(waiting keys).
    if (this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return key;
  }
}
