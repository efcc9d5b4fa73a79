// The connection pool of a user with an exec plugin, over a plain loopback server and a credential source made here:
// one pool per client certificate the plugin hands out, replaced when it rotates, as client-go's exec authenticator
// swaps its TLS certificate (plugin/pkg/client/auth/exec/exec.go: the cert callback and the connection tracker it
// closes on rotation). TLS itself is cluster.test.ts's.
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecCredentialSource } from '../../templates/k8s-lease-client-node/src/exec/types.js';
import { execTransport } from '../../templates/k8s-lease-client-node/src/exec-transport.js';
import { jsonHandler, startLoopback } from '../helpers/loopback.js';
import type { Loopback } from '../helpers/loopback.js';
import { rejectionOf } from '../helpers/rejection.js';

let server: Loopback;
beforeAll(async () => {
  server = await startLoopback();
  server.handler = jsonHandler(200, { kind: 'Lease' });
});
afterAll(() => server.close());

/** A source whose certificate the test sets; counts how often the transport asked for it. */
function source(): ExecCredentialSource & { certificate: { cert: string; key: string } | undefined; asked: number } {
  const fake = {
    certificate: undefined as { cert: string; key: string } | undefined,
    asked: 0,
    token: async () => undefined,
    clientCertificate: async () => {
      fake.asked++;
      return fake.certificate;
    },
    invalidate: () => {},
  };
  return fake;
}

/** A GET read to the end, so its connection goes back to the pool. */
async function get(transport: { fetch: typeof fetch }): Promise<number> {
  const response = await transport.fetch(`${server.baseUrl}/x`);
  await response.text();
  return response.status;
}

describe('execTransport', () => {
  it('asks the source for its certificate on every request and keeps one pool while it stays the same', async () => {
    const creds = source();
    const transport = execTransport({}, creds);
    try {
      const before = server.connections;
      for (let i = 0; i < 6; i++) expect(await get(transport)).toBe(200);
      expect(creds.asked).toBe(6);
      // A pool per request would open six; one pool reuses its connections (undici may open a second one).
      expect(server.connections - before).toBeLessThanOrEqual(2);
    } finally {
      await transport.close();
    }
  });

  it('a rotated certificate gets a new pool: the next request opens a new connection', async () => {
    const creds = source();
    creds.certificate = { cert: 'CERT-1', key: 'KEY-1' };
    const transport = execTransport({}, creds);
    try {
      const before = server.connections;
      for (let i = 0; i < 4; i++) await get(transport);
      const first = server.connections - before;
      await get(transport);
      expect(server.connections - before).toBe(first);
      creds.certificate = { cert: 'CERT-2', key: 'KEY-2' };
      await get(transport);
      expect(server.connections - before).toBe(first + 1);
    } finally {
      await transport.close();
    }
  });

  it('after close, a request that needs a new pool is refused with a TypeError', async () => {
    const creds = source();
    const transport = execTransport({}, creds);
    await transport.close();
    creds.certificate = { cert: 'CERT', key: 'KEY' };
    expect(await rejectionOf(transport.fetch(`${server.baseUrl}/x`))).toEqual(
      new TypeError('the client configuration was closed'),
    );
  });

  it('close before any request closes nothing and resolves', async () => {
    await expect(execTransport({}, source()).close()).resolves.toBeUndefined();
  });

  it('prints without its options’ secrets', () => {
    const transport = execTransport(
      { tls: { key: 'PRIVATE-KEY-SECRET' }, proxyUrl: 'http://u:pw-SECRET@proxy:1' },
      source(),
    );
    for (const text of [inspect(transport, { depth: Infinity }), JSON.stringify(transport), String(transport)])
      expect(text).not.toMatch(/SECRET/);
  });
});
