import { connect } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import { NS_BASE, start } from '../helpers.js';

/** Sends one keep-alive GET on `socket` and resolves with the status line of the answer. */
function get(socket: ReturnType<typeof connect>, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let received = '';
    const onData = (chunk: Buffer): void => {
      received += chunk.toString('latin1');
      if (!received.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      resolve(received.split('\r\n')[0] ?? '');
    };
    socket.on('data', onData);
    socket.once('close', () =>
      reject(new Error(`connection closed by the server; received ${JSON.stringify(received)}`)),
    );
    socket.write(`GET ${NS_BASE} HTTP/1.1\r\nHost: ${host}\r\nConnection: keep-alive\r\n\r\n`);
  });
}

describe('idle keep-alive connections, as kube-apiserver (IdleTimeout 90 s)', () => {
  let server: LeaseApiServer;
  beforeEach(async () => {
    server = await start();
  });
  afterEach(() => server.close());

  it('serves a request on a connection left idle past the 6 s after which Node closes one by default (clients reuse sockets that long)', async () => {
    const url = new URL(server.url);
    const socket = connect(Number(url.port), url.hostname);
    try {
      await new Promise<void>((resolve) => socket.once('connect', resolve));
      expect(await get(socket, url.host)).toBe('HTTP/1.1 200 OK');
      await new Promise((resolve) => setTimeout(resolve, 7_000));
      expect(await get(socket, url.host)).toBe('HTTP/1.1 200 OK');
    } finally {
      socket.destroy();
    }
  }, 20_000);
});
