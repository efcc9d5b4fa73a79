import { getEventListeners } from 'node:events';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  isConflict,
  isKubernetesApiError,
  KubernetesApiError,
  RequestTimeoutError,
  ResponseDecodeError,
} from '../../../templates/k8s-lease-client/src/runtime/errors.js';
import { createClient } from '../../../templates/k8s-lease-client/src/runtime/transport.js';
import type { RequestSpec } from '../../../templates/k8s-lease-client/src/runtime/transport.js';
import { jsonHandler, startLoopback } from '../../helpers/loopback.js';
import type { Loopback } from '../../helpers/loopback.js';
import { rejectionOf } from '../../helpers/rejection.js';

const LEASE_PATH = '/apis/coordination.k8s.io/v1/namespaces/default/leases/my-lease';
const GET: RequestSpec = { method: 'GET', path: LEASE_PATH };
const lease = {
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name: 'my-lease', namespace: 'default', resourceVersion: '42' },
  spec: { holderIdentity: 'a', leaseDurationSeconds: 15, renewTime: '2024-05-01T12:00:00.123456Z' },
};

function activeTimeouts(): number {
  return process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length;
}

let server: Loopback;
beforeAll(async () => {
  server = await startLoopback();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
  server.handler = jsonHandler(200, lease);
});

describe('createClient', () => {
  it('normalises the baseUrl and keeps a path prefix', () => {
    expect(createClient({ baseUrl: 'http://127.0.0.1:8080' }).baseUrl).toBe('http://127.0.0.1:8080');
    expect(createClient({ baseUrl: 'http://127.0.0.1:8080/' }).baseUrl).toBe('http://127.0.0.1:8080');
    expect(createClient({ baseUrl: 'https://proxy.example/k8s//' }).baseUrl).toBe('https://proxy.example/k8s');
  });

  it('rejects an unusable baseUrl', () => {
    const rule = 'must be an absolute URL without credentials, query or fragment';
    expect(() => createClient({ baseUrl: 'not a url' })).toThrow(TypeError);
    // The message never echoes the value: its credentials, a `?token=`, or a secret pasted into the wrong field.
    for (const baseUrl of [
      'not a url',
      '/apis',
      'http://h/?x=1',
      'http://h/#top',
      'http://admin:secret@h/',
      'http://admin@h/',
      'http://:secret@h/?x=1',
      'https://h/?token=SUPER-SECRET',
      'SUPER-SECRET',
    ]) {
      let message = '';
      try {
        createClient({ baseUrl });
      } catch (error) {
        expect(error).toBeInstanceOf(TypeError);
        message = (error as Error).message;
      }
      expect(message).toBe(`Invalid baseUrl: ${rule}`);
    }
  });

  it('rejects an invalid default timeout at construction', () => {
    expect(() => createClient({ baseUrl: 'http://h', timeoutMs: -1 })).toThrow(RangeError);
    expect(() => createClient({ baseUrl: 'http://h', timeoutMs: Number.NaN })).toThrow(RangeError);
  });

  it('rejects an invalid per-call timeout without sending', async () => {
    const client = createClient({ baseUrl: server.baseUrl });
    await expect(client.request(GET, { timeoutMs: -5 })).rejects.toThrow(
      'timeoutMs must be a finite number >= 0, got -5',
    );
    expect(server.requests).toHaveLength(0);
  });
});

describe('request against a loopback server', () => {
  it('GETs and parses JSON, with Accept: application/json by default', async () => {
    const client = createClient({ baseUrl: `${server.baseUrl}/` });
    const result = await client.request<typeof lease>({ ...GET, query: '?resourceVersion=0&pretty=true' });
    expect(result).toEqual(lease);
    expect(server.requests).toHaveLength(1);
    const [received] = server.requests;
    expect(received?.method).toBe('GET');
    expect(received?.url).toBe(`${LEASE_PATH}?resourceVersion=0&pretty=true`);
    expect(received?.headers['accept']).toBe('application/json');
    expect(received?.headers['authorization']).toBeUndefined();
    expect(received?.headers['content-type']).toBeUndefined();
  });

  it('treats an empty query as none', async () => {
    await createClient({ baseUrl: server.baseUrl }).request({ ...GET, query: '' });
    expect(server.requests[0]?.url).toBe(LEASE_PATH);
  });

  it('keeps a baseUrl path prefix', async () => {
    server.handler = jsonHandler(200, {});
    await createClient({ baseUrl: `${server.baseUrl}/prefix/` }).request(GET);
    expect(server.requests[0]?.url).toBe(`/prefix${LEASE_PATH}`);
  });

  it('returns undefined for an empty 2xx body', async () => {
    server.handler = (_r, res) => res.writeHead(204).end();
    const client = createClient({ baseUrl: server.baseUrl });
    await expect(client.request({ method: 'DELETE', path: LEASE_PATH })).resolves.toBeUndefined();
    server.handler = (_r, res) => res.writeHead(200, { 'content-type': 'application/json' }).end();
    await expect(client.request(GET)).resolves.toBeUndefined();
  });

  it('sends a body with Content-Type application/json by default', async () => {
    const client = createClient({ baseUrl: server.baseUrl });
    const body = JSON.stringify(lease);
    await client.request({ method: 'PUT', path: LEASE_PATH, body });
    expect(server.requests[0]).toMatchObject({ method: 'PUT', body });
    expect(server.requests[0]?.headers['content-type']).toBe('application/json');
    expect(server.requests[0]?.headers['accept']).toBe('application/json');
  });

  it('sends the given Content-Type and Accept', async () => {
    const client = createClient({ baseUrl: server.baseUrl });
    const patch = '{"spec":{"holderIdentity":"b"}}';
    await client.request({
      method: 'PATCH',
      path: LEASE_PATH,
      query: '?fieldManager=me',
      body: patch,
      contentType: 'application/merge-patch+json',
      accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
    });
    const [received] = server.requests;
    expect(received).toMatchObject({ method: 'PATCH', body: patch, url: `${LEASE_PATH}?fieldManager=me` });
    expect(received?.headers['content-type']).toBe('application/merge-patch+json');
    expect(received?.headers['accept']).toBe('application/json;as=Table;v=v1;g=meta.k8s.io');
  });

  it('POSTs to a collection', async () => {
    server.handler = jsonHandler(201, lease);
    const client = createClient({ baseUrl: server.baseUrl });
    const created = await client.request({
      method: 'POST',
      path: '/apis/coordination.k8s.io/v1/namespaces/default/leases',
      body: JSON.stringify(lease),
    });
    expect(created).toEqual(lease);
    expect(server.requests[0]?.method).toBe('POST');
  });

  it('merges client and call headers case-insensitively, call headers winning', async () => {
    const client = createClient({
      baseUrl: server.baseUrl,
      headers: { 'X-Trace': 'client', 'User-Agent': 'lease-client/1', Accept: 'application/yaml' },
    });
    await client.request(GET, { headers: { 'x-trace': 'call' } });
    const [received] = server.requests;
    expect(received?.headers['x-trace']).toBe('call');
    expect(received?.headers['user-agent']).toBe('lease-client/1');
    // A client-wide Accept replaces the default; it is a single header, not two joined.
    expect(received?.headers['accept']).toBe('application/yaml');
    expect(received?.rawHeaders.filter((name) => name.toLowerCase() === 'x-trace')).toHaveLength(1);
  });

  it('sends header values as given, empty ones included, and never an undefined one', async () => {
    const client = createClient({
      baseUrl: server.baseUrl,
      headers: { 'X-Empty': '', 'X-Unset': undefined as unknown as string },
    });
    await client.request(GET, { headers: { 'X-Call': '' } });
    const [received] = server.requests;
    expect(received?.headers['x-empty']).toBe('');
    expect(received?.headers['x-call']).toBe('');
    expect(received?.headers).not.toHaveProperty('x-unset');
  });

  it('sends a static bearer token, trimming a trailing newline from a mounted file', async () => {
    const client = createClient({ baseUrl: server.baseUrl, token: 'abc.def.ghi\n' });
    await client.request(GET);
    await client.request({ method: 'PUT', path: LEASE_PATH, body: '{}' });
    expect(server.requests.map((r) => r.headers['authorization'])).toEqual([
      'Bearer abc.def.ghi',
      'Bearer abc.def.ghi',
    ]);
  });

  it('calls a token provider per request so rotated tokens are used', async () => {
    let calls = 0;
    const client = createClient({ baseUrl: server.baseUrl, token: () => `token-${++calls}` });
    await client.request(GET);
    await client.request(GET);
    await client.request(GET);
    expect(server.requests.map((r) => r.headers['authorization'])).toEqual([
      'Bearer token-1',
      'Bearer token-2',
      'Bearer token-3',
    ]);
  });

  it('awaits an async token provider', async () => {
    const tokens = ['old', 'new'];
    const client = createClient({
      baseUrl: server.baseUrl,
      token: async () => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        return tokens.shift() ?? 'none';
      },
    });
    await Promise.all([client.request(GET), client.request(GET)]);
    expect(server.requests.map((r) => r.headers['authorization']).sort()).toEqual(['Bearer new', 'Bearer old']);
  });

  it("hands a token provider the call's signal and timeout (the client's default when the call has none)", async () => {
    const seen: unknown[] = [];
    const client = createClient({
      baseUrl: server.baseUrl,
      timeoutMs: 8_000,
      token: (call) => {
        seen.push(call);
        return 't';
      },
    });
    const controller = new AbortController();
    await client.request(GET, { signal: controller.signal, timeoutMs: 500 });
    await client.request(GET);
    expect(seen).toEqual([
      { signal: controller.signal, timeoutMs: 500 },
      { signal: undefined, timeoutMs: 8_000 },
    ]);
  });

  it('lets a per-call Authorization header override the token', async () => {
    const client = createClient({ baseUrl: server.baseUrl, token: 'client' });
    await client.request(GET, { headers: { Authorization: 'Bearer call' } });
    expect(server.requests[0]?.headers['authorization']).toBe('Bearer call');
  });

  it('sends no Authorization for an empty token', async () => {
    await createClient({ baseUrl: server.baseUrl, token: () => '' }).request(GET);
    expect(server.requests[0]?.headers['authorization']).toBeUndefined();
  });

  it('propagates a failing token provider without sending anything', async () => {
    const failure = new Error('exec plugin failed');
    const client = createClient({
      baseUrl: server.baseUrl,
      token: () => {
        throw failure;
      },
    });
    await expect(client.request(GET)).rejects.toBe(failure);
    expect(server.requests).toHaveLength(0);
  });

  it('rejects a path that does not start with /', async () => {
    const client = createClient({ baseUrl: server.baseUrl });
    await expect(client.request({ method: 'GET', path: 'apis' })).rejects.toThrow(TypeError);
    expect(server.requests).toHaveLength(0);
  });
});

describe('errors from a loopback server', () => {
  it('throws KubernetesApiError built from a Status', async () => {
    const message =
      'Operation cannot be fulfilled on leases.coordination.k8s.io "my-lease": the object has been modified; please apply your changes to the latest version and try again';
    server.handler = jsonHandler(409, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message,
      reason: 'Conflict',
      details: { name: 'my-lease', group: 'coordination.k8s.io', kind: 'leases' },
      code: 409,
    });
    const client = createClient({ baseUrl: server.baseUrl });
    const error = await rejectionOf(client.request({ method: 'PUT', path: LEASE_PATH, body: '{}' }));
    expect(error).toBeInstanceOf(KubernetesApiError);
    expect(isConflict(error)).toBe(true);
    const apiError = error as KubernetesApiError;
    expect(apiError.status).toBe(409);
    expect(apiError.reason).toBe('Conflict');
    expect(apiError.method).toBe('PUT');
    expect(apiError.url).toBe(`${server.baseUrl}${LEASE_PATH}`);
    expect(apiError.statusObject?.details?.name).toBe('my-lease');
    expect(apiError.message).toBe(`PUT ${LEASE_PATH}: 409 Conflict: ${message}`);
  });

  it('throws a useful KubernetesApiError for a non-Status body', async () => {
    server.handler = (_r, res) =>
      res.writeHead(502, { 'content-type': 'text/html', 'retry-after': '5' }).end('<h1>Bad Gateway</h1>');
    const error = await rejectionOf(createClient({ baseUrl: server.baseUrl }).request(GET));
    expect(isKubernetesApiError(error)).toBe(true);
    expect(error).toMatchObject({
      status: 502,
      reason: 'Unknown',
      body: '<h1>Bad Gateway</h1>',
      retryAfterSeconds: 5,
      statusObject: undefined,
      message: `GET ${LEASE_PATH}: 502 Unknown: <h1>Bad Gateway</h1>`,
    });
  });

  it('throws ResponseDecodeError for a 2xx body that is not JSON', async () => {
    server.handler = (_r, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>login page</html>');
    const error = await rejectionOf(createClient({ baseUrl: server.baseUrl }).request(GET));
    expect(error).toBeInstanceOf(ResponseDecodeError);
    expect(error).toMatchObject({ status: 200, body: '<html>login page</html>', method: 'GET' });
    expect((error as Error).message).toBe(`GET ${LEASE_PATH}: 200 body is not JSON: <html>login page</html>`);
    expect((error as Error).cause).toBeInstanceOf(SyntaxError);
  });

  it('rejects with the network error when nothing listens', async () => {
    const closed = await startLoopback();
    const baseUrl = closed.baseUrl;
    await closed.close();
    const error = await rejectionOf(createClient({ baseUrl }).request(GET));
    expect(error).toBeInstanceOf(TypeError);
  });
});

describe('timeouts and aborts', () => {
  it('times out waiting for headers with a RequestTimeoutError naming the request', async () => {
    server.handler = (_r, res) => {
      setTimeout(() => res.writeHead(200).end('{}'), 1000).unref();
    };
    const client = createClient({ baseUrl: server.baseUrl, timeoutMs: 50 });
    const started = Date.now();
    const error = await rejectionOf(client.request(GET));
    expect(Date.now() - started).toBeLessThan(900);
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error).toMatchObject({ timeoutMs: 50, method: 'GET', url: `${server.baseUrl}${LEASE_PATH}` });
    expect((error as Error).message).toBe(`GET ${LEASE_PATH}: timed out after 50 ms`);
  });

  it('times out while the body is still arriving', async () => {
    server.handler = (_r, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"kind":');
      setTimeout(() => res.end('"Lease"}'), 1000).unref();
    };
    const error = await rejectionOf(createClient({ baseUrl: server.baseUrl }).request(GET, { timeoutMs: 100 }));
    expect(error).toBeInstanceOf(RequestTimeoutError);
  });

  it('lets a per-call timeout override the default in both directions', async () => {
    server.handler = (_r, res) => {
      setTimeout(() => jsonHandler(200, lease)(_r, res), 200).unref();
    };
    const short = createClient({ baseUrl: server.baseUrl, timeoutMs: 20 });
    await expect(short.request(GET, { timeoutMs: 5000 })).resolves.toEqual(lease);
    const long = createClient({ baseUrl: server.baseUrl, timeoutMs: 5000 });
    await expect(long.request(GET, { timeoutMs: 20 })).rejects.toBeInstanceOf(RequestTimeoutError);
  });

  it("rejects with the caller's own abort reason, not a timeout", async () => {
    server.handler = (_r, res) => {
      setTimeout(() => res.writeHead(200).end('{}'), 1000).unref();
    };
    const client = createClient({ baseUrl: server.baseUrl, timeoutMs: 5000 });
    const controller = new AbortController();
    const reason = new Error('leader election stopped');
    setTimeout(() => controller.abort(reason), 30);
    await expect(client.request(GET, { signal: controller.signal })).rejects.toBe(reason);
  });

  it("rejects with the caller's reason without a timeout too, and for a default abort", async () => {
    server.handler = (_r, res) => {
      setTimeout(() => res.writeHead(200).end('{}'), 1000).unref();
    };
    const client = createClient({ baseUrl: server.baseUrl });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const error = await rejectionOf(client.request(GET, { signal: controller.signal }));
    expect(error).toBe(controller.signal.reason);
    expect((error as DOMException).name).toBe('AbortError');
  });

  it('rejects at once for an already-aborted signal', async () => {
    const controller = new AbortController();
    controller.abort('cancelled');
    await expect(
      createClient({ baseUrl: server.baseUrl, timeoutMs: 1000 }).request(GET, { signal: controller.signal }),
    ).rejects.toBe('cancelled');
  });

  it('leaves no timers behind once requests complete', async () => {
    const client = createClient({ baseUrl: server.baseUrl, timeoutMs: 60_000 });
    const controller = new AbortController();
    await client.request(GET);
    const before = activeTimeouts();
    for (let i = 0; i < 200; i++) await client.request(GET, i % 2 === 0 ? { signal: controller.signal } : undefined);
    server.handler = jsonHandler(404, { kind: 'Status', reason: 'NotFound', code: 404 });
    for (let i = 0; i < 50; i++) await rejectionOf(client.request(GET));
    expect(activeTimeouts() - before).toBeLessThanOrEqual(2);
  });

  it('clears the timer as soon as the body is read (fake timers, custom fetch)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const client = createClient({
        baseUrl: 'http://fake.invalid',
        timeoutMs: 30_000,
        fetch: async () => new Response(JSON.stringify(lease), { status: 200 }),
      });
      const pending = client.request(GET);
      expect(vi.getTimerCount()).toBe(1);
      await pending;
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('does not accumulate listeners on a long-lived caller signal', async () => {
    const client = createClient({ baseUrl: server.baseUrl });
    const controller = new AbortController();
    for (let i = 0; i < 300; i++)
      await client.request(GET, { signal: controller.signal, timeoutMs: i % 2 === 0 ? 10_000 : undefined });
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});

describe('custom fetch and init', () => {
  it('uses the custom fetch with the built URL and RequestInit', async () => {
    const calls: Array<{ url: string; init: RequestInit | undefined }> = [];
    const fakeFetch: typeof fetch = async (input, init) => {
      calls.push({ url: String(input), init });
      return new Response(JSON.stringify({ ok: true }), { status: 200 });
    };
    const client = createClient({
      baseUrl: 'https://k8s.example:6443/',
      fetch: fakeFetch,
      init: { cache: 'no-store', redirect: 'error' },
    });
    await expect(client.request({ method: 'GET', path: '/apis/x', query: '?limit=1' })).resolves.toEqual({ ok: true });
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call?.url).toBe('https://k8s.example:6443/apis/x?limit=1');
    expect(call?.init).toMatchObject({
      method: 'GET',
      cache: 'no-store',
      redirect: 'error',
      body: undefined,
      signal: undefined,
    });
    expect(call?.init?.headers).toEqual({ accept: 'application/json' });
  });

  it('passes a signal only when there is a timeout or a caller signal', async () => {
    const signals: Array<AbortSignal | null | undefined> = [];
    const fakeFetch: typeof fetch = async (_input, init) => {
      signals.push(init?.signal);
      return new Response('{}');
    };
    const client = createClient({ baseUrl: 'http://fake.invalid', fetch: fakeFetch });
    await client.request(GET);
    await client.request(GET, { timeoutMs: 1000 });
    await client.request(GET, { signal: new AbortController().signal });
    expect(signals[0]).toBeUndefined();
    expect(signals[1]).toBeInstanceOf(AbortSignal);
    expect(signals[2]).toBeInstanceOf(AbortSignal);
  });

  it('does not let one call mutate the headers of the next', async () => {
    const seen: Array<Record<string, string>> = [];
    const fakeFetch: typeof fetch = async (_input, init) => {
      seen.push({ ...(init?.headers as Record<string, string>) });
      return new Response('{}');
    };
    const client = createClient({ baseUrl: 'http://fake.invalid', fetch: fakeFetch, headers: { 'x-a': '1' } });
    await client.request({ method: 'PUT', path: '/p', body: '{}' }, { headers: { 'x-b': '2' } });
    await client.request(GET);
    expect(seen).toEqual([
      { accept: 'application/json', 'x-a': '1', 'content-type': 'application/json', 'x-b': '2' },
      { accept: 'application/json', 'x-a': '1' },
    ]);
  });

  it('looks up globalThis.fetch per call when no fetch is given', async () => {
    const stub = vi.fn(async () => new Response('{"stubbed":true}'));
    vi.stubGlobal('fetch', stub);
    try {
      const client = createClient({ baseUrl: 'http://fake.invalid' });
      await expect(client.request(GET)).resolves.toEqual({ stubbed: true });
      expect(stub).toHaveBeenCalledTimes(1);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('connection reuse', () => {
  it('sends 2,000 sequential requests over a handful of TCP connections', async () => {
    const local = await startLoopback();
    try {
      local.handler = jsonHandler(200, lease);
      const client = createClient({ baseUrl: local.baseUrl });
      for (let i = 0; i < 2000; i++) await client.request(GET);
      expect(local.requests).toHaveLength(2000);
      expect(local.connections).toBeGreaterThanOrEqual(1);
      expect(local.connections).toBeLessThanOrEqual(4);
    } finally {
      await local.close();
    }
  });

  it('keeps reusing connections across error responses and decode failures', async () => {
    const local = await startLoopback();
    try {
      let i = 0;
      local.handler = (request, res) => {
        i++;
        if (i % 3 === 0)
          jsonHandler(404, { kind: 'Status', reason: 'NotFound', code: 404, message: 'x'.repeat(20_000) })(
            request,
            res,
          );
        else if (i % 3 === 1) res.writeHead(200, { 'content-type': 'text/plain' }).end('not json'.repeat(1000));
        else jsonHandler(200, lease)(request, res);
      };
      const client = createClient({ baseUrl: local.baseUrl });
      for (let n = 0; n < 300; n++) await client.request(GET).catch(() => undefined);
      expect(local.requests).toHaveLength(300);
      expect(local.connections).toBeLessThanOrEqual(4);
    } finally {
      await local.close();
    }
  });
});
