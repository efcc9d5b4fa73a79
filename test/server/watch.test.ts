import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LeaseApiServer } from '../../templates/server/index.js';
import { BASE, NS_BASE, api, create, start, watch } from './helpers.js';

const merge = (spec: Record<string, unknown>, labels?: Record<string, string | null>): { body: unknown; contentType: string } => ({
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
    expect(added.object).toMatchObject({ kind: 'Lease', apiVersion: 'coordination.k8s.io/v1', metadata: { name: 'a' } });
    const modified = await w.next();
    expect(modified.type).toBe('MODIFIED');
    expect(modified.object.spec?.['holderIdentity']).toBe('h2');
    const deleted = await w.next();
    expect(deleted.type).toBe('DELETED');
    expect(Number(deleted.object.metadata?.resourceVersion)).toBeGreaterThan(Number(modified.object.metadata?.resourceVersion));
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
    expect(error.object).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Expired', code: 410 });
    expect(error.object.message).toMatch(new RegExp(`^too old resource version: ${start} \\(\\d+\\)$`));
    expect(await w.ended).toBe('end');
  });

  it('sends periodic BOOKMARK events when allowed', async () => {
    await create(server, 'a');
    const w = await watch(server, `${NS_BASE}?watch=true&allowWatchBookmarks=true&resourceVersion=${server.store.resourceVersion}`);
    const bookmark = await w.next();
    expect(bookmark).toEqual({ type: 'BOOKMARK', object: { kind: 'Lease', apiVersion: 'coordination.k8s.io/v1', metadata: { resourceVersion: server.store.resourceVersion } } });
    w.close();
  });

  it('sends initial events then an initial-events-end BOOKMARK with sendInitialEvents=true', async () => {
    await create(server, 'a');
    await create(server, 'b');
    const w = await watch(server, `${NS_BASE}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`);
    expect((await w.next()).type).toBe('ADDED');
    expect((await w.next()).type).toBe('ADDED');
    const end = await w.next();
    expect(end.type).toBe('BOOKMARK');
    expect(end.object.metadata?.annotations).toEqual({ 'k8s.io/initial-events-end': 'true' });
    expect(end.object.metadata?.resourceVersion).toBe(server.store.resourceVersion);
    w.close();
  });

  it('rejects sendInitialEvents without NotOlderThan or without bookmarks as invalid ListOptions', async () => {
    const noMatch = await api(server, 'GET', `${NS_BASE}?watch=true&sendInitialEvents=true&allowWatchBookmarks=true`);
    expect(noMatch.status).toBe(422);
    expect(noMatch.body.details?.causes).toEqual([
      { reason: 'FieldValueForbidden', message: 'Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan', field: 'resourceVersionMatch' },
    ]);
    const noBookmarks = await api(server, 'GET', `${NS_BASE}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan`);
    expect(noBookmarks.status).toBe(422);
    expect(noBookmarks.body.details?.causes?.[0]?.field).toBe('allowWatchBookmarks');
  });

  it('ends the stream cleanly after timeoutSeconds', async () => {
    const started = Date.now();
    const w = await watch(server, `${NS_BASE}?watch=true&timeoutSeconds=1`);
    expect(await w.ended).toBe('end');
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('applies selectors, turning objects that leave or enter the selection into DELETED/ADDED', async () => {
    await create(server, 'a', {}, { labels: { app: 'web' } });
    const w = await watch(server, `${NS_BASE}?watch=true&labelSelector=app%3Dweb&resourceVersion=${server.store.resourceVersion}`);
    await create(server, 'ignored', {}, { labels: { app: 'db' } });
    await api(server, 'PATCH', `${NS_BASE}/a`, merge({ holderIdentity: 'x' }));
    await api(server, 'PATCH', `${NS_BASE}/a`, merge({}, { app: 'db' }));
    await api(server, 'PATCH', `${NS_BASE}/ignored`, merge({}, { app: 'web' }));
    expect(await w.next()).toMatchObject({ type: 'MODIFIED', object: { metadata: { name: 'a' } } });
    expect(await w.next()).toMatchObject({ type: 'DELETED', object: { metadata: { name: 'a', labels: { app: 'db' } } } });
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
    expect(await all.next()).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'three', namespace: 'elsewhere' } } });
    expect(await single.next()).toMatchObject({ type: 'MODIFIED', object: { metadata: { name: 'two' } } });
    single.close();
    all.close();
  });

  it('streams Table rows when kubectl asks for them', async () => {
    const accept = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';
    const w = await watch(server, `${NS_BASE}?watch=true&resourceVersion=${server.store.resourceVersion}`, { Accept: accept });
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
