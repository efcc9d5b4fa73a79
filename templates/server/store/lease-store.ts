// In-memory Lease storage with a cluster-wide resourceVersion, a bounded event history (for watch resume
// and consistent paginated lists) and synchronous change listeners (for live watches).
import type { JsonObject } from '../json.js';
import { objectAt } from '../json.js';
import { canonicalLease } from '../lease-shape.js';

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

/** A read-only view of the store at one resourceVersion. */
export interface Snapshot {
  rv: number;
  /** Keys ("namespace/name") in storage order. */
  keys: readonly string[];
  get(key: string): JsonObject | undefined;
}

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

function lowerBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((keys[mid] ?? '') < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export { lowerBound };

export class LeaseStore {
  private readonly objects = new Map<string, JsonObject>();
  private readonly sortedKeys: string[] = [];
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

  current(): Snapshot {
    return { rv: this.rv, keys: this.sortedKeys, get: (key) => this.objects.get(key) };
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
      this.sortedKeys.splice(lowerBound(this.sortedKeys, key), 1);
    } else {
      if (prev === undefined) this.sortedKeys.splice(lowerBound(this.sortedKeys, key), 0, key);
      this.objects.set(key, stamped);
    }
    const event: StoreEvent = { type, rv: this.rv, key, object: stamped, prev };
    this.record(event);
    for (const listener of this.listeners) listener(event);
    return event;
  }

  private record(event: StoreEvent): void {
    const capacity = this.ring.length;
    if (capacity === 0) {
      this.floor = event.rv;
      return;
    }
    if (this.ringSize === capacity) {
      const evicted = this.ring[this.ringStart];
      if (evicted !== undefined) this.floor = evicted.rv;
      this.ring[this.ringStart] = event;
      this.ringStart = (this.ringStart + 1) % capacity;
    } else {
      this.ring[(this.ringStart + this.ringSize) % capacity] = event;
      this.ringSize++;
    }
  }

  /** Drops all history, as an etcd compaction would; later resumes from older versions get 410. */
  compact(): void {
    this.ring.fill(undefined);
    this.ringStart = 0;
    this.ringSize = 0;
    this.floor = this.rv;
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

  /** The store as it was at rv, rebuilt by rolling back the history recorded since. */
  snapshotAt(rv: number): { ok: true; snapshot: Snapshot } | { ok: false; expired: HistoryExpired } {
    if (rv >= this.rv) return { ok: true, snapshot: this.current() };
    const after = this.eventsAfter(rv);
    if (!after.ok) return after;
    const overrides = new Map<string, JsonObject | undefined>();
    for (let i = after.events.length - 1; i >= 0; i--) {
      const event = after.events[i];
      if (event !== undefined) overrides.set(event.key, event.prev);
    }
    const keys = this.sortedKeys.filter((key) => !overrides.has(key));
    for (const [key, value] of overrides) if (value !== undefined) keys.push(key);
    keys.sort();
    const get = (key: string): JsonObject | undefined =>
      overrides.has(key) ? overrides.get(key) : this.objects.get(key);
    return { ok: true, snapshot: { rv, keys, get } };
  }
}

function stampResourceVersion(obj: JsonObject, rv: number): JsonObject {
  const metadata = objectAt(obj, 'metadata') ?? {};
  if (Object.hasOwn(metadata, 'resourceVersion')) {
    return { ...obj, metadata: { ...metadata, resourceVersion: String(rv) } };
  }
  return canonicalLease({ ...obj, metadata: { ...metadata, resourceVersion: String(rv) } });
}
