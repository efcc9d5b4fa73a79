// CORS as kube-apiserver does it (k8s.io/apiserver pkg/server/filters/cors.go, WithCORS, installed by
// DefaultBuildHandlerChain outside authentication): an Origin matching one of the --cors-allowed-origins
// regexps gets the Access-Control-* headers on every answer, and an OPTIONS request with such an Origin is
// answered 204 at once (no authentication, no routing). Any other Origin gets no CORS header at all, and
// its request goes on as if it had none.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RE2JS } from 're2js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';

export interface CorsPolicy {
  readonly origins: readonly RE2JS[];
}

// WithCORS's defaults, which DefaultBuildHandlerChain keeps (it passes nil for methods and headers).
const ALLOW_METHODS = 'POST, GET, OPTIONS, PUT, DELETE, PATCH';
const ALLOW_HEADERS =
  'Content-Type, Content-Length, Accept-Encoding, X-CSRF-Token, Authorization, X-Requested-With, If-Modified-Since';
// kube-apiserver exposes only Date. Warning and Retry-After are added because the client reads them
// (warning handlers, 429 backoff): without them a browser's fetch hides both from the page.
const EXPOSE_HEADERS = 'Date, Warning, Retry-After';

/**
 * kube-apiserver's validateCorsAllowedOriginList (server_run_options.go): every pattern compiles, is not
 * empty, and pins the host's start ('^' or '//') and end ('$' or ':'), against CVE-2022-1996 where
 * `example.com` also allowed `example.com.evil.net`. The patterns are Go regexps, compiled by re2js (a port of
 * RE2, Go's engine): the same syntax (flag groups such as `(?i)` included), and matching in linear time, so a
 * hostile Origin cannot make even a badly nested pattern backtrack for minutes, as a JavaScript RegExp would.
 */
export function compileCorsOrigins(patterns: readonly string[]): Result<CorsPolicy, string> {
  const origins: RE2JS[] = [];
  for (const pattern of patterns) {
    if (pattern === '')
      return err(
        'corsAllowedOrigins: empty value (give regular expressions such as "^https://dashboard\\.example\\.com$")',
      );
    const pinned =
      (pattern.includes('^') || pattern.includes('//')) && (pattern.includes('$') || pattern.includes(':'));
    if (!pinned)
      return err(
        `corsAllowedOrigins: ${JSON.stringify(pattern)} does not pin to start/end of host in the origin header (use "^…$", "//host(:|$)" or similar)`,
      );
    try {
      origins.push(RE2JS.compile(pattern));
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      return err(`corsAllowedOrigins: ${JSON.stringify(pattern)} is not a valid regular expression: ${reason}`);
    }
  }
  return ok({ origins });
}

function allowedOrigin(policy: CorsPolicy, req: IncomingMessage): string | undefined {
  // req.Header.Get("Origin"): the first Origin header only. Node joins repeated ones with ", ", which let
  // `Origin: http://evil` + `Origin: http://allowed` pass an unpinned pattern and be echoed whole.
  const origin = req.headersDistinct.origin?.[0];
  if (origin === undefined || origin === '') return undefined;
  // regexp.MatchString: a match anywhere in the Origin, as re2js's test().
  return policy.origins.some((re) => re.test(origin)) ? origin : undefined;
}

/**
 * Sets the CORS headers for an allowed Origin; returns true when the request was a preflight and has been
 * answered (204), so nothing else may handle it.
 */
export function applyCors(policy: CorsPolicy | undefined, req: IncomingMessage, res: ServerResponse): boolean {
  if (policy === undefined) return false;
  const origin = allowedOrigin(policy, req);
  if (origin === undefined) return false;
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Access-Control-Allow-Methods', ALLOW_METHODS);
  res.setHeader('Access-Control-Allow-Headers', ALLOW_HEADERS);
  res.setHeader('Access-Control-Expose-Headers', EXPOSE_HEADERS);
  res.setHeader('Access-Control-Allow-Credentials', 'true');
  if (req.method !== 'OPTIONS') return false;
  req.resume();
  res.writeHead(204);
  res.end();
  return true;
}
