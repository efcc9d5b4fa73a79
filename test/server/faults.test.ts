import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LeaseApiServer } from '../../templates/server/index.js';
import { NS_BASE, api, create, start, watch } from './helpers.js';

describe('fault injection and clock control', () => {
  let server: LeaseApiServer;
  beforeEach(async () => {
    server = await start();
  });
  afterEach(() => server.close());

  it('adds latency to every request', async () => {
    server.setFaults({ latencyMs: 120 });
    const started = Date.now();
    await api(server, 'GET', NS_BASE);
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);
    server.setFaults(undefined);
  });

  it('throttles the next K requests with 429 and Retry-After', async () => {
    server.setFaults({ throttle: { count: 2, retryAfterSeconds: 3 } });
    for (let i = 0; i < 2; i++) {
      const res = await api(server, 'GET', NS_BASE);
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('3');
      expect(res.body).toMatchObject({ reason: 'TooManyRequests', details: { retryAfterSeconds: 3 }, code: 429 });
    }
    expect((await api(server, 'GET', NS_BASE)).status).toBe(200);
  });

  it('throttles only requests matching a predicate', async () => {
    server.setFaults({ throttle: { when: (r) => r.method === 'POST' } });
    expect((await api(server, 'GET', NS_BASE)).status).toBe(200);
    expect((await api(server, 'POST', NS_BASE, { body: { metadata: { name: 'a' } } })).status).toBe(429);
    expect((await api(server, 'POST', NS_BASE, { body: { metadata: { name: 'a' } } })).status).toBe(429);
  });

  it('fails the next K requests with 500 or 503', async () => {
    server.setFaults({ serverError: { count: 1 } });
    const internal = await api(server, 'GET', NS_BASE);
    expect(internal.status).toBe(500);
    expect(internal.body.reason).toBe('InternalError');
    server.setFaults({ serverError: { count: 1, status: 503, message: 'etcd is sad' } });
    const unavailable = await api(server, 'GET', NS_BASE);
    expect(unavailable.status).toBe(503);
    expect(unavailable.body).toMatchObject({ reason: 'ServiceUnavailable', message: 'etcd is sad' });
    expect((await api(server, 'GET', NS_BASE)).status).toBe(200);
  });

  it('composes latency with throttling', async () => {
    server.setFaults({ latencyMs: 50, throttle: { count: 1 } });
    const started = Date.now();
    expect((await api(server, 'GET', NS_BASE)).status).toBe(429);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('drops a watch connection mid-stream after N events (not a clean end)', async () => {
    server.setFaults({ dropWatchAfterEvents: 2 });
    const w = await watch(server, `${NS_BASE}?watch=true&resourceVersion=${server.store.resourceVersion}`);
    await create(server, 'a');
    await create(server, 'b');
    await create(server, 'c');
    expect((await w.next()).object.metadata?.name).toBe('a');
    expect((await w.next()).object.metadata?.name).toBe('b');
    expect(await w.ended).toBe('error');
  });

  it('stamps timestamps from the controllable clock', async () => {
    const clocked = await start({ clock: () => Date.parse('2030-06-01T12:00:00.999Z') });
    try {
      const created = await create(clocked, 'c');
      expect(created.metadata?.creationTimestamp).toBe('2030-06-01T12:00:00Z');
      clocked.advanceClock(3_600_000);
      expect(clocked.now().toISOString()).toBe('2030-06-01T13:00:00.999Z');
      const updated = await api(clocked, 'PATCH', `${NS_BASE}/c?fieldManager=later`, { contentType: 'application/merge-patch+json', body: { spec: { holderIdentity: 'x' } } });
      expect(updated.body.metadata?.managedFields?.find((m) => m.manager === 'later')?.time).toBe('2030-06-01T13:00:00Z');
    } finally {
      await clocked.close();
    }
  });

  it('records requests for inspection', async () => {
    server.clearRequests();
    await api(server, 'GET', `${NS_BASE}?limit=1`, { headers: { 'User-Agent': 'probe/1.0' } });
    expect(server.requests()).toEqual([expect.objectContaining({ method: 'GET', path: NS_BASE, query: '?limit=1', status: 200, userAgent: 'probe/1.0' })]);
  });
});
