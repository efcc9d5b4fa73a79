// The ordered store and its snapshots: a frozen view never changes however the store is written
// afterwards, and snapshotAt(rv) is the store as it was at rv, whether kept or rebuilt from history.
// Semantics from k8s.io/apiserver/pkg/storage/cacher/store/watch_cache_storage.go (a snapshot per
// resourceVersion, removed below the compacted revision: Compact → RemoveLess) and
// k8s.io/apiserver/pkg/storage/testing/store_tests.go RunTestListContinuation / RunTestConsistentList.
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../templates/k8s-lease-api-server/src/json.js';
import {
  LeaseStore,
  SNAPSHOT_LIMIT,
  type Snapshot,
} from '../../../templates/k8s-lease-api-server/src/store/lease-store.js';
import { seededRandom } from '../../helpers/seeded-random.js';
import { type State, obj, sorted } from '../helpers/store-states.js';

function entriesOf(snapshot: Snapshot): [string, JsonObject][] {
  const out: [string, JsonObject][] = [];
  snapshot.forEach((key, value) => {
    out.push([key, value]);
  });
  return out;
}

describe('LeaseStore snapshots', () => {
  /** Commits random writes, remembering the state after each resourceVersion. */
  function writeRandomly(store: LeaseStore, writes: number, seed: number): Map<number, [string, JsonObject][]> {
    const random = seededRandom(seed);
    const states = new Map<number, [string, JsonObject][]>();
    const reference: State = new Map();
    for (let i = 0; i < writes; i++) {
      const key = `ns${Math.floor(random() * 3)}/lease-${Math.floor(random() * 400)}`;
      const event = random() < 0.25 ? store.commit(key, undefined) : store.commit(key, obj(key, i));
      if (event === undefined) continue;
      if (event.type === 'DELETED') reference.delete(key);
      else reference.set(key, event.object);
      states.set(event.rv, sorted(reference));
    }
    return states;
  }

  it('serves the state at any resourceVersion still in history, kept or rebuilt, and keeps at most SNAPSHOT_LIMIT', () => {
    const store = new LeaseStore(10_000);
    const states = writeRandomly(store, 3000, 11);
    const rvs = [...states.keys()];
    // More distinct resourceVersions than the cache holds: most are rebuilt from history, then asked again.
    const asked = rvs.filter((_, i) => i % 97 === 0);
    expect(asked.length).toBeGreaterThan(SNAPSHOT_LIMIT);
    for (const round of [0, 1]) {
      for (const rv of asked) {
        const at = store.snapshotAt(rv);
        if (!at.ok) throw new Error(`round ${round}: rv ${rv} expired`);
        expect(at.snapshot.rv).toBe(rv);
        expect(entriesOf(at.snapshot)).toEqual(states.get(rv));
      }
    }
    // A snapshot taken earlier is unchanged by later writes.
    const early = store.snapshotAt(rvs[10] ?? 0);
    writeRandomly(store, 500, 12);
    expect(early.ok && entriesOf(early.snapshot)).toEqual(states.get(rvs[10] ?? 0));
  });

  it('forgets snapshots below the history floor: compaction makes them 410 even when one was kept', () => {
    const store = new LeaseStore(10_000);
    writeRandomly(store, 200, 13);
    const rv = store.resourceVersion;
    expect(store.current().rv).toBe(rv);
    writeRandomly(store, 50, 14);
    expect(store.snapshotAt(rv).ok).toBe(true);
    store.compact();
    expect(store.snapshotAt(rv)).toEqual({ ok: false, expired: { oldest: store.resourceVersion } });
  });

  it('drops history and snapshots as the window slides', () => {
    const store = new LeaseStore(100);
    writeRandomly(store, 50, 15);
    const rv = store.current().rv;
    writeRandomly(store, 300, 16);
    expect(store.snapshotAt(rv).ok).toBe(false);
  });
});
