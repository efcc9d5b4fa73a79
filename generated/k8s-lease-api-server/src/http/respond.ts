// Copied by lease-api-generator from templates/server/http/respond.ts. DO NOT EDIT: edit that file and run `npm run generate`.
// Writing responses: JSON text (or protobuf bytes) with the headers the real API server sends.
import type { ServerResponse } from 'node:http';
import { PROTOBUF_CONTENT_TYPE, protobufOutput } from '../protobuf/media.js';
import { encodeStatus } from '../protobuf/objects.js';
import type { StatusError } from '../status.js';
import { statusObject } from '../status.js';

export function sendJsonText(
  res: ServerResponse,
  code: number,
  json: string,
  headers: Record<string, string | string[]> = {},
): void {
  sendBytes(res, code, Buffer.from(json, 'utf8'), 'application/json', headers);
}

export function sendBytes(
  res: ServerResponse,
  code: number,
  body: Buffer,
  contentType: string,
  headers: Record<string, string | string[]> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  const base = {
    'Content-Type': contentType,
    'Content-Length': body.length,
    'Cache-Control': 'no-cache, private',
  };
  try {
    res.writeHead(code, { ...base, ...headers });
  } catch {
    // The response may follow a committed write: an extra header Node refuses must not turn it into a 500.
    for (const name of Object.keys(headers)) res.removeHeader(name);
    res.writeHead(code, base);
  }
  res.end(body);
}

export function sendStatus(
  res: ServerResponse,
  error: StatusError,
  headers: Record<string, string | string[]> = {},
): void {
  // Errors are negotiated like any answer (responsewriters.ErrorNegotiated): protobuf clients get a protobuf Status.
  if (protobufOutput(res.req?.headers.accept) !== undefined)
    return sendBytes(res, error.code, encodeStatus(statusObject(error)), PROTOBUF_CONTENT_TYPE, headers);
  sendJsonText(res, error.code, JSON.stringify(statusObject(error)), headers);
}

// k8s.io/apiserver/pkg/endpoints/filters/warning.go: truncateAtTotalRunes, truncateItemRunes.
export const WARNING_TOTAL_RUNES: number = 4 * 1024;
export const WARNING_ITEM_RUNES = 256;

/** Go's unicode.IsControl: C0, DEL and C1. */
function hasControl(text: string): boolean {
  return /[\u0000-\u001f\u007f-\u009f]/.test(text);
}

/**
 * apimachinery's net.NewWarningHeader: `299 - "text"` with only `"` and `\` escaped; text that is not
 * valid UTF-8 or holds control characters is refused (the recorder then drops that warning).
 */
export function warningHeaderValue(text: string): string | undefined {
  // A lone surrogate is what invalid UTF-8 becomes in a JS string (in a `u` regex, pairs never match).
  if (/[\ud800-\udfff]/u.test(text) || hasControl(text)) return undefined;
  return `299 - "${text.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

/**
 * Go writes header values as raw bytes, so non-ASCII text reaches clients as UTF-8. Node only takes
 * Latin-1 strings for headers (and throws otherwise), so the UTF-8 bytes travel as one Latin-1 char each.
 */
function asHeaderBytes(value: string): string {
  return Buffer.from(value, 'utf8').toString('latin1');
}

/**
 * Warning headers as kube-apiserver's warning recorder emits them: deduplicated, each text escaped,
 * and once the texts pass 4096 runes in total, every text truncated to 256 runes and the rest dropped.
 */
export function warningHeaders(warnings: string[]): Record<string, string[]> {
  const unique = [...new Set(warnings.filter((w) => w !== '' && warningHeaderValue(w) !== undefined))];
  const runes = (text: string): number => [...text].length;
  const fits = unique.reduce((total, w) => total + runes(w), 0) <= WARNING_TOTAL_RUNES;
  const values: string[] = [];
  let written = 0;
  for (const warning of unique) {
    if (!fits && written >= WARNING_TOTAL_RUNES) break;
    const text = fits ? warning : [...warning].slice(0, WARNING_ITEM_RUNES).join('');
    const value = warningHeaderValue(text);
    if (value === undefined) continue;
    written += runes(text);
    values.push(asHeaderBytes(value));
  }
  return values.length === 0 ? {} : { Warning: values };
}
