import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isKubernetesApiError, KubernetesApiError } from '../../../templates/k8s-lease-client/src/runtime/errors.js';
import { createClient } from '../../../templates/k8s-lease-client/src/runtime/transport.js';
import { jsonHandler, startLoopback } from '../../helpers/loopback.js';
import type { Loopback } from '../../helpers/loopback.js';
import { rejectionOf } from '../../helpers/rejection.js';

// Regression tests for what a hostile or misconfigured server (or proxy) could do to a client: forge its log lines,
// follow it elsewhere, or read a secret out of an error message. Flooding its memory: limits.test.ts and
// hostile-server.test.ts.

const LEASE_PATH = '/apis/coordination.k8s.io/v1/namespaces/default/leases/x';
const GET = { method: 'GET', path: LEASE_PATH } as const;
const LEASE = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'x', namespace: 'default' } };

let server: Loopback;
let other: Loopback | undefined;
beforeEach(async () => {
  server = await startLoopback();
});
afterEach(async () => {
  await server.close();
  await other?.close();
  other = undefined;
});

function status(code: number, reason: unknown, message: unknown): Record<string, unknown> {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
}

describe('a Status message in error.message', () => {
  it('reaches error.message with ANSI escapes, CR, LF and bidi controls escaped, and whole on error.statusObject', async () => {
    const message = 'lease \u001b[31mred\u001b[0m\r\n2026-01-01 INFO forged line \u202eevil\u2066 \u200f.';
    server.handler = jsonHandler(409, status(409, 'Conflict', message));
    const error = await rejectionOf(createClient({ baseUrl: server.baseUrl }).request(GET));
    expect(error).toBeInstanceOf(KubernetesApiError);
    const apiError = error as KubernetesApiError;
    expect(apiError.message).toBe(
      `GET ${LEASE_PATH}: 409 Conflict: lease %1B[31mred%1B[0m%0D%0A2026-01-01 INFO forged line %E2%80%AEevil%E2%81%A6 %E2%80%8F.`,
    );
    expect(apiError.statusObject?.message).toBe(message);
    expect(apiError.reason).toBe('Conflict');
  });

  it('a 1 MB message is cut at 4,096 characters (reason included) and says so, the Status kept whole', async () => {
    const message = 'm'.repeat(1024 * 1024);
    server.handler = jsonHandler(422, status(422, 'Invalid', message));
    const error = (await rejectionOf(createClient({ baseUrl: server.baseUrl }).request(GET))) as KubernetesApiError;
    expect(error.message).toBe(`GET ${LEASE_PATH}: 422 ${`Invalid: ${'m'.repeat(5000)}`.slice(0, 4096)}…`);
    expect(error.statusObject?.message).toHaveLength(1024 * 1024);
  });

  it('a long Status message (an apiserver validation error) reaches error.message whole, not cut mid-word', async () => {
    // What kube-apiserver sends for a Lease name that is too long and malformed: about 600 characters.
    const message = `Lease.coordination.k8s.io "${'X'.repeat(260)}" is invalid: metadata.name: Invalid value: "${'X'.repeat(260)}": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`;
    server.handler = jsonHandler(422, status(422, 'Invalid', message));
    const error = (await rejectionOf(createClient({ baseUrl: server.baseUrl }).request(GET))) as KubernetesApiError;
    expect(error.message).toBe(`GET ${LEASE_PATH}: 422 Invalid: ${message}`);
  });

  it('a body that is not a Status (a proxy page) still gives only a 200-character excerpt', async () => {
    const page = `<html>${'p'.repeat(5000)}</html>`;
    server.handler = (_req, res) => void res.writeHead(502, { 'content-type': 'text/html' }).end(page);
    const error = (await rejectionOf(createClient({ baseUrl: server.baseUrl }).request(GET))) as KubernetesApiError;
    expect(error.message).toBe(`GET ${LEASE_PATH}: 502 ${`Unknown: ${page}`.slice(0, 200)}…`);
  });

  it('a reason with escapes is escaped in the message, and a reason that is not a string becomes one', async () => {
    server.handler = jsonHandler(500, status(500, '\u001b]0;pwned\u0007', 'x'));
    const escaped = (await rejectionOf(createClient({ baseUrl: server.baseUrl }).request(GET))) as KubernetesApiError;
    expect(escaped.message).toBe(`GET ${LEASE_PATH}: 500 %1B]0;pwned%07: x`);
    server.handler = jsonHandler(500, status(500, { nested: true }, 'x'));
    const object = (await rejectionOf(createClient({ baseUrl: server.baseUrl }).request(GET))) as KubernetesApiError;
    expect(typeof object.reason).toBe('string');
  });
});

describe('secrets in errors', () => {
  it('a baseUrl with ?token= is refused without echoing it', () => {
    let message = '';
    try {
      createClient({ baseUrl: 'https://k8s.example:6443/?token=SUPER-SECRET' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe('Invalid baseUrl: must be an absolute URL without credentials, query or fragment');
  });

  it.each([
    ['a static token', 'SUPER-SECRET\nX-Injected: 1'],
    ['a token provider', () => 'SUPER-SECRET\r\nX-Injected: 1'],
    ['an async token provider', async () => 'SUPER-SECRET\nX-Injected: 1'],
  ])('%s with a line break is refused before fetch, without echoing it', async (_name, token) => {
    const client = createClient({ baseUrl: server.baseUrl, token });
    const error = await rejectionOf(client.request(GET));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe('Invalid header authorization');
    expect(String((error as Error).stack)).not.toContain('SUPER-SECRET');
    expect(server.requests).toHaveLength(0);
  });
});

describe('redirects', () => {
  it('a 307 to another origin is not followed: the body is not re-sent there and its reply is not taken for the Lease', async () => {
    other = await startLoopback();
    other.handler = jsonHandler(200, { ...LEASE, spec: { holderIdentity: 'attacker' } });
    server.handler = (_request, res) => {
      res.writeHead(307, { location: `${other?.baseUrl ?? ''}${LEASE_PATH}`, 'content-type': 'text/plain' });
      res.end('moved');
    };
    const client = createClient({ baseUrl: server.baseUrl, token: 'SUPER-SECRET' });
    const error = await rejectionOf(client.request({ method: 'PUT', path: LEASE_PATH, body: JSON.stringify(LEASE) }));
    expect(isKubernetesApiError(error)).toBe(true);
    expect((error as KubernetesApiError).status).toBe(307);
    expect((error as KubernetesApiError).message).toBe(`PUT ${LEASE_PATH}: 307 Unknown: moved`);
    expect(server.requests).toHaveLength(1);
    expect(other.requests).toHaveLength(0);
    // The server still serves.
    server.handler = jsonHandler(200, LEASE);
    await expect(client.request(GET)).resolves.toEqual(LEASE);
  });

  it('a same-origin redirect is not followed either (kube-apiserver does not redirect API calls)', async () => {
    server.handler = (request, res) => {
      if (request.url === LEASE_PATH) {
        res.writeHead(302, { location: '/elsewhere' });
        res.end();
      } else jsonHandler(200, LEASE)(request, res);
    };
    const error = (await rejectionOf(createClient({ baseUrl: server.baseUrl }).request(GET))) as KubernetesApiError;
    expect(error.status).toBe(302);
    expect(server.requests.map((request) => request.url)).toEqual([LEASE_PATH]);
  });
});
