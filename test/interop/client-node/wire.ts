/**
 * Normalises a recorded HTTP request into the parts the differential test
 * compares, and lists the differences between two of them field by field.
 *
 * Compared: method, raw path, query (decoded, as a multiset of key/value
 * pairs, so order does not matter), the raw percent-encoding of each query
 * value whose decoded value agrees, Content-Type, and the body (parsed JSON,
 * diffed leaf by leaf).
 *
 * Not compared, on purpose: Accept, User-Agent, Host, Connection and
 * Content-Length. They differ by transport (undici fetch vs node-fetch) and by
 * client-node's `Accept: application/json, *\/*;q=0.8`, and none of them
 * changes what the API server does with the request.
 */
import type { RecordedRequest } from './plausible-api-server.js';

/** Shown for a header, query key, body or body member that one side does not send. */
export const ABSENT = '(absent)';

export interface WireDifference {
  /** `method`, `path`, `content-type`, `query.<key>`, `query.<key> (raw encoding)`, `body` or `body.<json path>`. */
  field: string;
  ours: string;
  theirs: string;
}

export interface WireRequest {
  method: string;
  path: string;
  rawQuery: string;
  /** Decoded query, key → values in the order sent. */
  query: Map<string, string[]>;
  /** key → raw (still percent-encoded) values in the order sent. */
  rawQueryValues: Map<string, string[]>;
  /** Query keys in the order sent (first occurrence). */
  queryOrder: string[];
  contentType: string;
  rawBody: string;
}

export function toWire(request: RecordedRequest): WireRequest {
  const queryStart = request.url.indexOf('?');
  const path = queryStart === -1 ? request.url : request.url.slice(0, queryStart);
  const rawQuery = queryStart === -1 ? '' : request.url.slice(queryStart + 1);
  const query = new Map<string, string[]>();
  const rawQueryValues = new Map<string, string[]>();
  const queryOrder: string[] = [];
  // URLSearchParams decodes `+` as a space, as Go's url.ParseQuery on the API server does.
  for (const [key, value] of new URLSearchParams(rawQuery)) {
    if (!query.has(key)) queryOrder.push(key);
    query.set(key, [...(query.get(key) ?? []), value]);
  }
  for (const token of rawQuery === '' ? [] : rawQuery.split('&')) {
    const eq = token.indexOf('=');
    const rawKey = eq === -1 ? token : token.slice(0, eq);
    const key = new URLSearchParams(`${rawKey}=`).keys().next().value ?? rawKey;
    rawQueryValues.set(key, [...(rawQueryValues.get(key) ?? []), eq === -1 ? '' : token.slice(eq + 1)]);
  }
  const contentType = request.headers['content-type'];
  return {
    method: request.method,
    path,
    rawQuery,
    query,
    rawQueryValues,
    queryOrder,
    contentType: contentType ?? ABSENT,
    rawBody: request.body,
  };
}

export function compareWire(ours: WireRequest, theirs: WireRequest): WireDifference[] {
  const differences: WireDifference[] = [];
  const add = (field: string, a: string, b: string): void => {
    if (a !== b) differences.push({ field, ours: a, theirs: b });
  };
  add('method', ours.method, theirs.method);
  add('path', ours.path, theirs.path);
  for (const key of [...new Set([...ours.query.keys(), ...theirs.query.keys()])].sort()) {
    const a = ours.query.get(key);
    const b = theirs.query.get(key);
    const decodedA = showValues(a);
    const decodedB = showValues(b);
    if (decodedA !== decodedB) {
      add(`query.${key}`, decodedA, decodedB);
    } else {
      add(
        `query.${key} (raw encoding)`,
        showValues(ours.rawQueryValues.get(key)),
        showValues(theirs.rawQueryValues.get(key)),
      );
    }
  }
  add('content-type', ours.contentType, theirs.contentType);
  diffBodies(ours.rawBody, theirs.rawBody, differences);
  return differences;
}

/** Whether the query keys were sent in a different order (allowed; only reported). */
export function queryOrderDiffers(ours: WireRequest, theirs: WireRequest): boolean {
  return ours.queryOrder.join('&') !== theirs.queryOrder.join('&');
}

function showValues(values: readonly string[] | undefined): string {
  if (values === undefined) return ABSENT;
  // A multiset: sorted, so that repeated keys sent in another order still compare equal.
  return values.length === 1 ? (values[0] ?? '') : JSON.stringify([...values].sort());
}

type Parsed = { ok: true; value: unknown } | { ok: false };

function parseJson(text: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

function diffBodies(ours: string, theirs: string, out: WireDifference[]): void {
  if (ours === '' || theirs === '') {
    if (ours !== theirs)
      out.push({ field: 'body', ours: ours === '' ? ABSENT : ours, theirs: theirs === '' ? ABSENT : theirs });
    return;
  }
  const a = parseJson(ours);
  const b = parseJson(theirs);
  if (!a.ok || !b.ok) {
    if (ours !== theirs) out.push({ field: 'body (not JSON)', ours, theirs });
    return;
  }
  diffValues('body', a.value, b.value, out);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function diffValues(path: string, a: unknown, b: unknown, out: WireDifference[]): void {
  if (isRecord(a) && isRecord(b)) {
    for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      const member = /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
      if (!(key in a) || !(key in b)) {
        out.push({
          field: member,
          ours: key in a ? JSON.stringify(a[key]) : ABSENT,
          theirs: key in b ? JSON.stringify(b[key]) : ABSENT,
        });
      } else {
        diffValues(member, a[key], b[key], out);
      }
    }
    return;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    for (const [index, item] of a.entries()) diffValues(`${path}[${index}]`, item, b[index], out);
    return;
  }
  const shownA = JSON.stringify(a);
  const shownB = JSON.stringify(b);
  if (shownA !== shownB) out.push({ field: path, ours: shownA, theirs: shownB });
}
