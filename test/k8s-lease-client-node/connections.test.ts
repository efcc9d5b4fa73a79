// A kubeconfig-configured client keeps its HTTPS connections: few TLS handshakes for many reads, and close() ends them.
import { writeFile } from 'node:fs/promises';
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ClientClosedError, createClient, readNamespacedLease } from 'k8s-lease-client';
import type { LeaseApiServer } from '../../templates/k8s-lease-api-server/src/index.js';
import { kubeconfigClientOptions } from '../../templates/k8s-lease-client-node/src/index.js';
import type { NodeClientConfig } from '../../templates/k8s-lease-client-node/src/index.js';
import { removeTempDirs, start, tempDir } from './helpers.js';

const TOKEN = 'connections-token';

/**
 * A TCP relay in front of the Lease API server that counts what the server's socket layer would see.
 * startLeaseApiServer does not expose its https.Server (so no 'secureConnection' events), and a
 * relay needs neither its key nor an edit to templates/k8s-lease-api-server/src: TLS passes through end to end, still
 * verified against the server's CA. A TLS handshake starts with the client's ClientHello as the first
 * bytes of its connection (a handshake record, 0x16, whose first message is type 1); TLS 1.3 has no
 * renegotiation, so these count every handshake, resumed or not.
 */
interface CountingRelay {
  readonly url: string;
  /** TCP connections accepted. */
  connections(): number;
  /** Connections that opened with a TLS ClientHello. */
  handshakes(): number;
  /** Resolves once no client connection is open (each ended by its client or the server). */
  drained(): Promise<void>;
  close(): Promise<void>;
}

const TLS_HANDSHAKE_RECORD = 0x16;
const CLIENT_HELLO = 0x01;

function isClientHello(chunk: Buffer): boolean {
  // Record header: type (1 byte), legacy version (2), length (2); then the handshake message type.
  return chunk.length > 5 && chunk[0] === TLS_HANDSHAKE_RECORD && chunk[5] === CLIENT_HELLO;
}

async function countingRelay(target: LeaseApiServer): Promise<CountingRelay> {
  let connections = 0;
  let handshakes = 0;
  const open = new Set<Socket>();
  const onDrained: Array<() => void> = [];
  const server: Server = createServer((client) => {
    connections++;
    open.add(client);
    const upstream = connect(target.port, target.host);
    client.once('data', (chunk: Buffer) => {
      if (isClientHello(chunk)) handshakes++;
    });
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => {
      upstream.destroy();
      open.delete(client);
      if (open.size === 0) for (const resolve of onDrained.splice(0)) resolve();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    connections: () => connections,
    handshakes: () => handshakes,
    drained: () => (open.size === 0 ? Promise.resolve() : new Promise((resolve) => onDrained.push(resolve))),
    close: () =>
      new Promise((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await removeTempDirs();
});

/** The server's own kubeconfig (its CA, the token), pointed at the relay: the certificate still names 127.0.0.1. */
async function setUp(): Promise<{ server: LeaseApiServer; relay: CountingRelay; config: NodeClientConfig }> {
  const server = await start({ tls: true, token: TOKEN });
  cleanups.push(() => server.close());
  const relay = await countingRelay(server);
  cleanups.push(() => relay.close());
  const path = join(await tempDir(), 'kubeconfig');
  const kubeconfig = server.kubeconfig();
  expect(kubeconfig).toContain(server.url);
  await writeFile(path, kubeconfig.replace(server.url, relay.url), { mode: 0o600 });
  const config = await kubeconfigClientOptions({ kubeconfig: path });
  cleanups.push(() => config.close());
  return { server, relay, config };
}

describe('connections of a kubeconfig-configured client over HTTPS', () => {
  it('200 sequential reads cost at most 2 TLS handshakes, and close() ends the pool', async () => {
    const { server, relay, config } = await setUp();
    // Through the store handle, typed by the server's own Lease model, so nothing but the reads crosses the relay.
    const created = server.store.create({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'kept', namespace: 'default' },
      spec: { holderIdentity: 'node-test' },
    });
    expect(created.ok).toBe(true);
    const client = createClient(config.clientOptions);
    server.clearRequests();

    for (let i = 0; i < 200; i++) {
      const read = await readNamespacedLease(client, { namespace: 'default', name: 'kept' });
      expect(read.metadata?.name).toBe('kept');
    }

    const reads = server
      .requests()
      .filter((r) => r.method === 'GET' && r.path === '/apis/coordination.k8s.io/v1/namespaces/default/leases/kept');
    expect(reads).toHaveLength(200);
    expect(reads.every((r) => r.status === 200)).toBe(true);
    expect(relay.handshakes()).toBeGreaterThanOrEqual(1);
    expect(relay.handshakes()).toBeLessThanOrEqual(2);
    // Every connection was TLS: nothing reached the server around the handshake count.
    expect(relay.connections()).toBe(relay.handshakes());

    await config.close();
    // The pool's connections end: the relay sees each closed (an open keep-alive socket would keep this pending).
    await relay.drained();
    const after = await readNamespacedLease(client, { namespace: 'default', name: 'kept' }).then(
      () => 'read',
      (error: unknown) => error,
    );
    // A closed client says so, naming the request, rather than undici's "cannot reach … (UND_ERR_DESTROYED)".
    expect(after).toBeInstanceOf(ClientClosedError);
    expect(String(after)).toMatch(/^ClientClosedError: GET https:\/\/.*\/leases\/kept: the client was closed$/);
    // The refused request never reached the server, and no connection was opened for it.
    expect(server.requests()).toHaveLength(200);
    expect(relay.handshakes()).toBeLessThanOrEqual(2);
  });
});
