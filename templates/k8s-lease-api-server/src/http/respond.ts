// Writing responses: JSON text (or a negotiated YAML or protobuf body) with the headers the real API server sends.
import type { ServerResponse } from 'node:http';
import type { JsonObject } from '../json.js';
import type { StatusError } from '../status.js';
import { statusObject } from '../status.js';
import { sendGzipped, shouldGzip } from './compression.js';
import type { Representation } from './negotiation.js';
import { CONTENT_TYPES, DEFAULT_ENDPOINT, negotiateOutput, notAcceptableError } from './negotiation.js';
import type { ObjectType } from './protobuf-hook.js';
import { protobufCodec } from './protobuf-hook.js';
import { yamlFromJson } from './yaml-output.js';

export function sendJsonText(
  res: ServerResponse,
  code: number,
  json: string,
  headers: Record<string, string | string[]> = {},
): void {
  sendBody(res, code, 'application/json', Buffer.from(json, 'utf8'), headers);
}

/** A complete response body of the given media type. */
export function sendBody(
  res: ServerResponse,
  code: number,
  type: string,
  body: Buffer,
  headers: Record<string, string | string[]> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  const gzip = shouldGzip(res, body.length);
  const base = {
    'Content-Type': type,
    ...(gzip ? {} : { 'Content-Length': body.length }),
    'Cache-Control': 'no-cache, private',
  };
  try {
    if (gzip) return sendGzipped(res, code, { ...base, ...headers }, body);
    res.writeHead(code, { ...base, ...headers });
  } catch {
    // The response may follow a committed write: an extra header Node refuses must not turn it into a 500.
    for (const name of Object.keys(headers)) res.removeHeader(name);
    if (gzip) return sendGzipped(res, code, base, body);
    res.writeHead(code, base);
  }
  res.end(body);
}

/** The encoder's bytes as a Buffer over the same memory (no copy of a large list). */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * A response object two ways: its JSON text (the cached fast path) and, for the protobuf encoder, its
 * value. With `type`, the value is a stored object without kind and apiVersion (so the encoder can reuse
 * the bytes it cached for that very object) and `type` names them.
 */
export interface Payload {
  json(): string;
  value(): JsonObject;
  type?: ObjectType | undefined;
}

export function payloadOf(object: JsonObject): Payload {
  let text: string | undefined;
  return { json: () => (text ??= JSON.stringify(object)), value: () => object };
}

/** The JSON text of an object together with the object itself (stored-shaped when `type` is given). */
export function payloadOfJson(json: string, value: () => JsonObject, type?: ObjectType): Payload {
  return { json: () => json, value, ...(type === undefined ? {} : { type }) };
}

/**
 * Writes an object in the negotiated media type (WriteObjectNegotiated): JSON (indented when pretty),
 * YAML, or protobuf through the registered encoder; a kind that encoder does not know is a 406.
 */
export function sendRepresented(
  res: ServerResponse,
  code: number,
  representation: Pick<Representation, 'mediaType' | 'pretty'>,
  payload: Payload,
  headers: Record<string, string | string[]> = {},
): void {
  switch (representation.mediaType) {
    case 'json': {
      const json = payload.json();
      // The pretty serializer is json.MarshalIndent(obj, "", "  "), the layout JSON.stringify(…, 2) writes.
      const text = representation.pretty ? JSON.stringify(JSON.parse(json), null, 2) : json;
      return sendJsonText(res, code, text, headers);
    }
    case 'yaml':
      return sendBody(res, code, CONTENT_TYPES.yaml, Buffer.from(yamlFromJson(payload.json()), 'utf8'), headers);
    case 'protobuf': {
      const bytes = protobufCodec()?.encodeObject(payload.value(), payload.type);
      if (bytes === undefined) return sendJsonText(res, 406, JSON.stringify(statusObject(notAcceptableError(false))));
      return sendBody(res, code, CONTENT_TYPES.protobuf, asBuffer(bytes), headers);
    }
  }
}

/** ErrorNegotiated: a Status whose details carry retryAfterSeconds is sent with that Retry-After header. */
function withRetryAfter(
  error: StatusError,
  headers: Record<string, string | string[]>,
): Record<string, string | string[]> {
  const seconds = error.details?.retryAfterSeconds;
  if (seconds === undefined || seconds <= 0 || 'Retry-After' in headers) return headers;
  return { ...headers, 'Retry-After': String(Math.trunc(seconds)) };
}

/**
 * Every failure Status goes out as ErrorNegotiated writes it: in the media type the request negotiates
 * without transformations (DefaultEndpointRestrictions) — so a YAML client gets YAML errors and a protobuf
 * client a protobuf Status — and, when that negotiation fails, as WriteRawJSON writes the original failure
 * (never hidden behind the negotiation problem): json.MarshalIndent with two spaces, the layout
 * JSON.stringify(…, 2) writes. A Status with details.retryAfterSeconds also gets its Retry-After header.
 */
export function sendStatus(
  res: ServerResponse,
  error: StatusError,
  headers: Record<string, string | string[]> = {},
): void {
  const negotiated = negotiateOutput(res.req?.headers.accept, DEFAULT_ENDPOINT);
  const status = statusObject(error);
  const all = withRetryAfter(error, headers);
  if (!negotiated.ok) return sendJsonText(res, error.code, JSON.stringify(status, null, 2), all);
  const json = JSON.stringify(status);
  const mediaType = negotiated.value.mediaType;
  if (mediaType === 'yaml') return sendBody(res, error.code, CONTENT_TYPES.yaml, Buffer.from(yamlFromJson(json)), all);
  const bytes = mediaType === 'protobuf' ? protobufCodec()?.encodeObject(status) : undefined;
  if (bytes !== undefined) return sendBody(res, error.code, CONTENT_TYPES.protobuf, asBuffer(bytes), all);
  sendJsonText(res, error.code, json, all);
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
