// Reading the protobuf wire format the way gogo-protobuf's generated Unmarshal methods (which kube-apiserver
// runs on every protobuf body) read it, so that what is accepted, what is refused and the error texts match:
// varints of at most ten bytes ("proto: integer overflow"), lengths checked against the enclosing message
// ("unexpected EOF", "proto: negative length found during unmarshaling"), unknown fields skipped by
// skipGenerated's loop, which walks groups with a depth counter instead of recursion (so no input nests the
// stack). Hand-written because those rules and texts are Kubernetes behaviour no protobuf library reproduces.

export const UNEXPECTED_EOF = 'unexpected EOF';
export const INTEGER_OVERFLOW = 'proto: integer overflow';
export const NEGATIVE_LENGTH = 'proto: negative length found during unmarshaling';
const END_OF_GROUP = 'proto: unexpected end of group';

/** A decode failure carrying Go's error text. */
export class WireError {
  constructor(readonly message: string) {}
}

/** A varint as Go's uint64: low and high 32 bits (both unsigned), and the position after it. */
export interface Varint {
  lo: number;
  hi: number;
  next: number;
}

const TWO_32 = 2 ** 32;
/** Go's int is 64 bits: a length plus its position past this is negative. */
const INT64_MAX = 2 ** 63 - 1;

/** Reads a varint at pos, bounded by end, as gogo's loops do (bits past 64 are dropped; an 11th byte overflows). */
export function readVarint(buf: Uint8Array, pos: number, end: number): Varint {
  let lo = 0;
  let hi = 0;
  let i = pos;
  for (let shift = 0; ; shift += 7) {
    if (shift >= 64) throw new WireError(INTEGER_OVERFLOW);
    if (i >= end) throw new WireError(UNEXPECTED_EOF);
    const b = buf[i] ?? 0;
    i++;
    const bits = b & 0x7f;
    if (shift < 32) {
      lo = (lo | (bits << shift)) >>> 0;
      if (shift > 25) hi = (hi | (bits >>> (32 - shift))) >>> 0;
    } else {
      hi = (hi | (bits << (shift - 32))) >>> 0;
    }
    if (b < 0x80) return { lo, hi, next: i };
  }
}

/** The varint as Go's uint64 in decimal (tags in error texts). */
export function uint64Text(v: Varint): string {
  return v.hi === 0 ? String(v.lo) : ((BigInt(v.hi) << 32n) | BigInt(v.lo)).toString();
}

/** int32(v): the low 32 bits, signed. */
export function int32Of(v: Varint): number {
  return v.lo | 0;
}

/** int64(v) when it is a safe JS integer, else its exact decimal text. */
export function int64Of(v: Varint): number | string {
  const hi = v.hi | 0;
  if (hi >= -(2 ** 21) && hi < 2 ** 21) return hi * TWO_32 + v.lo;
  return BigInt.asIntN(64, (BigInt(v.hi) << 32n) | BigInt(v.lo)).toString();
}

/**
 * A length prefix at pos: the [start, end) of the bytes it announces, checked against `limit` (the end of
 * the enclosing message) exactly as gogo checks msglen/postIndex.
 */
export function readLength(buf: Uint8Array, pos: number, limit: number): { start: number; end: number } {
  const v = readVarint(buf, pos, limit);
  if (v.hi >= 0x80000000) throw new WireError(NEGATIVE_LENGTH);
  const length = v.hi * TWO_32 + v.lo;
  if (length > INT64_MAX - v.next) throw new WireError(NEGATIVE_LENGTH);
  const end = v.next + length;
  if (end > limit) throw new WireError(UNEXPECTED_EOF);
  return { start: v.next, end };
}

/** A field's tag: Go's fieldNum (int32(wire >> 3)), wire type and the whole tag (error texts print it). */
export interface Tag {
  field: number;
  wireType: number;
  tag: Varint;
}

export function readTag(buf: Uint8Array, pos: number, end: number): Tag {
  const tag = readVarint(buf, pos, end);
  return { field: (tag.lo >>> 3) | (tag.hi << 29) | 0, wireType: tag.lo & 7, tag };
}

/**
 * skipGenerated: the length of the unknown field starting at pos (its tag included), reading at most to end.
 * Groups (wire types 3 and 4) are tracked with a depth counter, so nesting costs no stack.
 */
export function skipField(buf: Uint8Array, pos: number, end: number): number {
  let i = pos;
  let depth = 0;
  while (i < end) {
    const tag = readVarint(buf, i, end);
    i = tag.next;
    const wireType = tag.lo & 7;
    switch (wireType) {
      case 0:
        i = readVarint(buf, i, end).next;
        break;
      case 1:
        i += 8;
        break;
      case 2: {
        const v = readVarint(buf, i, end);
        if (v.hi >= 0x80000000) throw new WireError(NEGATIVE_LENGTH);
        i = v.next + v.hi * TWO_32 + v.lo;
        break;
      }
      case 3:
        depth++;
        break;
      case 4:
        if (depth === 0) throw new WireError(END_OF_GROUP);
        depth--;
        break;
      case 5:
        i += 4;
        break;
      default:
        throw new WireError(`proto: illegal wireType ${wireType}`);
    }
    if (i > INT64_MAX) throw new WireError(NEGATIVE_LENGTH);
    if (depth === 0) return i - pos;
  }
  throw new WireError(UNEXPECTED_EOF);
}

/**
 * Walks the fields of one message in [start, end) as a generated Unmarshal does: end-group and field 0 are
 * refused with the message's name, each known field goes to `onField`, which returns the position after
 * it; unknown fields are skipped.
 */
export function forEachField(
  buf: Uint8Array,
  start: number,
  end: number,
  messageName: string,
  isKnown: (field: number) => boolean,
  onField: (tag: Tag, pos: number) => number,
): void {
  let i = start;
  while (i < end) {
    const pre = i;
    const tag = readTag(buf, i, end);
    if (tag.wireType === 4) throw new WireError(`proto: ${messageName}: wiretype end group for non-group`);
    if (tag.field <= 0)
      throw new WireError(`proto: ${messageName}: illegal tag ${tag.field} (wire type ${uint64Text(tag.tag)})`);
    if (isKnown(tag.field)) {
      i = onField(tag, tag.tag.next);
      continue;
    }
    const skipped = skipField(buf, pre, end);
    if (pre + skipped > end) throw new WireError(UNEXPECTED_EOF);
    i = pre + skipped;
  }
}

/** The wire type a field of this kind must arrive with: 0 for varints, 2 for everything length-delimited. */
export function wrongWireType(wireType: number, goField: string): WireError {
  return new WireError(`proto: wrong wireType = ${wireType} for field ${goField}`);
}
