// nodeFetch honours a Request as fetch does: its method, headers (merged with init's, init winning) and body; a
// streamed body is sent as it is read.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeFetch } from '../../templates/k8s-lease-client-node/src/fetch.js';
import type { NodeFetch } from '../../templates/k8s-lease-client-node/src/fetch.js';

interface Echo {
  method: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

let server: Server;
let url: string;
let transport: NodeFetch;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ method: req.method, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/apis/coordination.k8s.io/v1/namespaces/default/leases/a`;
  transport = nodeFetch();
});

afterAll(async () => {
  await transport.close();
  await new Promise((resolve) => server.close(resolve));
});

function streamOf(...parts: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(encoder.encode(part));
      controller.close();
    },
  });
}

async function echo(input: RequestInfo | URL, init?: RequestInit): Promise<Echo> {
  return (await (await transport.fetch(input, init)).json()) as Echo;
}

describe('nodeFetch with a Request', () => {
  it.each([
    {
      name: 'method, headers and body of the Request',
      input: () =>
        new Request(url, {
          method: 'PUT',
          headers: { 'x-a': '1', 'content-type': 'application/json' },
          body: '{"a":1}',
        }),
      init: undefined,
      expected: { method: 'PUT', headers: { 'x-a': '1', 'content-type': 'application/json' }, body: '{"a":1}' },
    },
    {
      name: "init's members over the Request's, headers merged",
      input: () => new Request(url, { method: 'PUT', headers: { 'x-a': '1', 'x-b': '2' }, body: 'from request' }),
      init: { method: 'PATCH', headers: { 'x-b': '3' }, body: 'from init' },
      expected: { method: 'PATCH', headers: { 'x-a': '1', 'x-b': '3' }, body: 'from init' },
    },
    {
      name: 'a streamed body in init',
      input: () => url,
      init: { method: 'POST', body: streamOf('{"kind":', '"Lease"}'), duplex: 'half' } as RequestInit,
      expected: { method: 'POST', headers: {}, body: '{"kind":"Lease"}' },
    },
    {
      name: 'a Request whose body is a stream',
      input: () =>
        new Request(url, { method: 'POST', body: streamOf('part one, ', 'part two'), duplex: 'half' } as RequestInit),
      init: undefined,
      expected: { method: 'POST', headers: {}, body: 'part one, part two' },
    },
  ])('sends $name', async ({ input, init, expected }) => {
    const seen = await echo(input(), init);
    expect(seen.method).toBe(expected.method);
    expect(seen.headers).toMatchObject(expected.headers);
    expect(seen.body).toBe(expected.body);
  });

  it('refuses a body it cannot send with a clear TypeError, and keeps serving', async () => {
    const error = await transport.fetch(url, { method: 'POST', body: new Blob(['x']) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe('nodeFetch: only string, byte and ReadableStream bodies are supported');
    expect((await echo(url)).method).toBe('GET');
  });
});
