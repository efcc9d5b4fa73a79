// requestWithResponse: what client.request does, resolving to the status, the headers and the parsed body.
import { describe, expect, it } from 'vitest';
import {
  ConnectionError,
  KubernetesApiError,
  RequestTimeoutError,
  ResponseDecodeError,
  ResponseTooLargeError,
} from '../../../templates/k8s-lease-client/src/runtime/errors.js';
import { requestWithResponse } from '../../../templates/k8s-lease-client/src/runtime/response.js';
import { createClient } from '../../../templates/k8s-lease-client/src/runtime/transport.js';
import type { Client } from '../../../templates/k8s-lease-client/src/runtime/transport.js';
import { jsonHandler } from '../../helpers/loopback.js';
import { rejectionOf } from '../../helpers/rejection.js';
import { LEASE_PATH, lease, leaseLoopback, status } from './helpers/lease-loopback.js';

interface LeaseResponses {
  200: typeof lease;
  201: typeof lease;
}

const server = leaseLoopback();
const GET = { method: 'GET', path: LEASE_PATH } as const;

describe('requestWithResponse', () => {
  it('resolves to the status, the headers and the parsed body; the status narrows', async () => {
    server.handler = jsonHandler(201, lease, { 'x-request-id': 'r-1' });
    const client = createClient({ baseUrl: server.baseUrl, token: 't' });
    const response = await requestWithResponse<LeaseResponses>(client, {
      method: 'POST',
      path: LEASE_PATH,
      body: JSON.stringify(lease),
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-request-id')).toBe('r-1');
    expect(response.body).toEqual(lease);
    // Sent as client.request sends it.
    expect(server.requests[0]).toMatchObject({ method: 'POST', url: LEASE_PATH, body: JSON.stringify(lease) });
    expect(server.requests[0]?.headers['authorization']).toBe('Bearer t');
  });

  it('an empty body is undefined', async () => {
    server.handler = (_request, res) => res.writeHead(200).end();
    const response = await requestWithResponse<{ 200: undefined }>(createClient({ baseUrl: server.baseUrl }), GET);
    expect(response).toMatchObject({ status: 200, body: undefined });
  });

  it('a non-2xx throws the KubernetesApiError client.request throws', async () => {
    server.handler = jsonHandler(404, status(404, 'NotFound'));
    const client = createClient({ baseUrl: server.baseUrl });
    const error = await rejectionOf(requestWithResponse(client, GET));
    expect(error).toBeInstanceOf(KubernetesApiError);
    expect(error).toEqual(await rejectionOf(client.request(GET)));
  });

  it('a 2xx that is not JSON throws ResponseDecodeError with the status and the text', async () => {
    server.handler = jsonHandler(200, 'not json');
    const error = await rejectionOf(requestWithResponse(createClient({ baseUrl: server.baseUrl }), GET));
    expect(error).toBeInstanceOf(ResponseDecodeError);
    expect(error).toMatchObject({ status: 200, body: 'not json', method: 'GET' });
  });

  it('bounds the body by the client’s maxResponseBytes', async () => {
    server.handler = jsonHandler(200, {
      ...lease,
      metadata: { ...lease.metadata, annotations: { pad: 'p'.repeat(2048) } },
    });
    const client = createClient({ baseUrl: server.baseUrl, maxResponseBytes: 1024 });
    const error = await rejectionOf(requestWithResponse(client, GET));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ limit: 'maxResponseBytes', maxBytes: 1024 });
  });

  it('the timeout covers reading the body too', async () => {
    server.handler = (_request, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"kind":');
    };
    const client = createClient({ baseUrl: server.baseUrl, timeoutMs: 100 });
    expect(await rejectionOf(requestWithResponse(client, GET))).toBeInstanceOf(RequestTimeoutError);
  });

  it("an abort while the body is read rejects with the caller's reason", async () => {
    server.handler = (_request, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"kind":');
    };
    const controller = new AbortController();
    const reason = new Error('stop');
    setTimeout(() => controller.abort(reason), 50);
    const client = createClient({ baseUrl: server.baseUrl });
    expect(await rejectionOf(requestWithResponse(client, GET, { signal: controller.signal }))).toBe(reason);
  });

  it('a connection lost mid-body is a ConnectionError naming the request', async () => {
    server.handler = (_request, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"kind":', () => res.socket?.destroy());
    };
    const error = await rejectionOf(requestWithResponse(createClient({ baseUrl: server.baseUrl }), GET));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ method: 'GET', url: server.baseUrl + LEASE_PATH });
  });

  it('needs a client made by createClient', async () => {
    const fake: Client = { baseUrl: server.baseUrl, request: () => Promise.reject(new Error('not used')) };
    const error = await rejectionOf(requestWithResponse(fake, GET));
    expect(error).toEqual(new TypeError('streaming needs a client made by createClient'));
    expect(server.requests).toHaveLength(0);
  });
});
