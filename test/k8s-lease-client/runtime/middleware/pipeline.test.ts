// withApiMiddleware: retries, warnings and the response bound in one pass, with the behaviour of the three wrappers
// (withRetries, withWarnings, limitResponseBytes) it replaces; a response of known size is passed through untouched.
import { describe, expect, it } from 'vitest';
import { ResponseTooLargeError } from '../../../../templates/k8s-lease-client/src/runtime/errors.js';
import { withApiMiddleware } from '../../../../templates/k8s-lease-client/src/runtime/middleware/pipeline.js';
import type { ApiWarning } from '../../../../templates/k8s-lease-client/src/runtime/middleware/warnings.js';
import { scripted } from '../helpers/scripted-fetch.js';

const URL_ = 'https://api.example/apis/coordination.k8s.io/v1/namespaces/default/leases/a';

/** A body of `size` bytes in chunks of 1 KiB, of unknown length (as chunked transfer gives). */
function chunked(size: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= size) return controller.close();
      const chunk = new Uint8Array(Math.min(1024, size - sent)).fill(120);
      sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
}

const noSleep = { sleep: async (): Promise<void> => {}, random: () => 0 };

describe('withApiMiddleware', () => {
  it('hands a response with a Content-Length within the limit back as it is (no re-wrapped body)', async () => {
    const original = new Response('{"kind":"Lease"}', { headers: { 'content-length': '16' } });
    const fetchApi = withApiMiddleware(
      scripted(() => original),
      { maxResponseBytes: 16 },
    );
    expect(await fetchApi(URL_)).toBe(original);
  });

  it('refuses a Content-Length over the limit before reading', async () => {
    const fetchApi = withApiMiddleware(
      scripted(() => new Response(chunked(2048), { headers: { 'content-length': '2048' } })),
      { maxResponseBytes: 1024 },
    );
    await expect(fetchApi(URL_)).rejects.toBeInstanceOf(ResponseTooLargeError);
  });

  it.each([
    ['chunked (no Content-Length)', {}],
    ['gzip, whose Content-Length counts compressed bytes', { 'content-length': '100', 'content-encoding': 'gzip' }],
  ])('counts a body of unknown size: %s', async (_name, headers) => {
    const fetchApi = withApiMiddleware(
      scripted(() => new Response(chunked(4096), { headers })),
      { maxResponseBytes: 1024, retries: false },
    );
    const response = await fetchApi(URL_);
    await expect(response.text()).rejects.toBeInstanceOf(ResponseTooLargeError);
  });

  it('leaves a watch unbounded and unretried', async () => {
    const inner = scripted(() => new Response(chunked(4096), { status: 503 }));
    const fetchApi = withApiMiddleware(inner, { maxResponseBytes: 1024, retries: noSleep });
    const response = await fetchApi(`${URL_.replace(/\/a$/, '')}?watch=1`);
    expect(response.status).toBe(503);
    expect((await response.text()).length).toBe(4096);
    expect(inner.calls).toBe(1);
  });

  it('retries a read on 503 and reports the warnings of every attempt, then passes the answer through', async () => {
    const warnings: ApiWarning[] = [];
    const last = new Response('{}', { headers: { 'content-length': '2', warning: '299 - "second"' } });
    const inner = scripted(
      () => new Response('{}', { status: 503, headers: { warning: '299 - "first"' } }),
      () => last,
    );
    const fetchApi = withApiMiddleware(inner, { retries: noSleep, onWarning: (w) => warnings.push(w) });
    expect(await fetchApi(`${URL_}?token=secret`)).toBe(last);
    expect(inner.calls).toBe(2);
    expect(warnings.map((w) => [w.text, w.method, w.url])).toEqual([
      ['first', 'GET', URL_],
      ['second', 'GET', URL_],
    ]);
  });

  it('never retries a create, and with retries: false not even a read', async () => {
    const create = scripted(() => new Response('{}', { status: 503 }));
    await withApiMiddleware(create, { retries: noSleep })(URL_, { method: 'POST', body: '{}' });
    expect(create.calls).toBe(1);
    const read = scripted(() => new Response('{}', { status: 503 }));
    await withApiMiddleware(read, { retries: false })(URL_);
    expect(read.calls).toBe(1);
  });
});
