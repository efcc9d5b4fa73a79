// In-memory Lease storage with a cluster-wide resourceVersion, a bounded event history (for watch resume
// and consistent paginated lists), snapshots shared by the pages of a LIST, and synchronous change
// listeners (for live watches).
import type { JsonObject } from '../json.js';
import { objectAt } from '../json.js';
import { canonicalLease } from '../lease-shape.js';
import { Snapshot } from './snapshot.js';
import { SnapshotCache } from './snapshot-cache.js';
import { SortedChunks } from './sorted-chunks.js';

export { Snapshot } from './snapshot.js';

/**
 * How many point-in-time snapshots LISTs keep (least recently used dropped first). Each shares the
 * chunks no write touched since with the live store and the other snapshots, so together they hold
 * at most this many times N entry references beyond the live store; the objects they reference are
 * live or still in the event history (a snapshot below the history's floor is dropped).
 */
export const SNAPSHOT_LIMIT = 16;

export type EventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoreEvent {
  type: EventType;
  rv: number;
  key: string;
  /** The state after the change; for DELETED the last state, stamped with the deletion's resourceVersion. */
  object: JsonObject;
  /** The state before the change (undefined for ADDED). */
  prev: JsonObject | undefined;
}

export type StoreListener = (event: StoreEvent) => void;

export interface HistoryExpired {
  /** Oldest resourceVersion a client may still resume from. */
  oldest: number;
}

export function storeKey(namespace: string, name: string): string {
  return `${namespace}/${name}`;
}

export function splitKey(key: string): { namespace: string; name: string } {
  const slash = key.indexOf('/');
  return { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}

export class LeaseStore {
  private readonly objects = new Map<string, JsonObject>();
  /** The same entries in key order; insert and delete O(log N + chunk), a frozen view O(N / chunk). */
  private readonly ordered = new SortedChunks();
  private readonly snapshots = new SnapshotCache(SNAPSHOT_LIMIT);
  private readonly ring: (StoreEvent | undefined)[];
  private ringStart = 0;
  private ringSize = 0;
  private rv: number;
  /** Resource versions at or below this have no history left. */
  private floor: number;
  private readonly listeners = new Set<StoreListener>();

  constructor(historyWindow: number, initialResourceVersion = 1) {
    this.ring = new Array<StoreEvent | undefined>(Math.max(0, historyWindow));
    this.rv = initialResourceVersion;
    this.floor = 0;
  }

  get resourceVersion(): number {
    return this.rv;
  }

  /** The oldest resourceVersion from which every later event is still known. */
  get oldestResumable(): number {
    return this.floor;
  }

  get size(): number {
    return this.objects.size;
  }

  get(key: string): JsonObject | undefined {
    return this.objects.get(key);
  }

  subscribe(listener: StoreListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The store as it is now, frozen (later writes do not show through); shared while the resourceVersion stays. */
  current(): Snapshot {
    const cached = this.snapshots.get(this.rv);
    if (cached !== undefined) return cached;
    const snapshot = new Snapshot(this.rv, this.ordered.freeze());
    this.snapshots.put(snapshot);
    return snapshot;
  }

  /** Writes a new state (or deletion, when next is undefined) and returns the recorded event. */
  commit(key: string, next: JsonObject | undefined): StoreEvent | undefined {
    const prev = this.objects.get(key);
    if (next === undefined && prev === undefined) return undefined;
    this.rv++;
    const stamped = stampResourceVersion(next ?? prev ?? {}, this.rv);
    const type: EventType = next === undefined ? 'DELETED' : prev === undefined ? 'ADDED' : 'MODIFIED';
    if (next === undefined) {
      this.objects.delete(key);
      this.ordered.delete(key);
    } else {
      this.objects.set(key, stamped);
      this.ordered.set(key, stamped);
    }
    const event: StoreEvent = { type, rv: this.rv, key, object: stamped, prev };
    this.record(event);
    for (const listener of this.listeners) listener(event);
    return event;
  }

  private record(event: StoreEvent): void {
    const capacity = this.ring.length;
    if (capacity === 0) {
      this.raiseFloor(event.rv);
      return;
    }
    if (this.ringSize === capacity) {
      const evicted = this.ring[this.ringStart];
      if (evicted !== undefined) this.raiseFloor(evicted.rv);
      this.ring[this.ringStart] = event;
      this.ringStart = (this.ringStart + 1) % capacity;
    } else {
      this.ring[(this.ringStart + this.ringSize) % capacity] = event;
      this.ringSize++;
    }
  }

  /** History below rv is gone, and so are the snapshots a LIST could continue from there. */
  private raiseFloor(rv: number): void {
    this.floor = rv;
    this.snapshots.dropBelow(rv);
  }

  /** Drops all history, as an etcd compaction would; later resumes from older versions get 410. */
  compact(): void {
    this.ring.fill(undefined);
    this.ringStart = 0;
    this.ringSize = 0;
    this.raiseFloor(this.rv);
  }

  private historyAt(i: number): StoreEvent | undefined {
    return this.ring[(this.ringStart + i) % this.ring.length];
  }

  /** Events strictly after rv, oldest first. */
  eventsAfter(rv: number): { ok: true; events: StoreEvent[] } | { ok: false; expired: HistoryExpired } {
    if (rv < this.floor) return { ok: false, expired: { oldest: this.floor } };
    const events: StoreEvent[] = [];
    for (let i = this.ringSize - 1; i >= 0; i--) {
      const event = this.historyAt(i);
      if (event === undefined || event.rv <= rv) break;
      events.push(event);
    }
    return { ok: true, events: events.reverse() };
  }

  /**
   * The store as it was at rv: a snapshot already taken at rv, or one rebuilt once by rolling the
   * history since back onto a copy-on-write view of the current state (O(N / chunk + events × chunk)),
   * then kept for the LIST's later pages. Below the history's floor it is gone (410), as a continue
   * from a compacted revision is in etcd3's store.
   */
  snapshotAt(rv: number): { ok: true; snapshot: Snapshot } | { ok: false; expired: HistoryExpired } {
    if (rv >= this.rv) return { ok: true, snapshot: this.current() };
    if (rv < this.floor) return { ok: false, expired: { oldest: this.floor } };
    const cached = this.snapshots.get(rv);
    if (cached !== undefined) return { ok: true, snapshot: cached };
    const after = this.eventsAfter(rv);
    if (!after.ok) return after;
    const rolled = new SortedChunks(this.current().frozen);
    for (let i = after.events.length - 1; i >= 0; i--) {
      const event = after.events[i] as StoreEvent;
      if (event.prev === undefined) rolled.delete(event.key);
      else rolled.set(event.key, event.prev);
    }
    const snapshot = new Snapshot(rv, rolled.freeze());
    this.snapshots.put(snapshot);
    return { ok: true, snapshot };
  }
}

function stampResourceVersion(obj: JsonObject, rv: number): JsonObject {
  const metadata = objectAt(obj, 'metadata') ?? {};
  if (Object.hasOwn(metadata, 'resourceVersion')) {
    return { ...obj, metadata: { ...metadata, resourceVersion: String(rv) } };
  }
  return canonicalLease({ ...obj, metadata: { ...metadata, resourceVersion: String(rv) } });
}
