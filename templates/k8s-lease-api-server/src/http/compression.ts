// Response compression as kube-apiserver's SerializeObject does it (APIResponseCompression, on by default):
// a resource request's answer (watches excepted: they never pass through it) is gzipped when the client lists
// gzip in Accept-Encoding and the body is over 128 KiB — deferredResponseWriter compares the bytes written
// with defaultGzipThresholdBytes (strictly greater) and then sets Content-Encoding: gzip and adds
// Vary: Accept-Encoding (pkg/endpoints/handlers/responsewriters/writers.go), streaming at gzip level 1
// without a Content-Length. Compression runs on zlib's thread pool, so a large list never blocks the loop.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { constants, createGzip } from 'node:zlib';

export const GZIP_THRESHOLD_BYTES: number = 128 * 1024;

/** Responses dispatch marked as answers to a resource request other than a watch. */
const compressible = new WeakSet<ServerResponse>();

export function allowCompression(res: ServerResponse): void {
  compressible.add(res);
}

/**
 * ContentEncodingSupported: Accept-Encoding (the first header) split at commas, one token exactly "gzip" once
 * trimmed — no q-values are read, so `gzip;q=0` is not gzip and `gzip;q=0.5` neither.
 */
export function acceptsGzip(req: IncomingMessage | undefined): boolean {
  const header = req?.headersDistinct['accept-encoding']?.[0] ?? '';
  return header.split(',').some((token) => token.trim() === 'gzip');
}

/** Whether this body goes out gzipped. */
export function shouldGzip(res: ServerResponse, length: number): boolean {
  return length > GZIP_THRESHOLD_BYTES && compressible.has(res) && acceptsGzip(res.req);
}

/** Writes the head (without Content-Length) and the body through a gzip stream. */
export function sendGzipped(
  res: ServerResponse,
  code: number,
  headers: Record<string, string | number | string[]>,
  body: Buffer,
): void {
  // Header.Add: a Vary the answer already has (set before or passed along) stays, Accept-Encoding joins it.
  const vary = headers['Vary'] ?? res.getHeader('Vary');
  const varies = vary === undefined ? [] : Array.isArray(vary) ? vary : [String(vary)];
  res.writeHead(code, { ...headers, 'Content-Encoding': 'gzip', Vary: [...varies, 'Accept-Encoding'] });
  const gzip = createGzip({ level: constants.Z_BEST_SPEED });
  gzip.on('error', () => res.destroy());
  res.once('close', () => gzip.destroy());
  gzip.pipe(res);
  gzip.end(body);
}
