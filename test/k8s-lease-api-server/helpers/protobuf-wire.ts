// A tiny protobuf wire encoder and decoder for tests, written from the wire format (tag = field << 3 | wire
// type, base-128 varints, length-delimited bytes) and the field numbers of k8s.io/api and k8s.io/apimachinery's
// generated.proto — deliberately independent of the server's schema module, so a wrong number or rule there
// cannot make both sides agree.

const MAGIC = [0x6b, 0x38, 0x73, 0x00];

/** A varint of a non-negative or negative (two's complement, ten bytes) 64-bit integer. */
export function varint(value: number | bigint): Uint8Array {
  let v = BigInt.asUintN(64, BigInt(value));
  const out: number[] = [];
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return Uint8Array.from(out);
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const key = (field: number, wire: number): Uint8Array => varint((field << 3) | wire);

/** A length-delimited field (wire type 2). */
export function bytes(field: number, payload: Uint8Array): Uint8Array {
  return concat(key(field, 2), varint(payload.length), payload);
}

export function str(field: number, value: string): Uint8Array {
  return bytes(field, new TextEncoder().encode(value));
}

/** A varint field (wire type 0): int32, int64 and bool. */
export function int(field: number, value: number | bigint | boolean): Uint8Array {
  return concat(key(field, 0), varint(typeof value === 'boolean' ? (value ? 1 : 0) : value));
}

export function msg(field: number, ...parts: Uint8Array[]): Uint8Array {
  return bytes(field, concat(...parts));
}

/** "k8s\0" + runtime.Unknown{typeMeta{apiVersion=1, kind=2}=1, raw=2, contentEncoding=3, contentType=4}. */
export function envelope(apiVersion: string, kind: string, raw: Uint8Array): Uint8Array {
  return concat(
    Uint8Array.from(MAGIC),
    msg(1, str(1, apiVersion), str(2, kind)),
    bytes(2, raw),
    str(3, ''),
    str(4, ''),
  );
}

export interface WireField {
  field: number;
  wire: number;
  /** Varint fields: the value as uint64. */
  value?: bigint;
  /** Length-delimited fields: the bytes. */
  bytes?: Uint8Array;
}

function readVarint(buf: Uint8Array, pos: number): [bigint, number] {
  let result = 0n;
  let shift = 0n;
  let i = pos;
  for (;;) {
    const b = buf[i];
    if (b === undefined) throw new Error('truncated varint');
    i++;
    result |= BigInt(b & 0x7f) << shift;
    if (b < 0x80) return [result, i];
    shift += 7n;
  }
}

/** The fields of one message in order (only wire types 0 and 2, all this API uses). */
export function fieldsOf(buf: Uint8Array): WireField[] {
  const out: WireField[] = [];
  let i = 0;
  while (i < buf.length) {
    const [tag, next] = readVarint(buf, i);
    const field = Number(tag >> 3n);
    const wire = Number(tag & 7n);
    if (wire === 0) {
      const [value, after] = readVarint(buf, next);
      out.push({ field, wire, value });
      i = after;
    } else if (wire === 2) {
      const [length, start] = readVarint(buf, next);
      const end = start + Number(length);
      if (end > buf.length) throw new Error('length past the end');
      out.push({ field, wire, bytes: buf.subarray(start, end) });
      i = end;
    } else throw new Error(`unexpected wire type ${wire}`);
  }
  return out;
}

/** The field numbers of a message in the order they were written. */
export const order = (buf: Uint8Array): number[] => fieldsOf(buf).map((f) => f.field);

export function sub(buf: Uint8Array, field: number): Uint8Array | undefined {
  return fieldsOf(buf).findLast((f) => f.field === field)?.bytes;
}

export function subs(buf: Uint8Array, field: number): Uint8Array[] {
  return fieldsOf(buf)
    .filter((f) => f.field === field)
    .map((f) => f.bytes ?? new Uint8Array(0));
}

export function text(buf: Uint8Array, field: number): string | undefined {
  const b = sub(buf, field);
  return b === undefined ? undefined : new TextDecoder().decode(b);
}

/** A varint field as a signed 64-bit number (int32 fields are sign-extended on the wire). */
export function num(buf: Uint8Array, field: number): number | undefined {
  const v = fieldsOf(buf).findLast((f) => f.field === field)?.value;
  return v === undefined ? undefined : Number(BigInt.asIntN(64, v));
}

export interface Opened {
  apiVersion: string | undefined;
  kind: string | undefined;
  raw: Uint8Array;
  /** Field numbers of the envelope in order (1, 2, 3, 4 as Unknown.NestedMarshalTo writes them). */
  order: number[];
}

export function openEnvelope(body: Uint8Array): Opened {
  if (MAGIC.some((b, i) => body[i] !== b)) throw new Error('no k8s protobuf magic');
  const unknown = body.subarray(4);
  const typeMeta = sub(unknown, 1) ?? new Uint8Array(0);
  return {
    apiVersion: text(typeMeta, 1),
    kind: text(typeMeta, 2),
    raw: sub(unknown, 2) ?? new Uint8Array(0),
    order: order(unknown),
  };
}

/** A LengthDelimitedFramer stream: 4-byte big-endian length, then that many bytes. */
export function frames(stream: Uint8Array): { frames: Uint8Array[]; rest: Uint8Array } {
  const out: Uint8Array[] = [];
  let i = 0;
  while (i + 4 <= stream.length) {
    const length =
      ((stream[i] ?? 0) << 24) | ((stream[i + 1] ?? 0) << 16) | ((stream[i + 2] ?? 0) << 8) | (stream[i + 3] ?? 0);
    if (i + 4 + length > stream.length) break;
    out.push(stream.subarray(i + 4, i + 4 + length));
    i += 4 + length;
  }
  return { frames: out, rest: stream.subarray(i) };
}

/** meta.v1.Time/MicroTime as a Timestamp {seconds = 1, nanos = 2}, both always written. */
export function timestamp(field: number, seconds: number, nanos: number): Uint8Array {
  return msg(field, int(1, seconds), int(2, nanos));
}

/** The Unix seconds and nanos of a Timestamp message. */
export function readTimestamp(buf: Uint8Array | undefined): { seconds: number; nanos: number } | undefined {
  if (buf === undefined) return undefined;
  return { seconds: num(buf, 1) ?? 0, nanos: num(buf, 2) ?? 0 };
}

/** A meta.v1.Status (inside its envelope) with the fields tests look at. */
export function readStatus(body: Uint8Array): {
  apiVersion: string | undefined;
  kind: string | undefined;
  status: string | undefined;
  message: string | undefined;
  reason: string | undefined;
  code: number | undefined;
  details: Uint8Array | undefined;
} {
  const opened = openEnvelope(body);
  return {
    apiVersion: opened.apiVersion,
    kind: opened.kind,
    status: text(opened.raw, 2),
    message: text(opened.raw, 3),
    reason: text(opened.raw, 4),
    details: sub(opened.raw, 5),
    code: num(opened.raw, 6),
  };
}

/** `pattern` n times (for hostile bodies far too long to spread into concat). */
export function repeat(pattern: Uint8Array, n: number): Uint8Array {
  const out = new Uint8Array(pattern.length * n);
  for (let i = 0; i < n; i++) out.set(pattern, i * pattern.length);
  return out;
}
