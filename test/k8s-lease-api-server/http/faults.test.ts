import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type {
  InjectedWatchFault,
  LeaseApiServer,
  RequestVerb,
  WatchFault,
} from '../../../templates/k8s-lease-api-server/src/index.js';
import type { ApiResponse } from '../helpers.js';
import { NS_BASE, api, create, lease, start, watch } from '../helpers.js';

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
      const updated = await api(clocked, 'PATCH', `${NS_BASE}/c?fieldManager=later`, {
        contentType: 'application/merge-patch+json',
        body: { spec: { holderIdentity: 'x' } },
      });
      expect(updated.body.metadata?.managedFields?.find((m) => m.manager === 'later')?.time).toBe(
        '2030-06-01T13:00:00Z',
      );
    } finally {
      await clocked.close();
    }
  });

  it('records requests for inspection', async () => {
    server.clearRequests();
    await api(server, 'GET', `${NS_BASE}?limit=1`, { headers: { 'User-Agent': 'probe/1.0' } });
    expect(server.requests()).toEqual([
      expect.objectContaining({ method: 'GET', path: NS_BASE, query: '?limit=1', status: 200, userAgent: 'probe/1.0' }),
    ]);
  });

  it('a clean cut (dropWatchAfterEvents) does not swallow the last event written before it', async () => {
    await create(server, 'a');
    server.setFaults({ dropWatchAfterEvents: 1 });
    const w = await watch(server, `${NS_BASE}?watch=true&resourceVersion=0`);
    expect((await w.next()).object.metadata?.name).toBe('a');
    expect(await w.ended).toBe('error');
  });
});

/** One request per Kubernetes verb; the watch is read for its status only, then closed. */
const VERB_REQUESTS: ReadonlyArray<
  [RequestVerb, (server: LeaseApiServer) => Promise<{ status: number; body?: ApiResponse['body'] }>]
> = [
  ['get', (s) => api(s, 'GET', `${NS_BASE}/sentinel`)],
  ['list', (s) => api(s, 'GET', NS_BASE)],
  [
    'watch',
    async (s) => {
      const w = await watch(s, `${NS_BASE}?watch=true&resourceVersion=${s.store.resourceVersion}`);
      w.close();
      return { status: w.status };
    },
  ],
  ['create', (s) => api(s, 'POST', NS_BASE, { body: lease('created') })],
  [
    'update',
    // A Lease update carries the resourceVersion it read (AllowUnconditionalUpdate is false).
    (s) =>
      api(s, 'PUT', `${NS_BASE}/other`, {
        body: lease(
          'other',
          { holderIdentity: 'u' },
          { resourceVersion: s.store.get('default', 'other')?.metadata.resourceVersion },
        ),
      }),
  ],
  [
    'patch',
    (s) =>
      api(s, 'PATCH', `${NS_BASE}/other`, {
        contentType: 'application/merge-patch+json',
        body: { spec: { holderIdentity: 'p' } },
      }),
  ],
  ['delete', (s) => api(s, 'DELETE', `${NS_BASE}/victim`)],
  ['deletecollection', (s) => api(s, 'DELETE', `${NS_BASE}?labelSelector=nothing%3Dhere`)],
];

describe('fault injection by verb', () => {
  let server: LeaseApiServer;
  beforeEach(async () => {
    server = await start();
    await create(server, 'sentinel', { holderIdentity: 'keep' });
    await create(server, 'other');
    await create(server, 'victim');
  });
  afterEach(() => server.close());

  it.each(VERB_REQUESTS.map(([verb]) => verb))(
    'fails only %s requests, with the injected status, reason and headers',
    async (verb) => {
      const sentinelBefore = server.store.get('default', 'sentinel');
      server.setFaults({
        httpError: {
          status: 504,
          message: 'injected for the test',
          headers: { 'X-Fault': 'yes' },
          when: (r) => r.verb === verb,
        },
      });
      for (const [other, send] of VERB_REQUESTS) {
        const res = await send(server);
        if (other === verb) {
          expect(res.status, other).toBe(504);
          if (res.body !== undefined)
            expect(res.body).toEqual({
              kind: 'Status',
              apiVersion: 'v1',
              metadata: {},
              status: 'Failure',
              message: 'injected for the test',
              reason: 'Timeout',
              code: 504,
            });
        } else {
          expect(res.status, other).toBeLessThan(300);
        }
      }
      expect(server.store.get('default', 'sentinel')).toEqual(sentinelBefore);
    },
  );

  it('passes headers and a verbatim body, and counts down', async () => {
    server.setFaults({
      httpError: [
        { status: 409, count: 1, body: 'not json', headers: { 'X-A': '1' }, when: (r) => r.verb === 'update' },
        { status: 418, count: 1 },
      ],
    });
    const first = await api(server, 'PUT', `${NS_BASE}/other`, { body: lease('other') });
    expect([first.status, first.text, first.headers.get('x-a')]).toEqual([409, 'not json', '1']);
    const second = await api(server, 'GET', NS_BASE);
    expect([second.status, second.body.reason]).toEqual([418, 'Unknown']);
    server.setFaults({ httpError: { status: 409, count: 2 } });
    expect((await api(server, 'POST', NS_BASE, { body: lease('dup') })).body.reason).toBe('AlreadyExists');
    expect((await api(server, 'PUT', `${NS_BASE}/other`, { body: lease('other') })).body.reason).toBe('Conflict');
    expect(server.store.get('default', 'dup')).toBeUndefined();
    expect((await api(server, 'GET', NS_BASE)).status).toBe(200);
  });
});

/** The raw bytes of a watch response, and whether it ended cleanly or broke. */
async function rawWatch(server: LeaseApiServer, path: string): Promise<{ chunks: string[]; ending: 'end' | 'error' }> {
  const res = await fetch(server.url + path);
  const reader = res.body?.getReader();
  const decoder = new TextDecoder();
  const chunks: string[] = [];
  if (reader === undefined) return { chunks, ending: 'end' };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { chunks, ending: 'end' };
      chunks.push(decoder.decode(value, { stream: true }));
    }
  } catch {
    return { chunks, ending: 'error' };
  }
}

describe('watch fault scripts', () => {
  let server: LeaseApiServer;
  let from: string;
  let effects: InjectedWatchFault['kind'][];
  beforeEach(async () => {
    server = await start({ bookmarkIntervalMs: 60_000 });
    from = server.store.resourceVersion;
    for (const name of ['a', 'b', 'c']) await create(server, name);
    effects = [];
  });
  afterEach(() => server.close());

  const script = (...watchFaults: WatchFault[]): void =>
    server.setFaults({ watch: watchFaults, onWatchFault: (f) => effects.push(f.kind) });

  it('cuts a connection in the middle of a line, then serves the next connection normally', async () => {
    script({ kind: 'cut', afterEvents: 1 });
    const cut = await rawWatch(server, `${NS_BASE}?watch=true&resourceVersion=${from}`);
    expect(cut.ending).toBe('error');
    const text = cut.chunks.join('');
    const [first, partial, ...rest] = text.split('\n');
    expect(JSON.parse(first ?? '')).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'a' } } });
    expect(rest).toEqual([]);
    expect(partial?.startsWith('{"type":"ADDED","object":{')).toBe(true);
    expect(() => JSON.parse(partial ?? '')).toThrow();
    expect(effects).toEqual(['cut']);
    const next = await watch(server, `${NS_BASE}?watch=true&resourceVersion=${from}`);
    expect([
      (await next.next()).object.metadata?.name,
      (await next.next()).object.metadata?.name,
      (await next.next()).object.metadata?.name,
    ]).toEqual(['a', 'b', 'c']);
    next.close();
  });

  it('cuts between lines when midLine is false, and at once with afterEvents 0', async () => {
    script({ kind: 'cut', afterEvents: 2, midLine: false }, { kind: 'cut', afterEvents: 0, midLine: false });
    const cut = await rawWatch(server, `${NS_BASE}?watch=true&resourceVersion=${from}`);
    expect(cut.ending).toBe('error');
    expect(
      cut.chunks
        .join('')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l).object.metadata.name),
    ).toEqual(['a', 'b']);
    const immediate = await rawWatch(server, `${NS_BASE}?watch=true&resourceVersion=${from}`);
    expect(immediate).toEqual({ chunks: [], ending: 'error' });
  });

  it('ends a connection cleanly after N events', async () => {
    script({ kind: 'end', afterEvents: 2 });
    const ended = await rawWatch(server, `${NS_BASE}?watch=true&resourceVersion=${from}`);
    expect(ended.ending).toBe('end');
    expect(
      ended.chunks
        .join('')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l).object.metadata.name),
    ).toEqual(['a', 'b']);
    expect(effects).toEqual(['end']);
  });

  it.each([
    [
      { code: 410, reason: 'Expired', message: 'too old resource version: 1 (5)' },
      { reason: 'Expired', message: 'too old resource version: 1 (5)' },
    ],
    [{ code: 500 }, { reason: 'InternalError', message: 'injected fault: InternalError' }],
  ])('sends an in-stream ERROR %j after N events, then ends', async (status, expected) => {
    script({ kind: 'error', afterEvents: 1, status });
    const w = await watch(server, `${NS_BASE}?watch=true&resourceVersion=${from}`);
    expect((await w.next()).object.metadata?.name).toBe('a');
    expect(await w.next()).toEqual({
      type: 'ERROR',
      object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: status.code, ...expected },
    });
    expect(await w.ended).toBe('end');
  });

  it('an idle stream sends no event, only bookmarks if asked, until the client leaves', async () => {
    script({ kind: 'idle' }, { kind: 'idle', bookmarkEveryMs: 20 });
    const silent = await rawWatch(server, `${NS_BASE}?watch=true&resourceVersion=${from}&timeoutSeconds=1`);
    expect(silent).toEqual({ chunks: [], ending: 'end' });
    const w = await watch(server, `${NS_BASE}?watch=true&resourceVersion=${from}`);
    const rv = server.store.resourceVersion;
    const events = [await w.next(), await w.next(), await w.next()];
    expect(events.map((e) => e.type)).toEqual(['BOOKMARK', 'BOOKMARK', 'BOOKMARK']);
    expect(events[0]?.object.metadata?.resourceVersion).toBe(rv);
    expect(server.activeWatches()).toBe(1);
    w.close();
    for (let i = 0; i < 100 && server.activeWatches() > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(server.activeWatches()).toBe(0);
    expect(effects).toEqual(['idle', 'idle']);
  });

  it('writes each event on its own after eventDelayMs', async () => {
    script({ kind: 'follow', eventDelayMs: 30 });
    const { chunks, ending } = await rawWatch(server, `${NS_BASE}?watch=true&resourceVersion=${from}&timeoutSeconds=1`);
    expect(ending).toBe('end');
    expect(chunks.map((c) => JSON.parse(c).object.metadata.name)).toEqual(['a', 'b', 'c']);
  });

  it('answers watches with an HTTP error (status, body, headers) while lists still work; plans apply in order, then watches are normal', async () => {
    script(
      {
        kind: 'http',
        status: 429,
        body: {
          kind: 'Status',
          apiVersion: 'v1',
          code: 429,
          reason: 'TooManyRequests',
          details: { retryAfterSeconds: 2 },
        },
        headers: { 'Retry-After': '2' },
      },
      { kind: 'http', status: 503, count: 2 },
    );
    expect((await api(server, 'GET', NS_BASE)).status).toBe(200);
    const throttled = await api(server, 'GET', `${NS_BASE}?watch=true`);
    expect([throttled.status, throttled.headers.get('retry-after'), throttled.body.details?.retryAfterSeconds]).toEqual(
      [429, '2', 2],
    );
    for (let i = 0; i < 2; i++) {
      const unavailable = await api(server, 'GET', `${NS_BASE}?watch=true`);
      expect([unavailable.status, unavailable.body.reason]).toEqual([503, 'ServiceUnavailable']);
    }
    const normal = await watch(server, `${NS_BASE}?watch=true&resourceVersion=${from}`);
    expect(normal.status).toBe(200);
    expect((await normal.next()).object.metadata?.name).toBe('a');
    normal.close();
    expect(effects).toEqual(['http', 'http', 'http']);
  });

  it('a plan with `when` leaves other watches alone', async () => {
    script({ kind: 'end', afterEvents: 0, when: (r) => r.query.get('labelSelector') === 'x=y' });
    const untouched = await watch(server, `${NS_BASE}?watch=true&resourceVersion=${from}`);
    expect((await untouched.next()).object.metadata?.name).toBe('a');
    untouched.close();
    expect(await rawWatch(server, `${NS_BASE}?watch=true&resourceVersion=${from}&labelSelector=x%3Dy`)).toEqual({
      chunks: [],
      ending: 'end',
    });
  });
});

describe('connection resets', () => {
  let server: LeaseApiServer;
  beforeEach(async () => {
    server = await start();
  });
  afterEach(() => server.close());

  const post = (name: string): Promise<Response> =>
    fetch(`${server.url}${NS_BASE}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(lease(name)),
    });

  it('drops the connection before handling: the client sees a reset and nothing is stored', async () => {
    server.setFaults({ connectionReset: { count: 1, when: (r) => r.verb === 'create' } });
    await expect(post('before')).rejects.toThrow(TypeError);
    expect(server.store.get('default', 'before')).toBeUndefined();
    expect((await post('before')).status).toBe(201);
  });

  it('drops it after the write was committed (afterCommit): the client sees a reset, the Lease is stored', async () => {
    server.setFaults({ connectionReset: { count: 1, afterCommit: true, when: (r) => r.verb === 'create' } });
    await expect(post('after')).rejects.toThrow(TypeError);
    expect(server.store.get('default', 'after')?.spec?.holderIdentity).toBe('h1');
    expect((await post('after')).status).toBe(409);
    expect((await api(server, 'GET', `${NS_BASE}/after`)).status).toBe(200);
  });
});
