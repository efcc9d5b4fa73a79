// The controller's writes waiting for a background slice, in order, with per Lease how many of its own are among
// them: a Lease whose pings are still queued is not reconciled again until they are written (its answer would
// be the same pings).

interface QueuedWrite {
  /** The Lease the write belongs to; undefined for one of no Lease's (garbage collection). */
  lease: string | undefined;
  run: () => void;
}

export class WriteQueue {
  private writes: QueuedWrite[] = [];
  private next = 0;
  private readonly pending = new Map<string, number>();

  get empty(): boolean {
    return this.next >= this.writes.length;
  }

  push(lease: string | undefined, run: () => void): void {
    this.writes.push({ lease, run });
    if (lease !== undefined) this.pending.set(lease, (this.pending.get(lease) ?? 0) + 1);
  }

  /** Whether some write of this Lease is still queued. */
  holds(lease: string): boolean {
    return this.pending.has(lease);
  }

  /** Runs the oldest queued write, if any. */
  runNext(): void {
    const write = this.writes[this.next];
    if (write === undefined) return;
    // Dropped from the array at once, so that a long queue does not keep what it has run.
    this.writes[this.next++] = { lease: undefined, run: () => undefined };
    if (this.next === this.writes.length) {
      this.writes = [];
      this.next = 0;
    }
    if (write.lease !== undefined) {
      const left = (this.pending.get(write.lease) ?? 1) - 1;
      if (left === 0) this.pending.delete(write.lease);
      else this.pending.set(write.lease, left);
    }
    write.run();
  }
}
