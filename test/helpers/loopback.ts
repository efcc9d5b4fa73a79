import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  body: string;
}

export type Handler = (request: RecordedRequest, res: ServerResponse) => void;

/** A real HTTP/1.1 server on 127.0.0.1 that records requests and counts TCP connections. */
export interface Loopback {
  readonly baseUrl: string;
  readonly requests: RecordedRequest[];
  /** TCP connections accepted so far. */
  connections: number;
  handler: Handler;
  close(): Promise<void>;
}

export const jsonHandler =
  (status: number, body: unknown, headers: Record<string, string> = {}): Handler =>
  (_request, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };

export async function startLoopback(): Promise<Loopback> {
  const server = createServer();
  const loopback: Loopback = {
    baseUrl: '',
    requests: [],
    connections: 0,
    handler: jsonHandler(200, {}),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error === undefined ? resolve() : reject(error)));
      }),
  };
  server.on('connection', () => {
    loopback.connections++;
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        rawHeaders: req.rawHeaders,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      loopback.requests.push(recorded);
      loopback.handler(recorded, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(loopback, { baseUrl: `http://127.0.0.1:${port}` });
}
