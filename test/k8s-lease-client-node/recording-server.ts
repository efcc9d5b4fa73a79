// A loopback server for the Node package's tests that records every request's header lines as they arrived (repeated
// lines kept apart), over http, https or https with client certificates; it forwards to a target over http or answers
// every request with one fixed JSON body.
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { createTestPki } from '../../templates/k8s-lease-api-server/src/tls/pki.js';
import type { TestPki } from '../../templates/k8s-lease-api-server/src/tls/pki.js';

export interface RecordedRequest {
  method: string;
  url: string;
  /** Header lines as sent: [lower-case name, value], repeated names kept apart. */
  lines: Array<[string, string]>;
  /** The subject CN of the client certificate, when one was presented and verified. */
  clientCn: string | undefined;
}

export interface RecordingServer {
  readonly url: string;
  readonly pki: TestPki | undefined;
  readonly requests: RecordedRequest[];
  /** Every value of the header `name` over all recorded requests, one per line. */
  values(name: string): string[];
  close(): Promise<void>;
}

export interface RecordingOptions {
  /** Default 'http'. `mtls` asks for (and verifies) a client certificate signed by the test CA. */
  scheme?: 'http' | 'https' | 'mtls';
  /** Forward each request to this http:// origin and relay its answer; otherwise answer `body` with 200. */
  forwardTo?: string;
  body?: unknown;
}

export async function startRecordingServer(options: RecordingOptions = {}): Promise<RecordingServer> {
  const scheme = options.scheme ?? 'http';
  const requests: RecordedRequest[] = [];
  const body = JSON.stringify(options.body ?? { kind: 'Status', apiVersion: 'v1', status: 'Success' });
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const lines: Array<[string, string]> = [];
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2)
      lines.push([(req.rawHeaders[i] ?? '').toLowerCase(), req.rawHeaders[i + 1] ?? '']);
    const socket = req.socket as Partial<TLSSocket>;
    const peer = socket.authorized ? socket.getPeerCertificate?.() : undefined;
    const cn = peer?.subject?.CN;
    requests.push({
      method: req.method ?? '',
      url: req.url ?? '',
      lines,
      clientCn: typeof cn === 'string' ? cn : undefined,
    });
    if (options.forwardTo === undefined) {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
      return;
    }
    const target = new URL(req.url ?? '/', options.forwardTo);
    const upstream = httpRequest(target, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  };
  let pki: TestPki | undefined;
  let server: Server;
  if (scheme === 'http') server = createHttpServer(handle);
  else {
    pki = await createTestPki({
      hosts: ['127.0.0.1'],
      clientCertificate: scheme === 'mtls',
      clientCommonName: 'cert-user',
    });
    server = createHttpsServer(
      {
        key: pki.server.key,
        cert: pki.server.certificate,
        ...(scheme === 'mtls' ? { ca: pki.ca.certificate, requestCert: true, rejectUnauthorized: false } : {}),
      },
      handle,
    );
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${scheme === 'http' ? 'http' : 'https'}://127.0.0.1:${port}`,
    pki,
    requests,
    values: (name) =>
      requests.flatMap((r) => r.lines.filter(([line]) => line === name.toLowerCase()).map(([, value]) => value)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
