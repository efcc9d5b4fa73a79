// Many watchers, writes in bursts: every watcher gets every event it should see exactly once, in
// resourceVersion order, whether events are encoded once and shared (watchBatching, the default) or
// per watcher, for JSON and protobuf watchers, with and without a label selector that turns a MODIFIED
// into ADDED or DELETED. Upstream: k8s.io/apiserver/pkg/storage/cacher/cache_watcher.go
// convertToWatchEvent (selector transitions; cache_watcher_test.go TestCacheWatcherHandlesFiltering),
// cacher_whitebox_test.go TestWatcherNotGoingBackInTime (order), and caching_object.go cachingObject
// with cacher_whitebox_test.go TestCachingObjects (one serialization per encoder shared by watchers).
import { afterEach, describe, expect, it } from 'vitest';
import type { LeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import type { Lease } from '../../../templates/k8s-lease-api-server/src/types.js';
import { seededRandom } from '../../helpers/seeded-random.js';
import { concat, frames, openEnvelope, sub, text } from '../helpers/protobuf-wire.js';
import { NS_BASE, start, watch } from '../helpers.js';

const PROTOBUF_WATCH = 'application/vnd.kubernetes.protobuf;stream=watch';
const SENTINEL = 'zz-sentinel';

/** What a watcher is asserted on: type, name and resourceVersion of each object event. */
type Seen = string;

function seen(type: string, name: string, rv: string): Seen {
  return `${type} ${name} ${rv}`;
}

interface Write {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  name: string;
  rv: string;
  /** Whether the object was in team a before and after the write. */
  before: boolean;
  after: boolean;
}

/** The events a watcher of `selected` objects sees, by cacheWatcher.convertToWatchEvent's rules. */
function expectedFor(writes: readonly Write[], selected: boolean): Seen[] {
  return writes.flatMap((w): Seen[] => {
    if (!selected) return [seen(w.type, w.name, w.rv)];
    if (w.type === 'DELETED') return w.before ? [seen('DELETED', w.name, w.rv)] : [];
    if (w.before && w.after) return [seen(w.type, w.name, w.rv)];
    if (w.after) return [seen('ADDED', w.name, w.rv)];
    return w.before ? [seen('DELETED', w.name, w.rv)] : [];
  });
}

function leaseOf(name: string, team: string, holder: string): Lease {
  return { metadata: { name, namespace: 'default', labels: { team } }, spec: { holderIdentity: holder } };
}

/** Random creates, relabels and deletes through the store handle, logged with their resourceVersions. */
function writeBurst(server: LeaseApiServer, live: Map<string, string>, random: () => number, count: number): Write[] {
  const writes: Write[] = [];
  for (let i = 0; i < count; i++) {
    const name = `lease-${Math.floor(random() * 40)}`;
    const team = random() < 0.5 ? 'a' : 'b';
    const was = live.get(name);
    const store = server.store;
    let type: Write['type'];
    if (was === undefined) {
      if (!store.create(leaseOf(name, team, `h${random()}`)).ok) throw new Error(`create ${name}`);
      live.set(name, team);
      type = 'ADDED';
    } else if (random() < 0.2) {
      if (!store.delete('default', name).ok) throw new Error(`delete ${name}`);
      live.delete(name);
      type = 'DELETED';
    } else {
      if (!store.update(leaseOf(name, team, `h${random()}`)).ok) throw new Error(`update ${name}`);
      live.set(name, team);
      type = 'MODIFIED';
    }
    const now = live.get(name);
    writes.push({ type, name, rv: store.resourceVersion, before: was === 'a', after: now === 'a' });
  }
  return writes;
}

/** Reads a JSON watch until the sentinel's ADDED. */
async function readJson(server: LeaseApiServer, path: string): Promise<() => Promise<Seen[]>> {
  const reader = await watch(server, path);
  return async () => {
    const out: Seen[] = [];
    for (;;) {
      const event = await reader.next(20_000);
      if (event.type === 'BOOKMARK') continue;
      const meta = event.object.metadata;
      if (meta?.name === SENTINEL) break;
      out.push(seen(event.type, meta?.name ?? '', meta?.resourceVersion ?? ''));
    }
    reader.close();
    return out;
  };
}

/** Reads a protobuf watch (length-prefixed WatchEvent frames) until the sentinel's ADDED. */
async function readProtobuf(server: LeaseApiServer, path: string): Promise<() => Promise<Seen[]>> {
  const controller = new AbortController();
  const res = await fetch(server.url + path, { headers: { Accept: PROTOBUF_WATCH }, signal: controller.signal });
  expect(res.headers.get('content-type')).toBe(PROTOBUF_WATCH);
  const reader = res.body?.getReader();
  return async () => {
    const out: Seen[] = [];
    let buffered: Uint8Array = new Uint8Array(0);
    for (;;) {
      const chunk = await reader?.read();
      if (chunk === undefined || chunk.done) throw new Error('protobuf watch ended early');
      const parsed = frames(concat(buffered, chunk.value));
      buffered = parsed.rest;
      for (const frame of parsed.frames) {
        const type = text(frame, 1) ?? '';
        if (type === 'BOOKMARK') continue;
        const lease = openEnvelope(sub(sub(frame, 2) ?? new Uint8Array(0), 1) ?? new Uint8Array(0));
        const meta = sub(lease.raw, 1) ?? new Uint8Array(0);
        const name = text(meta, 1) ?? '';
        if (name === SENTINEL) {
          controller.abort();
          return out;
        }
        out.push(seen(type, name, text(meta, 6) ?? ''));
      }
    }
  };
}

describe.each([true, false])('watch fan-out with watchBatching %s', (watchBatching) => {
  let server: LeaseApiServer;
  afterEach(async () => server.close());

  it('delivers every event once, in order, to 50 JSON and protobuf watchers with and without a selector', async () => {
    server = await start({ watchBatching });
    const random = seededRandom(41);
    const live = new Map<string, string>();
    writeBurst(server, live, random, 30);
    const from = server.store.resourceVersion;
    const plain = `${NS_BASE}?watch=true&resourceVersion=${from}`;
    const selected = `${plain}&labelSelector=team%3Da`;
    const watchers: { selected: boolean; read: Promise<() => Promise<Seen[]>> }[] = [];
    for (let i = 0; i < 50; i++) {
      const isSelected = i % 2 === 1;
      const path = isSelected ? selected : plain;
      const read = i % 4 < 2 ? readJson(server, path) : readProtobuf(server, path);
      watchers.push({ selected: isSelected, read });
    }
    const readers = await Promise.all(watchers.map((w) => w.read));
    const results = readers.map((read) => read());
    // Bursts of synchronous writes (the events arrive together) separated by turns of the event loop.
    const writes: Write[] = [];
    for (let burst = 0; burst < 20; burst++) {
      writes.push(...writeBurst(server, live, random, 1 + Math.floor(random() * 25)));
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (!server.store.create(leaseOf(SENTINEL, 'a', 'end')).ok) throw new Error('sentinel');
    const got = await Promise.all(results);
    expect(writes.some((w) => w.before !== w.after && w.type === 'MODIFIED')).toBe(true);
    for (const [i, events] of got.entries()) {
      expect(events, `watcher ${i}`).toEqual(expectedFor(writes, watchers[i]?.selected ?? false));
    }
    expect(server.activeWatches()).toBeLessThanOrEqual(50);
  });
});
