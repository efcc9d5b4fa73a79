/**
 * `withWarnings`: surfaces the API server's `Warning` response headers
 * (deprecated APIs, ignored fields…), as client-go's warning handlers do.
 */

import { requestMethod, requestUrl, safeUrl } from './request.js';

/** One entry of an HTTP `Warning` header (RFC 7234), as `parseWarningHeaders` returns it. */
export interface WarningHeader {
  /** Three digits; the API server sends 299. */
  code: number;
  /** `-` from the API server. */
  agent: string;
  /** Unquoted and unescaped; never empty, no control characters. */
  text: string;
}

/** A 299 warning the API server sent (a deprecated API, an ignored field), with the request it came with. */
export interface ApiWarning extends WarningHeader {
  /** HTTP method of the request. */
  method: string;
  /** Without query string, fragment or credentials. */
  url: string;
}

/** How many distinct texts the default handler remembers; beyond that the oldest is forgotten (and may be logged again). */
const SEEN_LIMIT = 256;
/** Longest text the default handler logs. */
const LOG_LIMIT = 512;
/** Warnings taken from one response; a header of thousands is an attack, not advice. */
const PER_RESPONSE_LIMIT = 64;

/**
 * Wraps `fetchImpl` so every 299 warning of a response reaches `onWarning`
 * (as client-go's handleWarnings, which ignores other codes and empty texts).
 * Without a handler, each distinct text is logged once with `console.warn`.
 */
export function withWarnings(
  fetchImpl: typeof fetch,
  onWarning: (warning: ApiWarning) => void = logOncePerText(),
): typeof fetch {
  return async (input, init) => {
    const response = await fetchImpl(input, init);
    reportWarnings(response, () => requestMethod(input, init), requestUrl(input), onWarning);
    return response;
  };
}

/** Hands the response's 299 warnings to `onWarning`; the method is asked for only when there is one. */
export function reportWarnings(
  response: Response,
  method: () => string,
  url: string,
  onWarning: (warning: ApiWarning) => void,
): void {
  const header = utf8(response.headers.get('warning'));
  if (!header) return;
  const where = { method: method(), url: safeUrl(url) };
  for (const warning of parseWarningHeaders(header).slice(0, PER_RESPONSE_LIMIT)) {
    if (warning.code === 299 && warning.text) onWarning({ ...warning, ...where });
  }
}

/**
 * fetch hands header values over byte for byte as Latin-1; the API server
 * writes UTF-8 (which apimachinery checks), so warnings quoting a non-ASCII
 * name read right. Bytes that are not UTF-8 become U+FFFD.
 */
function utf8(latin1: string | null): string {
  if (!latin1 || !/[\u0080-\u00ff]/.test(latin1)) return latin1 ?? '';
  return new TextDecoder().decode(Uint8Array.from(latin1, (c) => c.charCodeAt(0)));
}

/** The default handler: `console.warn("Warning: …")` once per distinct text, as kubectl's deduplicating warning writer. */
export function logOncePerText(log: (message: string) => void = console.warn): (warning: ApiWarning) => void {
  const seen = new Set<string>();
  return ({ text }) => {
    if (seen.has(text)) return;
    if (seen.size >= SEEN_LIMIT) seen.delete(seen.values().next().value as string);
    seen.add(text);
    log(`Warning: ${sanitise(text)}`);
  };
}

/**
 * Escapes what could rewrite a terminal or a log line (C0/C1 controls,
 * bidirectional overrides, line separators) and bounds the length.
 */
export function sanitise(text: string): string {
  const bounded = text.length > LOG_LIMIT ? `${text.slice(0, LOG_LIMIT).replace(/[\ud800-\udbff]$/, '')}…` : text;
  return bounded.replace(
    /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * Hand-written because it encodes apimachinery's reading of the header
 * (k8s.io/apimachinery/pkg/util/net/http.go ParseWarningHeaders): comma
 * separated `code agent "text" ["date"]` values, `\` escaping inside the
 * quotes; at the first malformed value, the rest of the header is skipped.
 * RFC 2047 encoded words (tolerated by apimachinery) are not decoded.
 */
export function parseWarningHeaders(header: string): WarningHeader[] {
  const warnings: WarningHeader[] = [];
  let rest = header.trim();
  while (rest) {
    const parsed = parseWarningHeader(rest);
    if (parsed === undefined) break;
    warnings.push(parsed.warning);
    rest = parsed.remainder;
  }
  return warnings;
}

function parseWarningHeader(header: string): { warning: WarningHeader; remainder: string } | undefined {
  const match = /^([0-9]{3}) ([^ ]+) /.exec(header.trim());
  if (match === null) return undefined;
  const [whole, code = '', agent = ''] = match;
  // As apimachinery: an agent or text with control characters makes the value invalid.
  if (hasControl(agent)) return undefined;
  const quoted = parseQuotedString(header.trim().slice(whole.length));
  if (quoted === undefined || hasControl(quoted.text)) return undefined;
  let remainder = quoted.remainder;
  if (remainder.startsWith('"')) {
    const end = remainder.indexOf('"', 1);
    if (end < 0) return undefined;
    remainder = remainder.slice(end + 1).trim();
  }
  if (remainder) {
    if (remainder[0] !== ',') return undefined;
    remainder = remainder.slice(1).trim();
  }
  return { warning: { code: Number(code), agent, text: quoted.text }, remainder };
}

function parseQuotedString(input: string): { text: string; remainder: string } | undefined {
  if (input[0] !== '"') return undefined;
  let text = '';
  let escaping = false;
  for (let i = 1; i < input.length; i++) {
    const c = input[i];
    if (c === '"' && !escaping) return { text, remainder: input.slice(i + 1).trim() };
    if (c === '\\' && !escaping) {
      escaping = true;
      continue;
    }
    text += c;
    escaping = false;
  }
  return undefined;
}

function hasControl(text: string): boolean {
  // Go's unicode.IsControl: C0 and C1.
  return /[\u0000-\u001f\u007f-\u009f]/.test(text);
}
