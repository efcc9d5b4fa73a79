// Entity tags and conditional GETs as kube-apiserver's discovery and OpenAPI handlers answer them:
// the tag is the upper-case hex SHA-512 of the document (kube-openapi handler.go/handler3.go computeETag,
// apiserver endpoints/discovery/aggregated/etag.go calculateETag), sent quoted (strconv.Quote).
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export function documentHash(body: string | Buffer): string {
  return createHash('sha512').update(body).digest('hex').toUpperCase();
}

export const quoted = (hash: string): string => `"${hash}"`;

const stripWeak = (tag: string): string => (tag.startsWith('W/') ? tag.slice(2) : tag);

/**
 * net/http ServeContent's checkIfNoneMatch / checkIfModifiedSince for a GET or HEAD: true when the client's
 * copy is current (If-None-Match lists the tag, weakly compared, or `*`; or, without If-None-Match, the
 * document has not changed since If-Modified-Since, compared to the second).
 */
export function clientCopyIsCurrent(req: IncomingMessage, etag: string, lastModified: Date): boolean {
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    return ifNoneMatch
      .split(',')
      .map((t) => t.trim())
      .some((t) => t === '*' || stripWeak(t) === stripWeak(etag));
  }
  const since = req.headers['if-modified-since'];
  if (since === undefined) return false;
  const sinceMs = Date.parse(since);
  return !Number.isNaN(sinceMs) && Math.floor(lastModified.getTime() / 1000) * 1000 <= sinceMs;
}

/** http.TimeFormat. */
export const httpDate = (at: Date): string => at.toUTCString();

/** Go's time.RFC1123 of a UTC time ("Mon, 02 Jan 2006 15:04:05 UTC"), as handler3 writes Expires. */
export const rfc1123 = (at: Date): string => at.toUTCString().replace(/GMT$/, 'UTC');
