// Copied by lease-api-generator from templates/server/http/cors.ts. DO NOT EDIT: edit that file and run `npm run generate`.
// CORS as kube-apiserver does it (k8s.io/apiserver pkg/server/filters/cors.go, WithCORS, installed by
// DefaultBuildHandlerChain outside authentication): an Origin matching one of the --cors-allowed-origins
// regexps gets the Access-Control-* headers on every answer, and an OPTIONS request with such an Origin is
// answered 204 at once (no authentication, no routing). Any other Origin gets no CORS header at all, and
// its request goes on as if it had none.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';

export interface CorsPolicy {
  readonly origins: readonly RegExp[];
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
 * `example.com` also allowed `example.com.evil.net`. Go's RE2 syntax is read as a JavaScript RegExp.
 */
export function compileCorsOrigins(patterns: readonly string[]): Result<CorsPolicy, string> {
  const origins: RegExp[] = [];
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
    const compiled = toJsRegExp(pattern);
    if (!compiled.ok) return err(`corsAllowedOrigins: ${JSON.stringify(pattern)} ${compiled.error}`);
    origins.push(compiled.value);
  }
  return ok({ origins });
}

/**
 * RE2 puts flags in a leading group, `(?i)^https://example\.com$`, which a JavaScript RegExp cannot
 * parse: i, m and s become RegExp flags; U (ungreedy) has no counterpart and is refused.
 */
function toJsRegExp(pattern: string): Result<RegExp, string> {
  const flagGroup = /^\(\?([a-zA-Z]+)\)/.exec(pattern);
  const flags = flagGroup?.[1] ?? '';
  const unsupported = [...flags].find((f) => !'ims'.includes(f));
  if (unsupported !== undefined)
    return err(`uses the flag ${JSON.stringify(unsupported)}, which only i, m and s can be translated from`);
  try {
    return ok(new RegExp(pattern.slice(flagGroup?.[0].length ?? 0), flags));
  } catch (e) {
    return err(`is not a valid regular expression: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function allowedOrigin(policy: CorsPolicy, req: IncomingMessage): string | undefined {
  // req.Header.Get("Origin"): the first Origin header only. Node joins repeated ones with ", ", which let
  // `Origin: http://evil` + `Origin: http://allowed` pass an unpinned pattern and be echoed whole.
  const origin = req.headersDistinct.origin?.[0];
  if (origin === undefined || origin === '') return undefined;
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
