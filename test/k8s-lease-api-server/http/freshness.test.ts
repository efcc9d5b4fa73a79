// Waiting for a resourceVersion the store has not reached, as the watch cache's waitUntilFreshLocked
// (k8s.io/apiserver/pkg/storage/cacher/watch_cache.go) waits: done as soon as the store catches up, given
// up after blockTimeout (3 s), and here also when the client goes away.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { BLOCK_TIMEOUT_MS, waitUntilFresh } from '../../../templates/k8s-lease-api-server/src/http/freshness.js';
import { LeaseStore } from '../../../templates/k8s-lease-api-server/src/store/lease-store.js';

const lease = (name: string): { metadata: { name: string; namespace: string } } => ({
  metadata: { name, namespace: 'default' },
});

describe('waitUntilFresh', () => {
  it('waits 3 s at most, as blockTimeout', () => {
    expect(BLOCK_TIMEOUT_MS).toBe(3000);
  });

  it('resolves true at once when the store is already there', async () => {
    const store = new LeaseStore(100);
    expect(await waitUntilFresh(store, store.resourceVersion, 10, new EventEmitter())).toBe(true);
  });

  it('resolves true when writes bring the store to the resourceVersion, and stops listening', async () => {
    const store = new LeaseStore(100);
    const closed = new EventEmitter();
    const target = store.resourceVersion + 2;
    const waiting = waitUntilFresh(store, target, 5_000, closed);
    store.commit('default/a', lease('a'));
    store.commit('default/b', lease('b'));
    expect(await waiting).toBe(true);
    expect(closed.listenerCount('close')).toBe(0);
  });

  it('resolves false after the timeout when the store stays behind', async () => {
    const store = new LeaseStore(100);
    const closed = new EventEmitter();
    const started = Date.now();
    expect(await waitUntilFresh(store, store.resourceVersion + 1, 50, closed)).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(closed.listenerCount('close')).toBe(0);
  });

  it('resolves false when the client goes away first', async () => {
    const store = new LeaseStore(100);
    const closed = new EventEmitter();
    const waiting = waitUntilFresh(store, store.resourceVersion + 1, 5_000, closed);
    closed.emit('close');
    expect(await waiting).toBe(false);
    // A later write finds nothing subscribed that could resolve twice or keep the store busy.
    store.commit('default/a', lease('a'));
    expect(closed.listenerCount('close')).toBe(0);
  });
});
