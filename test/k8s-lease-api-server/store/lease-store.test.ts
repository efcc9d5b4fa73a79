// The store's writes and history as the watch cache keeps them (k8s.io/apiserver/pkg/storage/cacher/
// watch_cache.go): every write bumps the resourceVersion and is stamped with it, events are ADDED, MODIFIED or
// DELETED with the previous object, a bounded window of history answers "events since rv" (getAllEventsSinceLocked),
// and a resourceVersion older than the window, or than a compaction, is gone (the 410 "too old resource version").
// Snapshots at older resourceVersions: store/snapshot.test.ts.
import { describe, expect, it } from 'vitest';
import { type JsonObject, objectAt, stringAt } from '../../../templates/k8s-lease-api-server/src/json.js';
import {
  LeaseStore,
  type StoreEvent,
  splitKey,
  storeKey,
} from '../../../templates/k8s-lease-api-server/src/store/lease-store.js';

const lease = (name: string, holder = 'h'): JsonObject => ({
  metadata: { name, namespace: 'ns' },
  spec: { holderIdentity: holder },
});
const rvOf = (obj: JsonObject | undefined): string | undefined =>
  stringAt(obj === undefined ? undefined : objectAt(obj, 'metadata'), 'resourceVersion');

describe('storeKey and splitKey', () => {
  it('join namespace and name with the first slash', () => {
    expect(storeKey('ns', 'a')).toBe('ns/a');
    expect(splitKey('ns/a/b')).toEqual({ namespace: 'ns', name: 'a/b' });
  });
});

describe('LeaseStore.commit', () => {
  it('stamps each write with the next resourceVersion and reports ADDED, MODIFIED and DELETED', () => {
    const store = new LeaseStore(10, 100);
    const added = store.commit('ns/a', lease('a'));
    expect([added?.type, added?.rv, rvOf(added?.object), added?.prev]).toEqual(['ADDED', 101, '101', undefined]);
    const modified = store.commit('ns/a', lease('a', 'other'));
    expect([modified?.type, modified?.rv, rvOf(modified?.object), rvOf(modified?.prev)]).toEqual([
      'MODIFIED',
      102,
      '102',
      '101',
    ]);
    const deleted = store.commit('ns/a', undefined);
    expect([deleted?.type, deleted?.rv, rvOf(deleted?.object)]).toEqual(['DELETED', 103, '103']);
    expect([store.resourceVersion, store.size, store.get('ns/a')]).toEqual([103, 0, undefined]);
  });

  it('gives a new object its canonical shape, and ignores the delete of a missing key', () => {
    const store = new LeaseStore(10);
    const event = store.commit('ns/a', { spec: { holderIdentity: 'h' }, metadata: { name: 'a' } });
    expect(JSON.stringify(event?.object)).toBe(
      '{"metadata":{"name":"a","resourceVersion":"2","creationTimestamp":null},"spec":{"holderIdentity":"h"}}',
    );
    expect(store.commit('ns/missing', undefined)).toBeUndefined();
    expect(store.resourceVersion).toBe(2);
  });

  it('tells subscribers of each event until they unsubscribe', () => {
    const store = new LeaseStore(10);
    const seen: string[] = [];
    const unsubscribe = store.subscribe((event: StoreEvent) => seen.push(`${event.type} ${event.key}`));
    store.commit('ns/a', lease('a'));
    unsubscribe();
    store.commit('ns/b', lease('b'));
    expect(seen).toEqual(['ADDED ns/a']);
  });
});

describe('LeaseStore history', () => {
  it('answers the events after a resourceVersion, oldest first', () => {
    const store = new LeaseStore(10);
    for (const name of ['a', 'b', 'c']) store.commit(`ns/${name}`, lease(name));
    const after = store.eventsAfter(2);
    expect(after.ok && after.events.map((e) => [e.rv, e.key])).toEqual([
      [3, 'ns/b'],
      [4, 'ns/c'],
    ]);
    const none = store.eventsAfter(4);
    expect(none.ok && none.events).toEqual([]);
  });

  it('forgets what falls out of the window: older resourceVersions are expired', () => {
    const store = new LeaseStore(2);
    for (const name of ['a', 'b', 'c', 'd']) store.commit(`ns/${name}`, lease(name));
    // rv 2..5 written; the window keeps rv 4 and 5, so resuming needs rv >= 3.
    expect(store.oldestResumable).toBe(3);
    expect(store.eventsAfter(2)).toEqual({ ok: false, expired: { oldest: 3 } });
    const after = store.eventsAfter(3);
    expect(after.ok && after.events.map((e) => e.rv)).toEqual([4, 5]);
  });

  it('drops all history on compaction', () => {
    const store = new LeaseStore(10);
    store.commit('ns/a', lease('a'));
    store.commit('ns/b', lease('b'));
    store.compact();
    expect(store.eventsAfter(2)).toEqual({ ok: false, expired: { oldest: 3 } });
    expect(store.eventsAfter(3)).toEqual({ ok: true, events: [] });
    expect(store.snapshotAt(2)).toEqual({ ok: false, expired: { oldest: 3 } });
  });

  it('keeps no history with a window of 0', () => {
    const store = new LeaseStore(0);
    store.commit('ns/a', lease('a'));
    expect(store.eventsAfter(1)).toEqual({ ok: false, expired: { oldest: 2 } });
  });
});

describe('LeaseStore.current', () => {
  it('is a frozen view shared while the resourceVersion stays', () => {
    const store = new LeaseStore(10);
    store.commit('ns/a', lease('a'));
    const first = store.current();
    expect(store.current()).toBe(first);
    store.commit('ns/b', lease('b'));
    expect(first.size).toBe(1);
    expect(store.current().size).toBe(2);
  });
});
