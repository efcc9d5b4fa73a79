// What remains of the scripted fake server: watch output kube-apiserver never produces (malformed or
// non-event lines, a replay of the event at the resume point, duplicates and events out of
// resourceVersion order, a stream holding only a bookmark). The shipped server cannot be made to
// send those, so this front answers the next watch connections from scripts and forwards every
// other request, and every watch once the scripts are used up, to the shipped server.
import { createServer, request } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Lease, RecordedRequest } from './lease-server.js';

export interface WatchContext {
  readonly query: URLSearchParams;
  readonly res: ServerResponse;
  send(line: unknown): void;
  /** Writes the text, then destroys the socket: a broken stream. */
  cut(text?: string): void;
  end(text?: string): void;
}

export type WatchScript = (ctx: WatchContext) => void;

export interface ScriptedFront {
  readonly url: string;
  /** Scripts for the next watch connections, consumed in order. */
  readonly scripts: WatchScript[];
  readonly requests: RecordedRequest[];
  watchRequests(): RecordedRequest[];
  close(): Promise<void>;
}

export async function startScriptedFront(upstream: string): Promise<ScriptedFront> {
  const target = new URL(upstream);
  const scripts: WatchScript[] = [];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();

  const forward = (req: IncomingMessage, res: ServerResponse): void => {
    const outgoing = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (upstreamRes) => {
        res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
        res.flushHeaders();
        upstreamRes.pipe(res);
        upstreamRes.on('error', () => res.socket?.destroy());
      },
    );
    outgoing.on('error', () => res.socket?.destroy());
    res.on('close', () => outgoing.destroy());
    req.pipe(outgoing);
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const watch = url.searchParams.get('watch') === 'true' || url.searchParams.get('watch') === '1';
    requests.push({ method: req.method ?? '', path: url.pathname, query: url.searchParams, watch });
    const script = watch ? scripts.shift() : undefined;
    if (script === undefined) return forward(req, res);
    res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
    res.flushHeaders();
    script({
      query: url.searchParams,
      res,
      send: (line) => void res.write(`${JSON.stringify(line)}\n`),
      cut: (text = '') => {
        const socket = res.socket;
        if (text !== '') res.write(text);
        // Destroying discards what Node has not yet handed to the kernel: wait for that first.
        const destroyWhenFlushed = (): void => {
          if (socket === null || socket.writableLength === 0) socket?.destroy();
          else setImmediate(destroyWhenFlushed);
        };
        setImmediate(destroyWhenFlushed);
      },
      end: (text) => (text === undefined ? res.end() : res.end(text)),
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    scripts,
    requests,
    watchRequests: () => requests.filter((r) => r.watch),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export function leaseOf(name: string, resourceVersion: string, holderIdentity = 'a'): Lease {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name, namespace: 'default', resourceVersion, uid: `uid-${name}` },
    spec: { holderIdentity },
  };
}

export function bookmarkObject(rv: number, annotations?: Record<string, string>): Record<string, unknown> {
  return {
    kind: 'Lease',
    apiVersion: 'coordination.k8s.io/v1',
    metadata: { resourceVersion: String(rv), ...(annotations === undefined ? {} : { annotations }) },
  };
}
