import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { KubernetesApiError, RequestTimeoutError } from '../../../templates/k8s-lease-client/src/runtime/errors.js';
import { stream } from '../../../templates/k8s-lease-client/src/runtime/stream.js';
import { createClient } from '../../../templates/k8s-lease-client/src/runtime/transport.js';
import type { Client, RequestSpec } from '../../../templates/k8s-lease-client/src/runtime/transport.js';
import { jsonHandler } from '../../helpers/loopback.js';
import { rejectionOf } from '../../helpers/rejection.js';
import { LEASE_PATH, lease, leaseLoopback } from './helpers/lease-loopback.js';

const GET: RequestSpec = { method: 'GET', path: LEASE_PATH };
const server = leaseLoopback();

describe('stream', () => {
  afterEach(() => {
    server.handler = jsonHandler(200, lease);
  });

  async function readAll(response: Response): Promise<string> {
    return response.text();
  }

  it('returns the raw 2xx Response for the caller to read', async () => {
    server.handler = (_r, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-watch': 'yes' });
      res.write('{"type":"ADDED"}\n');
      setTimeout(() => res.end('{"type":"MODIFIED"}\n'), 20).unref();
    };
    const client = createClient({ baseUrl: server.baseUrl, token: 't' });
    const response = await stream(client, { ...GET, query: '?watch=true' });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-watch')).toBe('yes');
    expect(await readAll(response)).toBe('{"type":"ADDED"}\n{"type":"MODIFIED"}\n');
    expect(server.requests[0]?.url).toBe(`${LEASE_PATH}?watch=true`);
    expect(server.requests[0]?.headers['authorization']).toBe('Bearer t');
  });

  it('throws KubernetesApiError for a non-2xx', async () => {
    server.handler = jsonHandler(410, {
      kind: 'Status',
      reason: 'Expired',
      code: 410,
      message: 'too old resource version: 1 (5)',
    });
    const error = await rejectionOf(stream(createClient({ baseUrl: server.baseUrl }), GET));
    expect(error).toBeInstanceOf(KubernetesApiError);
    expect((error as Error).message).toBe(`GET ${LEASE_PATH}: 410 Expired: too old resource version: 1 (5)`);
  });

  it('applies the timeout to the wait for headers', async () => {
    server.handler = (_r, res) => {
      setTimeout(() => res.writeHead(200).end(''), 1000).unref();
    };
    const error = await rejectionOf(stream(createClient({ baseUrl: server.baseUrl }), GET, { timeoutMs: 50 }));
    expect(error).toBeInstanceOf(RequestTimeoutError);
  });

  it('does not apply the timeout to the body', async () => {
    server.handler = (_r, res) => {
      res.writeHead(200);
      res.write('a');
      setTimeout(() => res.end('b'), 200).unref();
    };
    const client = createClient({ baseUrl: server.baseUrl, timeoutMs: 50 });
    expect(await readAll(await stream(client, GET))).toBe('ab');
    const controller = new AbortController();
    expect(await readAll(await stream(client, GET, { signal: controller.signal }))).toBe('ab');
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it("aborts the body with the caller's reason", async () => {
    server.handler = (_r, res) => {
      res.writeHead(200);
      res.write('first\n');
    };
    const controller = new AbortController();
    const response = await stream(createClient({ baseUrl: server.baseUrl, timeoutMs: 1000 }), GET, {
      signal: controller.signal,
    });
    const reader = response.body?.getReader();
    const first = await reader?.read();
    expect(new TextDecoder().decode(first?.value)).toBe('first\n');
    const reason = new Error('stop watching');
    setTimeout(() => controller.abort(reason), 10);
    await expect(reader?.read()).rejects.toBe(reason);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('releases the caller signal when the body is cancelled', async () => {
    server.handler = (_r, res) => {
      res.writeHead(200);
      res.write('chunk');
    };
    const controller = new AbortController();
    const response = await stream(createClient({ baseUrl: server.baseUrl }), GET, { signal: controller.signal });
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    await response.body?.cancel();
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('returns the original Response when there is no caller signal', async () => {
    let original: Response | undefined;
    const fakeFetch: typeof fetch = async () => {
      original = new Response('{}', { status: 200 });
      return original;
    };
    const response = await stream(
      createClient({ baseUrl: 'http://fake.invalid', fetch: fakeFetch, timeoutMs: 100 }),
      GET,
    );
    expect(response).toBe(original);
  });

  it('rejects with a TypeError for a client not made by createClient, without sending', async () => {
    const fake: Client = { baseUrl: server.baseUrl, request: () => Promise.reject(new Error('not used')) };
    const error = await rejectionOf(stream(fake, GET));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe('streaming needs a client made by createClient');
    expect(server.requests).toHaveLength(0);
  });

  it('is not a member of the client, so bundles that never stream leave it out', () => {
    const client = createClient({ baseUrl: server.baseUrl });
    expect(Object.keys(client).sort()).toEqual(['baseUrl', 'request']);
  });
});
