import type { ServerResponse } from 'node:http';
import { constants, deflateRawSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../../../templates/k8s-lease-client/src/runtime/body.js';
import {
  ClientClosedError,
  ConnectionError,
  isConflict,
  isGone,
  isKubernetesApiError,
  isNotFound,
  KubernetesApiError,
  ResponseTooLargeError,
} from '../../../templates/k8s-lease-client/src/runtime/errors.js';
import { requestWithResponse } from '../../../templates/k8s-lease-client/src/runtime/response.js';
import { createClient } from '../../../templates/k8s-lease-client/src/runtime/transport.js';
import { jsonHandler, startLoopback } from '../../helpers/loopback.js';
import type { Loopback } from '../../helpers/loopback.js';
import { rejectionOf } from '../../helpers/rejection.js';

// A small evil server on loopback: Status bodies with fields of the wrong type, bodies without end, a gzip bomb,
// and no server at all. Each must end in a typed error, with the client's memory bounded.

const LEASE_PATH = '/apis/coordination.k8s.io/v1/namespaces/default/leases/x';
const GET = { method: 'GET', path: LEASE_PATH } as const;
const MiB = 1024 * 1024;

let server: Loopback;
beforeEach(async () => {
  server = await startLoopback();
});
afterEach(async () => {
  await server.close();
});

/**
 * Writes `chunk` over and over as fast as the client reads, until the client goes away or `times` chunks were
 * written (then `end` ends the body). Reports whether the connection closed before the body's end.
 */
function pump(res: ServerResponse, chunk: Buffer, times = Number.POSITIVE_INFINITY, end?: Buffer): { closed: boolean } {
  const state = { closed: false, written: 0 };
  res.on('close', () => {
    state.closed = !res.writableFinished;
  });
  const next = (): void => {
    while (!res.destroyed && state.written < times) {
      state.written++;
      if (!res.write(chunk)) return void res.once('drain', next);
    }
    if (!res.destroyed) res.end(end);
  };
  next();
  return state;
}

/** The highest resident set size seen while `work` runs, above what it was before. */
async function peakGrowth<T>(work: () => Promise<T>): Promise<{ result: T; growth: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, growth: peak - before };
  } finally {
    clearInterval(sampler);
  }
}

describe('a non-2xx answer is a KubernetesApiError whatever its body holds', () => {
  // k8s.io/apimachinery/pkg/api/errors/errors.go ReasonForError / IsConflict: the reason decides when it is a known one,
  // else (apimachinery's `reasonAndCodeForError` with an unknown reason) the HTTP code does.
  const status = (fields: Record<string, unknown>): string =>
    JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 409, ...fields });
  it.each([
    [
      'a message whose object cannot become a string',
      status({ message: { toString: 1, valueOf: 1 }, reason: 'Conflict' }),
    ],
    ['a reason whose object cannot become a string', status({ reason: { toString: 1, valueOf: 1 }, message: 'm' })],
    ['an array reason and a null message', status({ reason: ['Conflict'], message: null })],
    ['numbers for reason and message', status({ reason: 409, message: 42 })],
    ['details, code and metadata of the wrong types', status({ details: 'x', code: '409', metadata: [1] })],
    ['a Status whose own __proto__ key names a reason', '{"kind":"Status","__proto__":{"reason":"NotFound"}}'],
    ['JSON null', 'null'],
    ['a JSON array', '[{"kind":"Status","reason":"Conflict"}]'],
    ['a JSON string', '"Conflict"'],
    ['text that is not JSON', '<html><title>409</title></html>'],
    ['a truncated Status', status({ reason: 'Conflict' }).slice(0, 30)],
  ])('%s: a 409 is a KubernetesApiError and isConflict', async (_name, body) => {
    server.handler = jsonHandler(409, body);
    const error = await rejectionOf(createClient({ baseUrl: server.baseUrl }).request(GET));
    expect(error).toBeInstanceOf(KubernetesApiError);
    const apiError = error as KubernetesApiError;
    expect(apiError.status).toBe(409);
    expect(typeof apiError.reason).toBe('string');
    expect(apiError.message).toMatch(/^GET \/apis\/coordination\.k8s\.io\/v1\/namespaces\/default\/leases\/x: 409 /);
    expect(isConflict(error)).toBe(true);
    expect(isNotFound(error)).toBe(false);
  });

  it('the same hostile Status on a 410 is still isGone (a watch re-lists on it)', async () => {
    server.handler = jsonHandler(410, JSON.stringify({ kind: 'Status', reason: { toString: 1 }, message: [] }));
    const error = await rejectionOf(createClient({ baseUrl: server.baseUrl }).request(GET));
    expect(isKubernetesApiError(error)).toBe(true);
    expect(isGone(error)).toBe(true);
  });

  it('an endless error body: read up to maxResponseBytes, then the error comes from the HTTP status alone', async () => {
    let body: { closed: boolean } | undefined;
    server.handler = (_request, res) => {
      res.writeHead(409, { 'content-type': 'application/json' });
      body = pump(res, Buffer.alloc(64 * 1024, 0x20));
    };
    const client = createClient({ baseUrl: server.baseUrl, maxResponseBytes: MiB });
    const error = (await rejectionOf(client.request(GET))) as KubernetesApiError;
    expect(error).toBeInstanceOf(KubernetesApiError);
    expect(error.body).toBe('');
    expect(isConflict(error)).toBe(true);
    await expect.poll(() => body?.closed).toBe(true);
  });
});

describe('response bodies are bounded by default', () => {
  it('the default is 64 MiB', () => {
    expect(DEFAULT_MAX_RESPONSE_BYTES).toBe(64 * MiB);
  });

  it('a gzip body that would inflate to 1 GiB: ResponseTooLargeError once 64 MiB are decoded, memory bounded', async () => {
    // One MiB of zeros, deflated and ended with a full flush: the same bytes repeated are a valid stream of as many MiB.
    const block = deflateRawSync(Buffer.alloc(MiB), { finishFlush: constants.Z_FULL_FLUSH });
    const gzipHeader = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
    server.handler = (_request, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.write(gzipHeader);
      pump(res, block, 1024);
    };
    const client = createClient({ baseUrl: server.baseUrl });
    const { result: error, growth } = await peakGrowth(() => rejectionOf(client.request(GET)));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ limit: 'maxResponseBytes', maxBytes: DEFAULT_MAX_RESPONSE_BYTES, method: 'GET' });
    // Unbounded, the text alone is 1 GiB; bounded, at most 64 MiB of text plus the decoder's buffers.
    expect(growth).toBeLessThan(400 * MiB);
    // The whole bomb is small enough to sit in the sockets' buffers: it is the inflating that must stop.
    expect(block.length * 1024).toBeLessThan(2 * MiB);
  });

  it('an endless 2xx body: ResponseTooLargeError at maxResponseBytes, connection closed; the client still works', async () => {
    let body: { closed: boolean } | undefined;
    server.handler = (_request, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      body = pump(res, Buffer.alloc(64 * 1024, 0x20));
    };
    const client = createClient({ baseUrl: server.baseUrl, maxResponseBytes: 2 * MiB });
    const error = await rejectionOf(client.request(GET));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as Error).message).toBe(`GET ${LEASE_PATH}: response exceeds maxResponseBytes (${2 * MiB} bytes)`);
    await expect.poll(() => body?.closed).toBe(true);
    const withResponse = await rejectionOf(requestWithResponse(client, GET));
    expect(withResponse).toBeInstanceOf(ResponseTooLargeError);
    server.handler = jsonHandler(200, { kind: 'Lease' });
    await expect(client.request(GET)).resolves.toEqual({ kind: 'Lease' });
  });

  it('a body of exactly maxResponseBytes is read whole; Infinity turns the bound off', async () => {
    const text = JSON.stringify({ pad: 'p'.repeat(MiB - 10) });
    expect(Buffer.byteLength(text)).toBe(MiB);
    server.handler = jsonHandler(200, text);
    await expect(createClient({ baseUrl: server.baseUrl, maxResponseBytes: MiB }).request(GET)).resolves.toEqual(
      JSON.parse(text),
    );
    const none = createClient({ baseUrl: server.baseUrl, maxResponseBytes: Number.POSITIVE_INFINITY });
    await expect(none.request(GET)).resolves.toEqual(JSON.parse(text));
    const one = createClient({ baseUrl: server.baseUrl, maxResponseBytes: MiB - 1 });
    expect(await rejectionOf(one.request(GET))).toBeInstanceOf(ResponseTooLargeError);
  });
});

describe('no server: a ConnectionError naming the request', () => {
  it('names the method and the whole URL but its query, and keeps the fetch error as its cause', async () => {
    const gone = await startLoopback();
    const baseUrl = gone.baseUrl;
    await gone.close();
    const client = createClient({ baseUrl });
    const error = await rejectionOf(client.request({ ...GET, query: '?token=SUPER-SECRET&limit=1' }));
    expect(error).toBeInstanceOf(ConnectionError);
    // Still a TypeError, as fetch's network errors: code that retries those goes on doing so.
    expect(error).toBeInstanceOf(TypeError);
    const connection = error as ConnectionError;
    expect(connection).toMatchObject({ name: 'ConnectionError', method: 'GET', url: `${baseUrl}${LEASE_PATH}` });
    expect(connection.message).toMatch(
      new RegExp(
        `^GET ${baseUrl.replace(/\./g, '\\.')}${LEASE_PATH}: connection failed: fetch failed \\(.*ECONNREFUSED`,
      ),
    );
    expect(connection.cause).toBeInstanceOf(TypeError);
    expect(`${connection.message}${connection.stack}${JSON.stringify(connection)}`).not.toContain('SUPER-SECRET');
  });

  it('a URL quoted in the fetch error (as Deno words it) loses its query too', async () => {
    const quoting: typeof fetch = async (input) => {
      throw new TypeError(`error sending request for url (${String(input)}): connection refused`);
    };
    const client = createClient({ baseUrl: 'http://k8s.example:6443', fetch: quoting });
    const error = (await rejectionOf(client.request({ ...GET, query: '?token=SUPER-SECRET' }))) as ConnectionError;
    expect(error.message).toBe(
      `GET http://k8s.example:6443${LEASE_PATH}: connection failed: error sending request for url (http://k8s.example:6443${LEASE_PATH}): connection refused`,
    );
  });

  it('typed errors of a custom fetch pass as they are', async () => {
    class ClusterConnectionError extends TypeError {
      override readonly name = 'ClusterConnectionError';
    }
    const own = new ClusterConnectionError('cannot reach https://k8s.example (ECONNREFUSED)');
    const client = createClient({ baseUrl: server.baseUrl, fetch: async () => Promise.reject(own) });
    expect(await rejectionOf(client.request(GET))).toBe(own);
    // What a pooled fetch throws once closed (k8s-lease-client-node's close()): named, without its query.
    const closedFetch: typeof fetch = async (input, init) => {
      throw new ClientClosedError({ method: init?.method ?? 'GET', url: String(input) });
    };
    const closedClient = createClient({ baseUrl: server.baseUrl, fetch: closedFetch });
    const closed = await rejectionOf(closedClient.request({ ...GET, query: '?watch=true&token=x' }));
    expect(closed).toBeInstanceOf(ClientClosedError);
    expect((closed as Error).message).toBe(`GET ${server.baseUrl}${LEASE_PATH}: the client was closed`);
  });
});
