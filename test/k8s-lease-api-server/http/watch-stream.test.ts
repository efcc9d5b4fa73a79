import type { Socket } from 'node:net';
import { connect } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import { BASE, NS_BASE, api, create, start, watch } from '../helpers.js';

const merge = (
  spec: Record<string, unknown>,
  labels?: Record<string, string | null>,
): { body: unknown; contentType: string } => ({
  body: labels === undefined ? { spec } : { spec, metadata: { labels } },
  contentType: 'application/merge-patch+json',
});

describe('watch', () => {
  let server: LeaseApiServer;
  beforeEach(async () => {
    server = await start({ historyWindow: 10, bookmarkIntervalMs: 50 });
  });
  afterEach(() => server.close());

  it('streams ADDED, MODIFIED and DELETED as newline-delimited JSON with kind set', async () => {
    const w = await watch(server, `${NS_BASE}?watch=true&resourceVersion=${server.store.resourceVersion}`);
    expect(w.status).toBe(200);
    expect(w.headers.get('content-type')).toBe('application/json');
    expect(w.headers.get('transfer-encoding')).toBe('chunked');
    await create(server, 'a');
    await api(server, 'PATCH', `${NS_BASE}/a`, merge({ holderIdentity: 'h2' }));
    await api(server, 'DELETE', `${NS_BASE}/a`);
    const added = await w.next();
    expect(added.type).toBe('ADDED');
    expect(added.object).toMatchObject({
      kind: 'Lease',
      apiVersion: 'coordination.k8s.io/v1',
      metadata: { name: 'a' },
    });
    const modified = await w.next();
    expect(modified.type).toBe('MODIFIED');
    expect(modified.object.spec?.['holderIdentity']).toBe('h2');
    const deleted = await w.next();
    expect(deleted.type).toBe('DELETED');
    expect(Number(deleted.object.metadata?.resourceVersion)).toBeGreaterThan(
      Number(modified.object.metadata?.resourceVersion),
    );
    w.close();
  });

  it('starts with synthetic ADDED events for resourceVersion unset or 0, then goes live', async () => {
    await create(server, 'x');
    await create(server, 'y');
    for (const query of ['watch=1', 'watch=true&resourceVersion=0']) {
      const w = await watch(server, `${NS_BASE}?${query}`);
      expect((await w.next()).object.metadata?.name).toBe('x');
      expect((await w.next()).object.metadata?.name).toBe('y');
      w.close();
    }
    const w = await watch(server, `${NS_BASE}?watch=1`);
    await w.next();
    await w.next();
    await create(server, 'z');
    expect(await w.next()).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'z' } } });
    w.close();
  });

  it('resumes from a resourceVersion with the events strictly after it', async () => {
    await create(server, 'a');
    const rv = server.store.resourceVersion;
    await create(server, 'b');
    await api(server, 'PATCH', `${NS_BASE}/a`, merge({ holderIdentity: 'later' }));
    const w = await watch(server, `${NS_BASE}?watch=true&resourceVersion=${rv}`);
    expect(await w.next()).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'b' } } });
    expect(await w.next()).toMatchObject({ type: 'MODIFIED', object: { metadata: { name: 'a' } } });
    w.close();
  });

  it('sends an in-stream 410 ERROR for a resourceVersion older than the history window', async () => {
    const start = server.store.resourceVersion;
    for (let i = 0; i < 15; i++) await create(server, `n${i}`);
    const w = await watch(server, `${NS_BASE}?watch=true&resourceVersion=${start}`);
    expect(w.status).toBe(200);
    const error = await w.next();
    expect(error.type).toBe('ERROR');
    expect(error.object).toMatchObject({
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      reason: 'Expired',
      code: 410,
    });
    expect(error.object.message).toMatch(new RegExp(`^too old resource version: ${start} \\(\\d+\\)$`));
    expect(await w.ended).toBe('end');
  });

  it('sends periodic BOOKMARK events when allowed', async () => {
    await create(server, 'a');
    const w = await watch(
      server,
      `${NS_BASE}?watch=true&allowWatchBookmarks=true&resourceVersion=${server.store.resourceVersion}`,
    );
    const bookmark = await w.next();
    expect(bookmark).toEqual({
      type: 'BOOKMARK',
      object: {
        kind: 'Lease',
        apiVersion: 'coordination.k8s.io/v1',
        metadata: { resourceVersion: server.store.resourceVersion },
        spec: {},
      },
    });
    w.close();
  });

  it('sends initial events then an initial-events-end BOOKMARK with sendInitialEvents=true', async () => {
    await create(server, 'a');
    await create(server, 'b');
    const w = await watch(
      server,
      `${NS_BASE}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`,
    );
    expect((await w.next()).type).toBe('ADDED');
    expect((await w.next()).type).toBe('ADDED');
    const end = await w.next();
    expect(end.type).toBe('BOOKMARK');
    expect(end.object.metadata?.annotations).toEqual({ 'k8s.io/initial-events-end': 'true' });
    expect(end.object.metadata?.resourceVersion).toBe(server.store.resourceVersion);
    w.close();
  });

  it('rejects sendInitialEvents without NotOlderThan as invalid ListOptions, but not without bookmarks', async () => {
    const noMatch = await api(server, 'GET', `${NS_BASE}?watch=true&sendInitialEvents=true&allowWatchBookmarks=true`);
    expect(noMatch.status).toBe(422);
    expect(noMatch.body.details?.causes).toEqual([
      {
        reason: 'FieldValueForbidden',
        message: 'Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
        field: 'resourceVersionMatch',
      },
    ]);
    // validation_test.go "watch-sendInitialEvents-no-allowWatchBookmark": valid; the initial events
    // come without the end bookmark (Cacher.setInitialEventsEndBookmarkIfRequested).
    await create(server, 'only');
    const noBookmarks = await watch(
      server,
      `${NS_BASE}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan`,
    );
    expect(noBookmarks.status).toBe(200);
    expect(await noBookmarks.next()).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'only' } } });
    await create(server, 'later');
    expect(await noBookmarks.next()).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'later' } } });
    noBookmarks.close();
  });

  it('ends the stream cleanly after timeoutSeconds', async () => {
    const started = Date.now();
    const w = await watch(server, `${NS_BASE}?watch=true&timeoutSeconds=1`);
    expect(await w.ended).toBe('end');
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('applies selectors, turning objects that leave or enter the selection into DELETED/ADDED', async () => {
    await create(server, 'a', {}, { labels: { app: 'web' } });
    const w = await watch(
      server,
      `${NS_BASE}?watch=true&labelSelector=app%3Dweb&resourceVersion=${server.store.resourceVersion}`,
    );
    await create(server, 'ignored', {}, { labels: { app: 'db' } });
    await api(server, 'PATCH', `${NS_BASE}/a`, merge({ holderIdentity: 'x' }));
    await api(server, 'PATCH', `${NS_BASE}/a`, merge({}, { app: 'db' }));
    await api(server, 'PATCH', `${NS_BASE}/ignored`, merge({}, { app: 'web' }));
    expect(await w.next()).toMatchObject({ type: 'MODIFIED', object: { metadata: { name: 'a' } } });
    expect(await w.next()).toMatchObject({
      type: 'DELETED',
      object: { metadata: { name: 'a', labels: { app: 'db' } } },
    });
    expect(await w.next()).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'ignored' } } });
    w.close();
  });

  it('serves the deprecated /watch/ paths, including the single-object one', async () => {
    await create(server, 'one');
    await create(server, 'two');
    const single = await watch(server, `${BASE}/watch/namespaces/default/leases/two`);
    expect(await single.next()).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'two' } } });
    const all = await watch(server, `${BASE}/watch/leases?resourceVersion=${server.store.resourceVersion}`);
    await create(server, 'three', {}, {}, 'elsewhere');
    await api(server, 'PATCH', `${NS_BASE}/one`, merge({ holderIdentity: 'o' }));
    await api(server, 'PATCH', `${NS_BASE}/two`, merge({ holderIdentity: 't' }));
    expect(await all.next()).toMatchObject({
      type: 'ADDED',
      object: { metadata: { name: 'three', namespace: 'elsewhere' } },
    });
    expect(await single.next()).toMatchObject({ type: 'MODIFIED', object: { metadata: { name: 'two' } } });
    single.close();
    all.close();
  });

  it('streams Table rows when kubectl asks for them', async () => {
    const accept = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';
    const w = await watch(server, `${NS_BASE}?watch=true&resourceVersion=${server.store.resourceVersion}`, {
      Accept: accept,
    });
    await create(server, 'tbl', { holderIdentity: 'me' });
    const event = await w.next();
    expect(event.type).toBe('ADDED');
    expect(event.object.kind).toBe('Table');
    expect(event.object.rows?.[0]?.cells.slice(0, 2)).toEqual(['tbl', 'me']);
    w.close();
  });

  it('closes open watch streams on close()', async () => {
    const w = await watch(server, `${NS_BASE}?watch=true`);
    expect(server.activeWatches()).toBe(1);
    await server.close();
    expect(await w.ended).toBe('end');
    expect(server.activeWatches()).toBe(0);
  });

  it('forgets a watcher whose client went away', async () => {
    const w = await watch(server, `${NS_BASE}?watch=true`);
    w.close();
    for (let i = 0; i < 50 && server.activeWatches() > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(server.activeWatches()).toBe(0);
  });
});

// A watch client that sends its request and then never reads: the kernel's buffers fill, then the
// server's. kube-apiserver's cacher terminates such a watcher instead of buffering for it.
function neverReadingWatch(server: LeaseApiServer, path: string): Socket {
  const url = new URL(server.url);
  const socket = connect({ host: url.hostname, port: Number(url.port) });
  socket.pause();
  socket.on('error', () => undefined);
  socket.write(`GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\nAccept: application/json\r\n\r\n`);
  return socket;
}

// Exposes the collector without a Node flag on the command line (a documented V8 trick); the
// figures are then live memory, not garbage waiting for the next collection.
setFlagsFromString('--expose-gc');
const collectGarbage: () => void = runInNewContext('gc');

/**
 * Heap plus external memory after full collections. V8 frees a dead ArrayBuffer's backing store on a
 * background thread after the collection (its ArrayBufferSweeper), so `external` read straight after
 * gc() still counts buffers that are already garbage; collecting until the figure stops falling (with
 * a turn of the event loop between) reads what is live.
 */
async function liveBytes(): Promise<number> {
  let previous = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 10; round++) {
    collectGarbage();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const usage = process.memoryUsage();
    const live = usage.heapUsed + usage.external;
    if (live >= previous) return Math.min(live, previous);
    previous = live;
  }
  return previous;
}

async function until(predicate: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 2000 && !predicate(); i++) await new Promise((r) => setTimeout(r, 5));
  if (!predicate()) throw new Error(`timed out waiting for ${what}`);
}

describe('watch: a watcher that cannot keep up', () => {
  it('is not terminated for initial events larger than its buffer: it gets them all, then live events', async () => {
    const server = await start({ watchBufferBytes: 64 * 1024, watchBlockedTimeoutMs: 20 });
    try {
      const names = Array.from({ length: 20 }, (_, i) => `big-${String(i).padStart(2, '0')}`);
      for (const name of names) await create(server, name, {}, { annotations: { payload: 'y'.repeat(50_000) } });
      const w = await watch(server, `${NS_BASE}?watch=true`);
      const initial: string[] = [];
      for (const _ of names) initial.push(`${(await w.next()).object.metadata?.name}`);
      expect(initial).toEqual(names);
      await create(server, 'live');
      expect(await w.next()).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'live' } } });
      expect(server.activeWatches()).toBe(1);
      w.close();
    } finally {
      await server.close();
    }
  });

  const EVENTS = 500;
  const VALUE = 'x'.repeat(200_000);
  const BUFFER = 1024 * 1024;

  it(`is terminated after its buffer stays full; memory stays bounded and reading watchers see all ${EVENTS} events of 200 KB`, async () => {
    const server = await start({ historyWindow: 5, watchBufferBytes: BUFFER, watchBlockedTimeoutMs: 50 });
    try {
      const sentinel = await create(server, 'sentinel', { holderIdentity: 'keep' });
      await create(server, 'big');
      const from = server.store.resourceVersion;
      const path = `${NS_BASE}?watch=true&resourceVersion=${from}`;
      const reader = await watch(server, path);
      const received: string[] = [];
      const drained = (async (): Promise<void> => {
        while (!received.some((r) => r.startsWith('ADDED after@'))) {
          const event = await reader.next(10_000).catch(() => undefined);
          if (event === undefined) return;
          received.push(`${event.type} ${event.object.metadata?.name}@${event.object.metadata?.resourceVersion}`);
        }
      })();
      const slow = neverReadingWatch(server, path);
      await until(() => server.activeWatches() === 2, 'both watches to open');
      const before = await liveBytes();

      const expected: string[] = [];
      for (let i = 0; i < EVENTS; i++) {
        const current = server.store.get('default', 'big');
        if (current === undefined) throw new Error('big vanished');
        const written = server.store.update({
          ...current,
          metadata: { ...current.metadata, annotations: { payload: `${i}${VALUE}` } },
        });
        if (!written.ok) throw new Error(written.error.message);
        expected.push(`MODIFIED big@${written.value.metadata.resourceVersion}`);
        // The reading watcher is paced, as a real one keeps up; only the never-reading one falls behind.
        await until(() => received.length >= i - 1, `the reader to see event ${i - 1}`);
      }
      await until(() => received.length === EVENTS, 'the reader to see every event');
      const growth = (await liveBytes()) - before;
      expect(received).toEqual(expected);
      // Unbounded, the never-reading watcher would hold about EVENTS × 200 KB = 100 MB here.
      expect(growth, `live memory grew by ${growth} bytes`).toBeLessThan(20 * 1024 * 1024);
      await until(() => server.activeWatches() === 1, 'the blocked watcher to be terminated');
      // Its client, reading at last, finds the connection closed (client-go would re-watch).
      const slowClosed = new Promise<void>((resolve) => slow.once('close', () => resolve()));
      slow.resume();
      await slowClosed;
      // The server still serves, and the data is intact.
      const sentinelNow = await api(server, 'GET', `${NS_BASE}/sentinel`);
      expect(sentinelNow.status).toBe(200);
      expect(sentinelNow.body.spec?.['holderIdentity']).toBe('keep');
      expect(sentinelNow.body.metadata?.resourceVersion).toBe(sentinel.metadata?.resourceVersion);
      const after = await create(server, 'after');
      await drained;
      expect(received.at(-1)).toBe(`ADDED after@${after.metadata?.resourceVersion}`);
      reader.close();
      slow.destroy();
    } finally {
      await server.close();
    }
  }, 60_000);
});
