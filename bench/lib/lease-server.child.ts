/**
 * Child process of the HTTP benchmarks (started by `startLeaseServer` in
 * lease-server.ts): a loopback `node:http` server holding one realistic Lease,
 * in its own process so its CPU time does not share the measured client's
 * event loop. It counts requests, TCP connections accepted and the distinct
 * connections that served requests, and answers the parent over IPC.
 *
 *   GET /apis/coordination.k8s.io/v1/namespaces/default/leases/bench → 200 the Lease (pre-serialised)
 *   PUT the same path → 200 the body sent, with resourceVersion bumped
 *   anything else → a Kubernetes Status (404 / 405)
 */

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { BENCH_LEASE, LEASE_PATH } from './bench-lease.js';
import type { LeaseServerListening, ServerStats } from './lease-server.js';
import type { StatsRequest } from './stats-child.js';
import { sendFailureStatus } from './status-response.js';

let lease: Readonly<Record<string, unknown>> = BENCH_LEASE;
let leaseBody = Buffer.from(JSON.stringify(lease));

let requests = 0;
let newConnections = 0;
let usedConnections = new Set<number>();
const socketIds = new WeakMap<Socket, number>();
let nextSocketId = 0;

function sendLease(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': leaseBody.length });
  res.end(leaseBody);
}

function replace(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    let sent: unknown;
    try {
      sent = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      sendFailureStatus(res, 400, 'BadRequest', 'request body is not JSON');
      return;
    }
    if (typeof sent !== 'object' || sent === null) {
      sendFailureStatus(res, 400, 'BadRequest', 'request body is not an object');
      return;
    }
    const metadata: unknown = Reflect.get(sent, 'metadata');
    const previous: unknown = Reflect.get(lease, 'metadata');
    const version =
      typeof previous === 'object' && previous !== null ? Number(Reflect.get(previous, 'resourceVersion')) : 0;
    lease = {
      ...sent,
      metadata: {
        ...(typeof metadata === 'object' && metadata !== null ? metadata : {}),
        resourceVersion: String(version + 1),
      },
    };
    leaseBody = Buffer.from(JSON.stringify(lease));
    sendLease(res);
  });
}

const server = createServer((req, res) => {
  requests++;
  const id = socketIds.get(req.socket);
  if (id !== undefined) usedConnections.add(id);
  if (req.url !== LEASE_PATH) {
    req.resume();
    sendFailureStatus(res, 404, 'NotFound', `${req.url ?? ''} not found`);
  } else if (req.method === 'GET') {
    req.resume();
    sendLease(res);
  } else if (req.method === 'PUT') {
    replace(req, res);
  } else {
    req.resume();
    sendFailureStatus(res, 405, 'MethodNotAllowed', `${req.method ?? ''} is not allowed`);
  }
});
server.on('connection', (socket: Socket) => {
  newConnections++;
  socketIds.set(socket, nextSocketId++);
});
// Node's default (5 s), so idle connections are closed promptly: a client that opens a connection per
// request and never closes it (client-node 2.x builds an undici Agent per call) would otherwise hold
// thousands of idle sockets per round in both processes (60 s here once took the bench to its 20,000
// open-file limit). Its cost per request (a new connection each time) is what is measured, with or
// without this. Keep-alive clients are not cut mid-round: undici announces this timeout from the
// `Keep-Alive: timeout=5` hint less its 1–2 s threshold, drops an idle connection itself after 3–4 s, and
// reconnects once when its next round starts (≤ 2 connections opened per round; the goal allows 5).
server.keepAliveTimeout = 5_000;

function send(message: ServerStats | LeaseServerListening): void {
  process.send?.(message);
}

process.on('message', (message: StatsRequest) => {
  if (message.type === 'reset') {
    requests = 0;
    newConnections = 0;
    usedConnections = new Set();
  }
  send({ type: 'stats', requests, newConnections, usedConnections: usedConnections.size });
});
// The parent going away (normally or not) ends the server.
process.on('disconnect', () => process.exit(0));

server.listen(0, '127.0.0.1', () => {
  send({ type: 'listening', port: (server.address() as AddressInfo).port, leaseBytes: leaseBody.length });
});
