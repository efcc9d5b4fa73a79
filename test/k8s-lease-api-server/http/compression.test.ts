// Response compression (k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/writers.go): gzip for a resource
// answer over defaultGzipThresholdBytes (128 KiB, strictly greater) when ContentEncodingSupported finds a "gzip"
// token in Accept-Encoding; Content-Encoding: gzip and Vary: Accept-Encoding added; never for watches.
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptsGzip, GZIP_THRESHOLD_BYTES } from '../../../templates/k8s-lease-api-server/src/http/compression.js';
import type { IncomingMessage } from 'node:http';
import type { LeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import { startLeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';

const request = (value: string | undefined): IncomingMessage =>
  ({ headersDistinct: value === undefined ? {} : { 'accept-encoding': [value] } }) as unknown as IncomingMessage;

describe('acceptsGzip', () => {
  it.each<[string | undefined, boolean]>([
    [undefined, false],
    ['gzip', true],
    ['deflate, gzip', true],
    [' gzip ,br', true],
    ['gzip;q=1.0', false],
    ['x-gzip', false],
    ['GZIP', false],
    ['br, deflate', false],
  ])('%j → %j', (header, accepted) => {
    expect(acceptsGzip(request(header))).toBe(accepted);
  });
});

describe('gzipped answers', () => {
  const NS = '/apis/coordination.k8s.io/v1/namespaces/default/leases';
  let server: LeaseApiServer;

  beforeAll(async () => {
    server = await startLeaseApiServer({ port: 0 });
    // ~200 Leases with 1 KiB of labels each: a list well over the threshold, one object well under it.
    for (let i = 0; i < 200; i++) {
      const labels = Object.fromEntries(Array.from({ length: 16 }, (_, j) => [`k${j}`, 'v'.repeat(60)]));
      const res = await fetch(`${server.url}${NS}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          apiVersion: 'coordination.k8s.io/v1',
          kind: 'Lease',
          metadata: { name: `l${i}`, labels },
        }),
      });
      expect(res.status).toBe(201);
    }
  });
  afterAll(async () => {
    await server.close();
  });

  /** A raw request (Node's http, which neither asks for nor decodes gzip on its own). */
  async function raw(path: string, headers: Record<string, string>) {
    const { request: httpRequest } = await import('node:http');
    return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
      (resolve, reject) => {
        const req = httpRequest(`${server.url}${path}`, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
          );
        });
        req.on('error', reject);
        req.end();
      },
    );
  }

  it('gzips a list over 128 KiB for a client that accepts gzip, with Vary: Accept-Encoding', async () => {
    const res = await raw(NS, { 'Accept-Encoding': 'gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['vary']).toBe('Accept-Encoding');
    expect(res.headers['content-length']).toBeUndefined();
    const text = gunzipSync(res.body).toString('utf8');
    expect(text.length).toBeGreaterThan(GZIP_THRESHOLD_BYTES);
    expect(JSON.parse(text).items).toHaveLength(200);
  });

  it('sends the same list uncompressed to a client that does not ask', async () => {
    const res = await raw(NS, {});
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(res.body.toString('utf8')).items).toHaveLength(200);
  });

  it('keeps an answer under the threshold uncompressed', async () => {
    const res = await raw(`${NS}/l1`, { 'Accept-Encoding': 'gzip' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(res.body.toString('utf8')).metadata.name).toBe('l1');
  });

  it('never gzips a watch, however large its initial events', async () => {
    const controller = new AbortController();
    const res = await fetch(`${server.url}${NS}?watch=true`, {
      headers: { 'Accept-Encoding': 'gzip' },
      signal: controller.signal,
    });
    expect(res.headers.get('content-encoding')).toBeNull();
    controller.abort();
  });

  it("reaches fetch (undici) decoded: the project's client and Node's fetch read it as usual", async () => {
    const res = await fetch(`${server.url}${NS}`);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(((await res.json()) as { items: unknown[] }).items).toHaveLength(200);
  });
});
