/**
 * Child process of the `tls-reads` benchmark (started by `startTlsLeaseServer` in
 * tls-reads-server.ts): a loopback `node:https` server holding one Lease, with a CA and serving
 * certificate from the Lease API server's own test PKI (ECDSA P-256), in its own process so its
 * CPU does not share the measured client's event loop. It writes a kubeconfig (CA-verified,
 * bearer token) for the clients, and counts requests, TCP connections accepted, TLS handshakes
 * completed ('secureConnection') and how many of those resumed a session, answering over IPC.
 *
 *   GET /apis/coordination.k8s.io/v1/namespaces/default/leases/bench with the token → 200 the Lease (pre-serialised)
 *   without the token → 401; anything else → 404 (a Kubernetes Status)
 */

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { renderKubeconfig } from '../../templates/k8s-lease-api-server/src/kubeconfig.js';
import { createTestPki } from '../../templates/k8s-lease-api-server/src/tls/pki.js';
import { BENCH_LEASE, LEASE_PATH } from '../lib/bench-lease.js';
import { sendFailureStatus } from '../lib/status-response.js';
import type { StatsRequest } from '../lib/stats-child.js';
import { BENCH_TOKEN, type TlsChildMessage, type TlsServerStats } from './tls-reads-server.js';

/** The same Lease as lease-server.child.ts serves (~1 KB), serialised once. */
const leaseBody = Buffer.from(JSON.stringify(BENCH_LEASE));

let requests = 0;
let tcpConnections = 0;
let tlsHandshakes = 0;
let resumedSessions = 0;
let usedConnections = new Set<number>();
const socketIds = new WeakMap<Socket, number>();
let nextSocketId = 0;

const pki = await createTestPki({ hosts: ['127.0.0.1'], clientCertificate: false });
const server = createServer({ key: pki.server.key, cert: pki.server.certificate }, (req, res) => {
  requests++;
  const id = socketIds.get(req.socket);
  if (id !== undefined) usedConnections.add(id);
  req.resume();
  if (req.headers.authorization !== `Bearer ${BENCH_TOKEN}`)
    sendFailureStatus(res, 401, 'Unauthorized', 'Unauthorized');
  else if (req.method !== 'GET' || req.url !== LEASE_PATH)
    sendFailureStatus(res, 404, 'NotFound', `${req.url ?? ''} not found`);
  else {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': leaseBody.length });
    res.end(leaseBody);
  }
});
// 'connection' is the raw TCP socket; 'secureConnection' fires once per completed TLS handshake on it.
server.on('connection', () => {
  tcpConnections++;
});
server.on('secureConnection', (socket: TLSSocket) => {
  tlsHandshakes++;
  if (socket.isSessionReused()) resumedSessions++;
  socketIds.set(socket, nextSocketId++);
});
// Longer than any pause between rounds, so an idle keep-alive connection is never closed under a client.
server.keepAliveTimeout = 60_000;

function stats(): TlsServerStats {
  return {
    type: 'stats',
    requests,
    tcpConnections,
    tlsHandshakes,
    resumedSessions,
    usedConnections: usedConnections.size,
  };
}

function send(message: TlsChildMessage): void {
  process.send?.(message);
}

const dir = await mkdtemp(join(tmpdir(), 'tls-reads-'));
process.on('message', (message: StatsRequest) => {
  if (message.type === 'reset') {
    requests = 0;
    tcpConnections = 0;
    tlsHandshakes = 0;
    resumedSessions = 0;
    usedConnections = new Set();
  }
  send(stats());
});
// The parent going away (normally or not) ends the server and its kubeconfig.
process.on('disconnect', () => {
  void rm(dir, { recursive: true, force: true }).finally(() => process.exit(0));
});

server.listen(0, '127.0.0.1', () => {
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const kubeconfig = join(dir, 'kubeconfig');
  void writeFile(
    kubeconfig,
    renderKubeconfig({
      server: url,
      name: 'bench',
      namespace: 'default',
      certificateAuthority: pki.ca.certificate,
      token: BENCH_TOKEN,
    }),
    { mode: 0o600 },
  ).then(() => send({ type: 'listening', url, kubeconfig, leaseBytes: leaseBody.length }));
});
