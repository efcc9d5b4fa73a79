import { describe, expect, it } from 'vitest';
import {
  isKubernetesApiError,
  isServiceUnavailable,
  isTooManyRequests,
  type KubernetesApiError,
} from '../../../../templates/k8s-lease-client/src/runtime/errors.js';
import { withRetries } from '../../../../templates/k8s-lease-client/src/runtime/middleware/retries.js';
import type { RetryEvent } from '../../../../templates/k8s-lease-client/src/runtime/middleware/retries.js';
import { createClient } from '../../../../templates/k8s-lease-client/src/runtime/transport.js';
import type { HttpMethod, RequestSpec } from '../../../../templates/k8s-lease-client/src/runtime/transport.js';
import type { LeaseApiServer } from '../../../../templates/k8s-lease-api-server/src/index.js';
import { NS_BASE, start } from '../../../k8s-lease-api-server/helpers.js';
import { jsonHandler } from '../../../helpers/loopback.js';
import type { Handler } from '../../../helpers/loopback.js';
import { rejectionOf } from '../../../helpers/rejection.js';
import { failThen, fakeSleep, LEASE_PATH, lease, leaseLoopback, status } from '../helpers/lease-loopback.js';

const server = leaseLoopback();

describe('withRetries: which requests are retried', () => {
  const withRv = JSON.stringify(lease);
  const withoutRv = JSON.stringify({ ...lease, metadata: { name: 'my-lease', namespace: 'default' } });
  const rows: Array<{
    name: string;
    method: HttpMethod;
    query?: string;
    body?: string;
    contentType?: string;
    failure?: number;
    retried: boolean;
  }> = [
    { name: 'GET (get)', method: 'GET', retried: true },
    { name: 'GET (list)', method: 'GET', query: '?limit=5', retried: true },
    { name: 'GET ?watch=false', method: 'GET', query: '?watch=false', retried: true },
    { name: 'GET ?watch=true', method: 'GET', query: '?watch=true', retried: false },
    { name: 'GET ?watch=1', method: 'GET', query: '?watch=1', retried: false },
    { name: 'GET ?watch= (apimachinery: true)', method: 'GET', query: '?watch=', retried: false },
    { name: 'POST (create), even with a resourceVersion', method: 'POST', body: withRv, retried: false },
    { name: 'PUT without resourceVersion', method: 'PUT', body: withoutRv, retried: false },
    { name: 'PUT with resourceVersion', method: 'PUT', body: withRv, retried: true },
    {
      name: 'PUT with an empty resourceVersion',
      method: 'PUT',
      body: JSON.stringify({ metadata: { resourceVersion: '' } }),
      retried: false,
    },
    { name: 'DELETE without preconditions', method: 'DELETE', retried: false },
    {
      name: 'DELETE with preconditions.resourceVersion',
      method: 'DELETE',
      body: JSON.stringify({ preconditions: { resourceVersion: '42' } }),
      retried: true,
    },
    {
      name: 'DELETE with only preconditions.uid',
      method: 'DELETE',
      body: JSON.stringify({ preconditions: { uid: 'u' } }),
      retried: false,
    },
    {
      name: 'merge PATCH without resourceVersion',
      method: 'PATCH',
      body: '{"spec":{"holderIdentity":"b"}}',
      contentType: 'application/merge-patch+json',
      retried: false,
    },
    {
      name: 'merge PATCH setting metadata.resourceVersion',
      method: 'PATCH',
      body: '{"metadata":{"resourceVersion":"42"},"spec":{"holderIdentity":"b"}}',
      contentType: 'application/merge-patch+json',
      retried: true,
    },
    {
      name: 'JSON PATCH replacing /metadata/resourceVersion',
      method: 'PATCH',
      body: '[{"op":"replace","path":"/metadata/resourceVersion","value":"42"},{"op":"replace","path":"/spec/holderIdentity","value":"b"}]',
      contentType: 'application/json-patch+json',
      retried: true,
    },
    {
      name: 'JSON PATCH without resourceVersion',
      method: 'PATCH',
      body: '[{"op":"replace","path":"/spec/holderIdentity","value":"b"}]',
      contentType: 'application/json-patch+json',
      retried: false,
    },
    { name: 'GET after 504', method: 'GET', failure: 504, retried: true },
    {
      name: 'PUT with resourceVersion after 504 (may have been committed)',
      method: 'PUT',
      body: withRv,
      failure: 504,
      retried: false,
    },
    { name: 'PUT with resourceVersion after 429', method: 'PUT', body: withRv, failure: 429, retried: true },
    { name: 'GET after 500 without Retry-After', method: 'GET', failure: 500, retried: false },
    { name: 'GET after 409', method: 'GET', failure: 409, retried: false },
  ];

  it.each(rows)('$name → retried: $retried', async ({ method, query, body, contentType, failure = 503, retried }) => {
    const reasons: Record<number, string> = {
      409: 'Conflict',
      429: 'TooManyRequests',
      500: 'InternalError',
      503: 'ServiceUnavailable',
      504: 'Timeout',
    };
    server.handler = failThen(1, jsonHandler(failure, status(failure, reasons[failure] ?? 'Unknown')));
    const { sleep, waits } = fakeSleep();
    const events: RetryEvent[] = [];
    const client = createClient({
      baseUrl: server.baseUrl,
      fetch: withRetries(fetch, { sleep, random: () => 0, onRetry: (e) => events.push(e) }),
    });
    const spec: RequestSpec = {
      method,
      path: LEASE_PATH,
      ...(query === undefined ? {} : { query }),
      ...(body === undefined ? {} : { body }),
      ...(contentType ? { contentType } : {}),
    };
    const outcome = await client.request(spec).then(
      () => 'ok',
      (error: unknown) => error,
    );
    if (retried) {
      expect(outcome).toBe('ok');
      expect(server.requests).toHaveLength(2);
      // The same request went out again, body included.
      expect(server.requests[1]?.body).toBe(server.requests[0]?.body);
      expect(events).toEqual([
        { attempt: 1, delayMs: 1000, method, url: server.baseUrl + LEASE_PATH, reason: reasons[failure] },
      ]);
      expect(waits).toEqual([1000]);
    } else {
      expect(isKubernetesApiError(outcome) && outcome.status).toBe(failure);
      expect(server.requests).toHaveLength(1);
      expect(events).toEqual([]);
    }
  });

  it('never retries a create after a connection reset, and retries a GET', async () => {
    const reset: Handler = (_request, res) => res.socket?.destroy();
    for (const method of ['POST', 'PUT', 'GET'] as const) {
      server.requests.length = 0;
      server.handler = failThen(1, reset);
      const { sleep } = fakeSleep();
      const events: RetryEvent[] = [];
      const client = createClient({
        baseUrl: server.baseUrl,
        fetch: withRetries(fetch, { sleep, onRetry: (e) => events.push(e) }),
      });
      const outcome = await client
        .request({ method, path: LEASE_PATH, body: method === 'GET' ? undefined : JSON.stringify(lease) })
        .then(
          () => 'ok',
          (error: unknown) => error,
        );
      if (method === 'GET') {
        expect(outcome).toBe('ok');
        expect(events.map((e) => e.reason)).toEqual([expect.stringMatching(/^(ECONNRESET|UND_ERR_SOCKET|EPIPE)$/)]);
        expect(server.requests).toHaveLength(2);
      } else {
        // Even a conditional PUT: the reset may have come after the write was committed.
        expect(outcome).toBeInstanceOf(TypeError);
        expect(events).toEqual([]);
        expect(server.requests).toHaveLength(1);
      }
    }
  });

  it.each([
    {
      name: 'the code on the error itself (a wrapper such as ClusterConnectionError)',
      error: () => Object.assign(new TypeError('cannot reach'), { code: 'ECONNRESET' }),
    },
    {
      name: 'the code two causes down',
      error: () =>
        new TypeError('wrapped', {
          cause: new Error('fetch failed', { cause: Object.assign(new Error('socket'), { code: 'UND_ERR_SOCKET' }) }),
        }),
    },
  ])('finds a reset code on $name, and retries a GET but not a POST', async ({ error }) => {
    for (const method of ['GET', 'POST'] as const) {
      let calls = 0;
      const failing: typeof fetch = async (input, init) =>
        ++calls === 1 ? Promise.reject(error()) : fetch(input, init);
      server.handler = jsonHandler(200, lease);
      const events: RetryEvent[] = [];
      const client = createClient({
        baseUrl: server.baseUrl,
        fetch: withRetries(failing, { sleep: fakeSleep().sleep, onRetry: (e) => events.push(e) }),
      });
      const outcome = await client
        .request({ method, path: LEASE_PATH, body: method === 'GET' ? undefined : JSON.stringify(lease) })
        .then(
          () => 'ok',
          (e: unknown) => e,
        );
      if (method === 'GET') {
        expect(outcome).toBe('ok');
        expect(events).toHaveLength(1);
        expect(calls).toBe(2);
      } else {
        expect(outcome).toBeInstanceOf(TypeError);
        expect(events).toEqual([]);
        expect(calls).toBe(1);
      }
    }
  });

  it('walks a cyclic cause chain a bounded number of steps and does not retry when no reset code is on it', async () => {
    const cyclic = new TypeError('loop');
    Object.defineProperty(cyclic, 'cause', { value: new Error('inner', { cause: cyclic }) });
    let calls = 0;
    const failing: typeof fetch = async () => {
      calls += 1;
      throw cyclic;
    };
    const client = createClient({ baseUrl: server.baseUrl, fetch: withRetries(failing, { sleep: fakeSleep().sleep }) });
    // The transport names the request in a ConnectionError and keeps what the fetch threw as its cause.
    expect(((await rejectionOf(client.request({ method: 'GET', path: LEASE_PATH }))) as Error).cause).toBe(cyclic);
    expect(calls).toBe(1);
  });

  it('retries a GET answered by the real Lease API server with 429 twice and 503 once, and never a create', async () => {
    const api: LeaseApiServer = await start();
    try {
      const plain = createClient({ baseUrl: api.url });
      const created = await plain.request<typeof lease>({
        method: 'POST',
        path: NS_BASE,
        body: JSON.stringify({ metadata: { name: 'sentinel' }, spec: { holderIdentity: 'a' } }),
      });
      api.setFaults({
        throttle: { count: 2, retryAfterSeconds: 1 },
        httpError: { status: 503, count: 1, when: (r) => r.verb === 'get' },
      });
      const { sleep, waits } = fakeSleep();
      const events: RetryEvent[] = [];
      const client = createClient({
        baseUrl: api.url,
        fetch: withRetries(fetch, { sleep, random: () => 0, baseDelayMs: 200, onRetry: (e) => events.push(e) }),
      });
      const read = await client.request<typeof lease>({
        method: 'GET',
        path: `${NS_BASE}/sentinel`,
        query: '?pretty=false',
      });
      expect(read).toEqual(created);
      expect(events).toEqual([
        { attempt: 1, delayMs: 1000, method: 'GET', url: `${api.url}${NS_BASE}/sentinel`, reason: 'TooManyRequests' },
        { attempt: 2, delayMs: 1000, method: 'GET', url: `${api.url}${NS_BASE}/sentinel`, reason: 'TooManyRequests' },
        { attempt: 3, delayMs: 800, method: 'GET', url: `${api.url}${NS_BASE}/sentinel`, reason: 'ServiceUnavailable' },
      ]);
      expect(waits).toEqual([1000, 1000, 800]);

      // A throttled create comes back as the 429, and nothing was created.
      api.setFaults({ throttle: { count: 1, retryAfterSeconds: 1 } });
      const error = await rejectionOf(
        client.request({ method: 'POST', path: NS_BASE, body: JSON.stringify({ metadata: { name: 'other' } }) }),
      );
      expect(isTooManyRequests(error)).toBe(true);
      expect((error as KubernetesApiError).retryAfterSeconds).toBe(1);
      expect(events).toHaveLength(3);
      expect(await rejectionOf(plain.request({ method: 'GET', path: `${NS_BASE}/other` }))).toMatchObject({
        status: 404,
      });

      // A throttled conditional replace is applied exactly once.
      api.setFaults({ throttle: { count: 1, retryAfterSeconds: 1 } });
      const replaced = await client.request<typeof lease & { spec: { holderIdentity?: string } }>({
        method: 'PUT',
        path: `${NS_BASE}/sentinel`,
        body: JSON.stringify({ ...created, spec: { holderIdentity: 'b' } }),
      });
      expect(replaced.spec.holderIdentity).toBe('b');
      expect(Number(replaced.metadata.resourceVersion)).toBeGreaterThan(Number(created.metadata.resourceVersion));
      expect(await plain.request({ method: 'GET', path: `${NS_BASE}/sentinel` })).toEqual(replaced);
      expect(events.at(-1)).toMatchObject({ method: 'PUT', reason: 'TooManyRequests' });
    } finally {
      await api.close();
    }
  });
});

describe('withRetries: delays, budget, abort', () => {
  it.each<{ name: string; headers: Record<string, string>; body: unknown; delayMs: number }>([
    {
      name: 'Retry-After in seconds',
      headers: { 'retry-after': '3' },
      body: status(429, 'TooManyRequests'),
      delayMs: 3000,
    },
    {
      name: 'Retry-After as an HTTP date',
      headers: { 'retry-after': new Date(1_000_000_000_000 + 7000).toUTCString() },
      body: status(429, 'TooManyRequests'),
      delayMs: 7000,
    },
    {
      name: "a 429 Status's details.retryAfterSeconds",
      headers: {},
      body: status(429, 'TooManyRequests', { details: { retryAfterSeconds: 4 } }),
      delayMs: 4000,
    },
    {
      name: 'backoff when the server asks for less',
      headers: { 'retry-after': '0' },
      body: status(429, 'TooManyRequests'),
      delayMs: 1000,
    },
    { name: 'backoff for a body that is not a Status', headers: {}, body: '<html>busy</html>', delayMs: 1000 },
  ])('honours $name', async ({ headers, body, delayMs }) => {
    server.handler = failThen(1, jsonHandler(429, body, headers));
    const { sleep, waits } = fakeSleep();
    const client = createClient({
      baseUrl: server.baseUrl,
      fetch: withRetries(fetch, { sleep, random: () => 0, now: () => 1_000_000_000_000 }),
    });
    await client.request({ method: 'GET', path: LEASE_PATH });
    expect(waits).toEqual([delayMs]);
    expect(server.requests).toHaveLength(2);
  });

  it('backs off exponentially with jitter, capped at maxDelayMs, up to maxRetries', async () => {
    server.handler = jsonHandler(503, status(503, 'ServiceUnavailable'));
    const before = server.connections;
    const { sleep, waits } = fakeSleep();
    const client = createClient({
      baseUrl: server.baseUrl,
      fetch: withRetries(fetch, {
        sleep,
        random: () => 0.5,
        baseDelayMs: 100,
        maxDelayMs: 1000,
        maxRetries: 6,
        budget: false,
      }),
    });
    const error = await rejectionOf(client.request({ method: 'GET', path: LEASE_PATH }));
    // The caller gets the last answer, as a KubernetesApiError.
    expect(isServiceUnavailable(error)).toBe(true);
    expect(server.requests).toHaveLength(7);
    // 100·2ⁿ capped at 1000, less a quarter (random 0.5 → half of the up-to-half jitter).
    expect(waits).toEqual([75, 150, 300, 600, 750, 750]);
    // Retried bodies were read, so every attempt reused the one keep-alive connection.
    expect(server.connections - before).toBeLessThanOrEqual(1);
  });

  it('reuses the connection across retries', async () => {
    const before = server.connections;
    server.handler = failThen(3, jsonHandler(503, status(503, 'ServiceUnavailable')));
    const { sleep } = fakeSleep();
    const client = createClient({ baseUrl: server.baseUrl, fetch: withRetries(fetch, { sleep }) });
    await client.request({ method: 'GET', path: LEASE_PATH });
    expect(server.requests).toHaveLength(4);
    expect(server.connections - before).toBeLessThanOrEqual(1);
  });

  it('gives the answer back when the server asks to wait longer than maxDelayMs', async () => {
    server.handler = jsonHandler(429, status(429, 'TooManyRequests', { details: { retryAfterSeconds: 120 } }), {
      'retry-after': '120',
    });
    const { sleep, waits } = fakeSleep();
    const client = createClient({ baseUrl: server.baseUrl, fetch: withRetries(fetch, { sleep, maxDelayMs: 30_000 }) });
    const error = await rejectionOf(client.request({ method: 'GET', path: LEASE_PATH }));
    expect(error).toMatchObject({
      status: 429,
      reason: 'TooManyRequests',
      retryAfterSeconds: 120,
      message:
        'GET /apis/coordination.k8s.io/v1/namespaces/default/leases/my-lease: 429 TooManyRequests: injected TooManyRequests',
    });
    expect(waits).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('stops retrying when the shared budget is spent, and earns it back with successes', async () => {
    server.handler = jsonHandler(503, status(503, 'ServiceUnavailable'));
    const { sleep } = fakeSleep();
    const retrying = withRetries(fetch, { sleep, budget: { maxTokens: 4, tokenRatio: 1 } });
    const client = createClient({ baseUrl: server.baseUrl, fetch: retrying });
    // 4 tokens, retries only while more than 2 are left: one retry, then none.
    expect(await rejectionOf(client.request({ method: 'GET', path: LEASE_PATH }))).toMatchObject({ status: 503 });
    expect(server.requests).toHaveLength(2);
    expect(await rejectionOf(client.request({ method: 'GET', path: LEASE_PATH }))).toMatchObject({ status: 503 });
    expect(server.requests).toHaveLength(3);
    // Successes refill the bucket (one token each here), and retries resume.
    server.handler = jsonHandler(200, lease);
    for (let i = 0; i < 4; i++) await client.request({ method: 'GET', path: LEASE_PATH });
    server.requests.length = 0;
    server.handler = failThen(1, jsonHandler(503, status(503, 'ServiceUnavailable')));
    await client.request({ method: 'GET', path: LEASE_PATH });
    expect(server.requests).toHaveLength(2);
  });

  it('rejects with the caller’s reason when aborted during the backoff, and sends nothing more', async () => {
    server.handler = jsonHandler(503, status(503, 'ServiceUnavailable'), { 'retry-after': '20' });
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    // The real sleep (20 s); the abort comes as soon as the wait starts.
    const client = createClient({
      baseUrl: server.baseUrl,
      fetch: withRetries(fetch, { onRetry: () => queueMicrotask(() => controller.abort(reason)) }),
    });
    expect(await rejectionOf(client.request({ method: 'GET', path: LEASE_PATH }, { signal: controller.signal }))).toBe(
      reason,
    );
    expect(server.requests).toHaveLength(1);
  });

  it('never retries a request the caller aborted', async () => {
    const controller = new AbortController();
    server.handler = () => controller.abort(new Error('stop'));
    const events: RetryEvent[] = [];
    const client = createClient({
      baseUrl: server.baseUrl,
      fetch: withRetries(fetch, { onRetry: (e) => events.push(e) }),
    });
    expect(
      await rejectionOf(client.request({ method: 'GET', path: LEASE_PATH }, { signal: controller.signal })),
    ).toMatchObject({ message: 'stop' });
    expect(events).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('reports the url without query string or credentials', async () => {
    server.handler = failThen(1, jsonHandler(503, status(503, 'ServiceUnavailable')));
    const events: RetryEvent[] = [];
    const retrying = withRetries(fetch, { sleep: fakeSleep().sleep, onRetry: (e) => events.push(e) });
    await retrying(`${server.baseUrl}${LEASE_PATH}?labelSelector=a%3Db&token=secret#frag`);
    expect(events.map((e) => e.url)).toEqual([server.baseUrl + LEASE_PATH]);
  });
});
