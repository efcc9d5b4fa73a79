// A large body waits for its user's turn before it is read, as API Priority and Fairness admits a request
// before its handler reads the body (k8s.io/apiserver/pkg/server/filters/priority-and-fairness.go, seats from
// pkg/util/flowcontrol/fairqueuing/queueset/queueset.go with the "ByUser" flow distinguisher; a full queue is
// rejectOrEnqueueToBoundLocked's rejection, answered by server/filters/maxinflight.go tooManyRequests: 429,
// Retry-After 1, "Too many requests, please try again later.").
import { once } from 'node:events';
import type { Socket } from 'node:net';
import { connect } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IncomingMessage } from 'node:http';
import {
  ADMIT_OVER_BYTES,
  BODY_ADMISSION_LIMITS,
  bodyAdmissionLoad,
  mayBeLarge,
} from '../../../templates/k8s-lease-api-server/src/http/body-admission.js';
import type { LeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import { NS_BASE, api, start } from '../helpers.js';

const headers = (values: Record<string, string>): IncomingMessage => ({ headers: values }) as IncomingMessage;

describe('mayBeLarge', () => {
  it('holds a body declared over the smallest inline parse size, or of unknown length, as possibly large', () => {
    expect(ADMIT_OVER_BYTES).toBe(32 * 1024);
    expect(mayBeLarge(headers({}))).toBe(false);
    expect(mayBeLarge(headers({ 'content-length': String(ADMIT_OVER_BYTES) }))).toBe(false);
    expect(mayBeLarge(headers({ 'content-length': String(ADMIT_OVER_BYTES + 1) }))).toBe(true);
    expect(mayBeLarge(headers({ 'transfer-encoding': 'chunked' }))).toBe(true);
  });
});

/** Polls `check` every 10 ms for up to 20 s (the machine is shared): the queue moves on other requests' time. */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('large bodies over HTTP', () => {
  let server: LeaseApiServer;
  const sockets: Socket[] = [];
  beforeEach(async () => {
    server = await start({ token: 'good', forbiddenTokens: ['refused'] });
  });
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    // Every seat comes back once its connection is gone.
    await until(() => bodyAdmissionLoad().running === 0 && bodyAdmissionLoad().waiting === 0, 'the queue to drain');
    await server.close();
  });

  const BODY = 64 * 1024;
  /** A Namespace create of BODY bytes from `token`, its head and the first `sent` bytes of its body sent; the answer so far. */
  async function openCreate(token: string, sent: number): Promise<{ socket: Socket; answer: () => string }> {
    const { socket, answer } = await openSocket();
    const head = `POST /api/v1/namespaces HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${BODY}\r\n\r\n`;
    socket.write(head + namespaceBody(`ns-${sockets.length}`).slice(0, sent));
    return { socket, answer };
  }

  /** A raw connection to the server, closed after the test, and what it has answered so far. */
  async function openSocket(): Promise<{ socket: Socket; answer: () => string }> {
    const url = new URL(server.url);
    const socket = connect(Number(url.port), url.hostname);
    sockets.push(socket);
    await once(socket, 'connect');
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (text: string) => (answer += text));
    socket.on('error', () => undefined);
    return { socket, answer: () => answer };
  }

  function namespaceBody(name: string): string {
    const head = `{"metadata":{"name":"${name}","annotations":{"pad":"`;
    const tail = '"}}}';
    return head + 'x'.repeat(BODY - head.length - tail.length) + tail;
  }

  it("queues a user's second large body unread behind its first, serves another user's meanwhile, and answers 429 past its queue", async () => {
    // The refused token (Leases forbidden, Namespaces open) starts a large body and stops halfway: it holds its seat.
    const first = await openCreate('refused', BODY / 2);
    await until(() => bodyAdmissionLoad().running === 1, 'the first body to be admitted');
    // Its next large body waits in its own queue, with no byte of it sent: admission comes before any reading.
    const queued = await openCreate('refused', 0);
    await until(() => bodyAdmissionLoad().waiting === 1, 'the second body to wait');
    // Another user's large body is read and created meanwhile.
    const other = await api(server, 'POST', NS_BASE, {
      body: { metadata: { name: 'served' }, spec: { holderIdentity: 'h'.repeat(BODY) } },
      headers: { Authorization: 'Bearer good' },
    });
    expect(other.status).toBe(201);
    // Fill the refused user's queue: the next one is turned away at once, unread, with APF's answer.
    for (let i = 1; i < BODY_ADMISSION_LIMITS.waitingPerFlow; i++) await openCreate('refused', 0);
    await until(() => bodyAdmissionLoad().waiting === BODY_ADMISSION_LIMITS.waitingPerFlow, 'the queue to fill');
    const refused = await openCreate('refused', 0);
    await until(() => refused.answer().includes('}'), 'the 429');
    expect(refused.answer()).toMatch(/^HTTP\/1\.1 429 /);
    expect(refused.answer()).toMatch(/\r\nRetry-After: 1\r\n/i);
    expect(refused.answer()).toMatch(/\r\nConnection: close\r\n/i);
    expect(refused.answer()).toContain('"message":"Too many requests, please try again later."');
    expect(queued.answer()).toBe('');
    // The first body completed is answered; then the queued one is admitted and read.
    first.socket.write(namespaceBody('ns-1').slice(BODY / 2));
    await until(() => first.answer().includes('}'), 'the first answer');
    expect(first.answer()).toMatch(/^HTTP\/1\.1 201 /);
    queued.socket.write(namespaceBody('ns-2'));
    await until(() => queued.answer().includes('}'), 'the queued answer');
    expect(queued.answer()).toMatch(/^HTTP\/1\.1 201 /);
  }, 60_000);

  it("paces a user's refused bodies: the next is taken once the refused one's connection is closed", async () => {
    // Over the Namespace body limit on Content-Length alone: 413 at once, the body unread, the connection closed
    // rstAvoidanceDelay later (body.ts). Until then the refused upload keeps its user's seat.
    const over = 2 * 1024 * 1024;
    const openRefused = async (): Promise<{ send: () => void; answer: () => string }> => {
      const { socket, answer } = await openSocket();
      const head = `POST /api/v1/namespaces HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer refused\r\nContent-Type: application/json\r\nContent-Length: ${over}\r\n\r\n`;
      return { send: () => void socket.write(head), answer };
    };
    // Both connected first, so the second is sent well within the first's rstAvoidanceDelay (500 ms).
    const [first, second] = [await openRefused(), await openRefused()];
    first.send();
    await until(() => first.answer().includes('}'), 'the first 413');
    expect(first.answer()).toMatch(/^HTTP\/1\.1 413 /);
    // Answered, yet its seat is still held: the same user's next body waits for it.
    second.send();
    await until(() => bodyAdmissionLoad().waiting === 1, 'the second body to wait');
    expect(second.answer()).toBe('');
    await until(() => second.answer().includes('}'), 'the second 413');
    expect(second.answer()).toMatch(/^HTTP\/1\.1 413 /);
    // Another user is not paced by it.
    const other = await api(server, 'POST', NS_BASE, {
      body: { metadata: { name: 'other' }, spec: { holderIdentity: 'h'.repeat(BODY) } },
      headers: { Authorization: 'Bearer good' },
    });
    expect(other.status).toBe(201);
  }, 60_000);

  it('gives back the seat of a client that goes away mid-body, and of one that goes away while waiting', async () => {
    const first = await openCreate('refused', BODY / 2);
    await until(() => bodyAdmissionLoad().running === 1, 'the first body to be admitted');
    const queued = await openCreate('refused', 0);
    await until(() => bodyAdmissionLoad().waiting === 1, 'the second body to wait');
    queued.socket.destroy();
    first.socket.destroy();
    await until(() => bodyAdmissionLoad().running === 0 && bodyAdmissionLoad().waiting === 0, 'both seats back');
    // The user is served again.
    const next = await openCreate('refused', BODY);
    await until(() => next.answer().includes('}'), 'the next answer');
    expect(next.answer()).toMatch(/^HTTP\/1\.1 201 /);
  }, 60_000);
});
