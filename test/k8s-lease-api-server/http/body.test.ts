// Reading a request body within a limit, as kube-apiserver's handlers do
// (k8s.io/apiserver/pkg/endpoints/handlers/rest.go limitedReadBody): past the limit the answer is
// NewRequestEntityTooLargeError("limit is N") (413 RequestEntityTooLarge), and the rest of the body is not read.
// This server refuses a body whose Content-Length already says it is too large before reading any of it.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import type { Server } from 'node:http';
import { createServer } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readBodyBytes } from '../../../templates/k8s-lease-api-server/src/http/body.js';
import { sendStatus } from '../../../templates/k8s-lease-api-server/src/http/respond.js';

const LIMIT = 1000;

/** A server that answers the body's length, or readBodyBytes' refusal; `read` has each closed connection's bytes read. */
let server: Server;
let port = 0;
let read: number[] = [];
beforeEach(async () => {
  read = [];
  server = createServer((req, res) => {
    req.socket.once('close', () => read.push(req.socket.bytesRead));
    void readBodyBytes(req, res, LIMIT).then((body) => {
      if (!body.ok) return sendStatus(res, body.error);
      res.end(String(body.value.length));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});
afterEach(async () => {
  server.closeAllConnections();
  server.close();
  await once(server, 'close');
});

/** Sends `head` and `body` on a raw connection and reads until the server answers a whole response. */
async function exchange(head: string, body: string): Promise<string> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  socket.write(head + body);
  let answer = '';
  socket.setEncoding('utf8');
  for await (const text of socket) {
    answer += text;
    // The Status is one JSON object: its closing brace ends the response.
    if (answer.includes('\r\n\r\n') && answer.trimEnd().endsWith('}')) break;
  }
  socket.destroy();
  return answer;
}

const headOf = (length: string): string =>
  `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${length}\r\n\r\n`;

describe('readBodyBytes', () => {
  it('refuses a body whose Content-Length is over the limit before a byte of it arrives', async () => {
    // No body byte is ever sent: only an answer given on the header alone can come back.
    const answer = await exchange(headOf(`Content-Length: ${LIMIT + 1}`), '');
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toMatch(/\r\nConnection: close\r\n/i);
    expect(answer).toContain('"reason":"RequestEntityTooLarge"');
    expect(answer).toContain('"message":"Request entity too large: limit is 1000"');
  });

  it('refuses a chunked body once the bytes read pass the limit, without waiting for its end', async () => {
    const chunk = 'x'.repeat(LIMIT + 1);
    // The chunked body is never terminated: the answer comes from passing the limit.
    const answer = await exchange(headOf('Transfer-Encoding: chunked'), `${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain('"message":"Request entity too large: limit is 1000"');
  });

  it('reads none of the rest of a refused body: its connection is closed with the rest unread', async () => {
    // 64 MiB, more than the kernel's buffers hold: had the server drained it, it would have read it all. The
    // client keeps sending after the server's FIN, as a client busy uploading does.
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    await once(socket, 'connect');
    const total = 64 * 1024 * 1024;
    socket.on('error', () => undefined);
    socket.write(headOf(`Content-Length: ${total}`));
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    const pump = (): void => {
      while (!socket.destroyed && socket.write(chunk));
    };
    socket.on('drain', pump);
    pump();
    let answer = '';
    socket.on('data', (data: Buffer) => (answer += data.toString('utf8')));
    // The server closes the connection itself, rstAvoidanceDelay after its answer.
    // (The client's writes then fail with EPIPE or a reset, which is what an unread body gets.)
    await new Promise((resolve) => socket.once('close', resolve));
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(read).toHaveLength(1);
    expect(read[0]).toBeLessThan(total / 4);
  });

  it('reads a body of exactly the limit whole', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: 'x'.repeat(LIMIT) });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(String(LIMIT));
  });
});
