// `--healthz-port`: `/healthz` from the library's health adaptor (client-go's HealthzAdaptor: failing once this
// replica leads but stopped renewing) and `/metrics` in the Prometheus text format, for probes and scrapers.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HealthzAdaptor } from 'k8s-lease-client';
import type { ElectionMetrics } from './election-metrics.js';

export interface HealthServer {
  /** The address it listens on, as `http://host:port`. */
  readonly url: string;
  close(): Promise<void>;
}

export class HealthServerError extends Error {
  override readonly name = 'HealthServerError';
}

// A probe or a scraper sends a small GET: anything slower or larger is cut short, so that a hostile client
// cannot hold a socket open.
const REQUEST_TIMEOUT_MS = 10_000;
const MAX_HEADER_BYTES = 8 * 1024;

function answer(
  request: IncomingMessage,
  response: ServerResponse,
  healthz: HealthzAdaptor,
  metrics: ElectionMetrics,
): void {
  const path = (request.url ?? '').split('?')[0];
  if (path !== '/healthz' && path !== '/metrics') {
    response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('404 page not found\n');
    return;
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end();
    return;
  }
  if (path === '/metrics') {
    response.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' }).end(metrics.render());
    return;
  }
  const failure = healthz.check();
  // As apiserver's healthz handler: "ok", or the failed check named, with 500.
  if (failure === undefined) response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('ok');
  else
    response
      .writeHead(500, { 'content-type': 'text/plain; charset=utf-8' })
      .end(`[-]${healthz.name} failed: ${failure.message}\nhealthz check failed\n`);
}

/** Listens on `address:port` (0: a free port); rejects with a one-line HealthServerError if it cannot. */
export function serveHealth(
  address: string,
  port: number,
  healthz: HealthzAdaptor,
  metrics: ElectionMetrics,
): Promise<HealthServer> {
  const server: Server = createServer({ maxHeaderSize: MAX_HEADER_BYTES, requestTimeout: REQUEST_TIMEOUT_MS }, (q, r) =>
    answer(q, r, healthz, metrics),
  );
  server.headersTimeout = REQUEST_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new HealthServerError(`--healthz-port ${port}: cannot listen on ${address}: ${error.code ?? error.message}`),
      ),
    );
    server.listen(port, address, () => {
      const bound = server.address() as AddressInfo;
      const host = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
      resolve({
        url: `http://${host}:${bound.port}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
