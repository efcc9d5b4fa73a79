import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KubernetesApiError, ResponseTooLargeError } from '../../../templates/k8s-lease-client/src/runtime/errors.js';
import { limitResponseBytes } from '../../../templates/k8s-lease-client/src/runtime/limits.js';
import { stream } from '../../../templates/k8s-lease-client/src/runtime/stream.js';
import { createClient } from '../../../templates/k8s-lease-client/src/runtime/transport.js';
import { jsonHandler, startLoopback } from '../../helpers/loopback.js';
import type { Loopback } from '../../helpers/loopback.js';
import { rejectionOf } from '../../helpers/rejection.js';
import { scripted } from './helpers/scripted-fetch.js';

const LEASE_PATH = '/apis/coordination.k8s.io/v1/namespaces/default/leases/x';
const GET = { method: 'GET', path: LEASE_PATH } as const;
const LEASE = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'x', namespace: 'default' } };
const URL_ = 'https://api.example/apis/coordination.k8s.io/v1/namespaces/default/leases/a';

let server: Loopback;
beforeEach(async () => {
  server = await startLoopback();
});
afterEach(async () => {
  await server.close();
});

describe('limitResponseBytes', () => {
  const LIMIT = 64 * 1024;

  it('a chunked body larger than the limit rejects with ResponseTooLargeError, and the connection is closed', async () => {
    let closed = false;
    let written = 0;
    server.handler = (_request, res) => {
      res.on('close', () => {
        closed = true;
      });
      res.writeHead(200, { 'content-type': 'application/json' });
      // An endless body, written as the client reads it: without a limit this never ends.
      const pump = (): void => {
        while (!closed && res.write(Buffer.alloc(16 * 1024, 0x20))) written += 16 * 1024;
        if (!closed) res.once('drain', pump);
      };
      pump();
    };
    const client = createClient({ baseUrl: server.baseUrl, fetch: limitResponseBytes(LIMIT) });
    const error = await rejectionOf(client.request(GET));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({
      limit: 'maxResponseBytes',
      maxBytes: LIMIT,
      method: 'GET',
      url: `${server.baseUrl}${LEASE_PATH}`,
    });
    expect((error as Error).message).toBe(`GET ${LEASE_PATH}: response exceeds maxResponseBytes (${LIMIT} bytes)`);
    await expect.poll(() => closed).toBe(true);
    // Bounded by the socket's buffers, not by the (endless) body.
    expect(written).toBeLessThan(64 * LIMIT);
    server.handler = jsonHandler(200, LEASE);
    await expect(client.request(GET)).resolves.toEqual(LEASE);
  });

  it('a Content-Length above the limit is refused before the body is read', async () => {
    server.handler = (_request, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(LIMIT + 1) });
      res.write('{"kind":');
      // The rest never comes: only refusing on the header can answer.
    };
    const client = createClient({ baseUrl: server.baseUrl, fetch: limitResponseBytes(LIMIT) });
    const error = await rejectionOf(client.request(GET));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ limit: 'maxResponseBytes', maxBytes: LIMIT });
  });

  it('an error body larger than the limit leaves the status line alone in the error', async () => {
    server.handler = (_request, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('e'.repeat(LIMIT * 2));
    };
    const client = createClient({ baseUrl: server.baseUrl, fetch: limitResponseBytes(LIMIT) });
    const error = (await rejectionOf(client.request(GET))) as KubernetesApiError;
    expect(error).toBeInstanceOf(KubernetesApiError);
    expect(error.message).toBe(`GET ${LEASE_PATH}: 500 InternalError: Internal Server Error`);
    expect(error.body).toBe('');
  });

  it('a body within the limit, exactly at it, is read whole', async () => {
    const body = JSON.stringify({ ...LEASE, metadata: { ...LEASE.metadata, annotations: { pad: '' } } });
    const padded = body.replace('"pad":""', `"pad":"${'p'.repeat(LIMIT - body.length)}"`);
    expect(Buffer.byteLength(padded)).toBe(LIMIT);
    server.handler = jsonHandler(200, padded, { 'transfer-encoding': 'chunked' });
    const client = createClient({ baseUrl: server.baseUrl, fetch: limitResponseBytes(LIMIT) });
    await expect(client.request(GET)).resolves.toEqual(JSON.parse(padded));
  });

  it('does not bound a watch stream (its lines are bounded by maxLineBytes)', async () => {
    server.handler = (_request, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`${JSON.stringify({ type: 'ADDED', object: LEASE })}\n`.repeat(2000));
    };
    const client = createClient({ baseUrl: server.baseUrl, fetch: limitResponseBytes(LIMIT) });
    const response = await stream(client, {
      method: 'GET',
      path: '/apis/coordination.k8s.io/v1/leases',
      query: '?watch=true',
    });
    expect((await response.text()).length).toBeGreaterThan(LIMIT);
  });

  it('rejects a limit that is not a number of bytes', () => {
    expect(() => limitResponseBytes(-1)).toThrow(RangeError);
    expect(() => limitResponseBytes(Number.NaN)).toThrow(RangeError);
  });
});

describe('limitResponseBytes without a server', () => {
  it('passes a response of known size through as well', async () => {
    const original = new Response('abc', { headers: { 'content-length': '3' } });
    expect(
      await limitResponseBytes(
        3,
        scripted(() => original),
      )(URL_),
    ).toBe(original);
  });
});
