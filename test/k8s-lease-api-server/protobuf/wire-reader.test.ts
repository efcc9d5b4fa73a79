// The protobuf wire format as gogo-protobuf's generated Unmarshal methods read it (k8s.io/api generated.pb.go):
// varints of at most ten bytes, length prefixes checked against the enclosing message, unknown fields skipped
// by skipGenerated (groups counted, not recursed), and the error texts kube-apiserver quotes.
import { describe, expect, it } from 'vitest';
import {
  INTEGER_OVERFLOW,
  NEGATIVE_LENGTH,
  type Tag,
  UNEXPECTED_EOF,
  WireError,
  forEachField,
  int32Of,
  int64Of,
  readLength,
  readTag,
  readVarint,
  skipField,
  uint64Text,
  wrongWireType,
} from '../../../templates/k8s-lease-api-server/src/protobuf/wire-reader.js';
import { bytes, concat, int, repeat, str, varint } from '../helpers/protobuf-wire.js';

/** The message of the WireError `read` throws, or 'no error'. */
function failure(read: () => unknown): string {
  try {
    read();
    return 'no error';
  } catch (e) {
    if (e instanceof WireError) return e.message;
    throw e;
  }
}

const whole = (buf: Uint8Array) => readVarint(buf, 0, buf.length);

describe('readVarint', () => {
  it.each<[number | bigint, string]>([
    [0, '0'],
    [150, '150'],
    [2 ** 32, '4294967296'],
    [2n ** 53n + 1n, '9007199254740993'],
    [2n ** 64n - 1n, '18446744073709551615'],
  ])('reads %s as the uint64 %s', (value, text) => {
    const encoded = varint(value);
    const read = whole(encoded);
    expect(uint64Text(read)).toBe(text);
    expect(read.next).toBe(encoded.length);
  });

  it('reads 150 from the bytes 96 01 of the protobuf encoding guide', () => {
    expect(whole(Uint8Array.of(0x96, 0x01))).toEqual({ lo: 150, hi: 0, next: 2 });
  });

  it('refuses an eleventh byte and a varint cut short', () => {
    expect(failure(() => whole(Uint8Array.of(...new Array(10).fill(0xff), 0x01)))).toBe(INTEGER_OVERFLOW);
    expect(failure(() => whole(Uint8Array.of(0x80, 0x80)))).toBe(UNEXPECTED_EOF);
    expect(failure(() => readVarint(Uint8Array.of(0x96, 0x01), 0, 1))).toBe(UNEXPECTED_EOF);
  });

  it('converts as Go does: int32 keeps the low 32 bits, int64 is exact past 2^53', () => {
    expect(int32Of(whole(varint(-1)))).toBe(-1);
    expect(int32Of(whole(varint(2n ** 32n + 7n)))).toBe(7);
    expect(int32Of(whole(varint(2 ** 31)))).toBe(-(2 ** 31));
    expect(int64Of(whole(varint(-1)))).toBe(-1);
    expect(int64Of(whole(varint(2 ** 40)))).toBe(2 ** 40);
    expect(int64Of(whole(varint(2n ** 53n + 1n)))).toBe('9007199254740993');
    expect(int64Of(whole(varint(-(2n ** 63n))))).toBe('-9223372036854775808');
  });
});

describe('readLength', () => {
  it('returns the bytes a length prefix announces', () => {
    const buf = concat(varint(3), Uint8Array.of(1, 2, 3), Uint8Array.of(9));
    expect(readLength(buf, 0, buf.length)).toEqual({ start: 1, end: 4 });
  });

  it('refuses a length past the enclosing message and a negative one', () => {
    const buf = concat(varint(3), Uint8Array.of(1, 2, 3));
    expect(failure(() => readLength(buf, 0, 3))).toBe(UNEXPECTED_EOF);
    expect(failure(() => readLength(varint(-5), 0, 10))).toBe(NEGATIVE_LENGTH);
  });
});

describe('readTag', () => {
  it('splits field number and wire type', () => {
    expect(readTag(Uint8Array.of(0x0a), 0, 1)).toMatchObject({ field: 1, wireType: 2 });
    expect(readTag(varint((1000 << 3) | 5), 0, 2)).toMatchObject({ field: 1000, wireType: 5 });
  });
});

describe('skipField (skipGenerated)', () => {
  it.each<[string, Uint8Array, number]>([
    ['a varint field', int(9, 300), 3],
    ['a fixed64 field', concat(varint((9 << 3) | 1), new Uint8Array(8)), 9],
    ['a fixed32 field', concat(varint((9 << 3) | 5), new Uint8Array(4)), 5],
    ['a length-delimited field', str(9, 'abc'), 5],
    ['a group with a field inside', concat(varint((9 << 3) | 3), int(1, 1), varint((9 << 3) | 4)), 4],
  ])('measures %s', (_what, field, length) => {
    const buf = concat(field, str(1, 'next'));
    expect(skipField(buf, 0, buf.length)).toBe(length);
  });

  it('walks groups nested far past the call stack', () => {
    const depth = 100_000;
    const buf = concat(repeat(Uint8Array.of(0xfb, 0x01), depth), repeat(Uint8Array.of(0xfc, 0x01), depth));
    expect(skipField(buf, 0, buf.length)).toBe(buf.length);
  });

  it.each<[string, Uint8Array, string]>([
    ['a stray end of group', Uint8Array.of(0xfc, 0x01), 'proto: unexpected end of group'],
    ['wire type 6', Uint8Array.of(0xfe, 0x01), 'proto: illegal wireType 6'],
    ['an unclosed group', Uint8Array.of(0xfb, 0x01), UNEXPECTED_EOF],
    ['a negative length', concat(varint((9 << 3) | 2), varint(-1)), NEGATIVE_LENGTH],
  ])('refuses %s', (_what, buf, message) => {
    expect(failure(() => skipField(buf, 0, buf.length))).toBe(message);
  });
});

describe('forEachField', () => {
  it('hands known fields to the caller and skips unknown ones', () => {
    const buf = concat(str(1, 'a'), int(7, 5), bytes(2, Uint8Array.of(0xff)), str(1, 'b'));
    const seen: number[] = [];
    forEachField(
      buf,
      0,
      buf.length,
      'Lease',
      (field) => field === 1,
      (tag: Tag, pos: number) => {
        seen.push(tag.field);
        return readLength(buf, pos, buf.length).end;
      },
    );
    expect(seen).toEqual([1, 1]);
  });

  it.each<[string, Uint8Array, string]>([
    ['an end of group', Uint8Array.of(0x0c), 'proto: Lease: wiretype end group for non-group'],
    ['field 0', Uint8Array.of(0x00), 'proto: Lease: illegal tag 0 (wire type 0)'],
    ['an unknown field cut short', concat(varint((9 << 3) | 2), varint(10), Uint8Array.of(1)), UNEXPECTED_EOF],
  ])('refuses %s with the message name', (_what, buf, message) => {
    expect(
      failure(() =>
        forEachField(
          buf,
          0,
          buf.length,
          'Lease',
          () => false,
          () => buf.length,
        ),
      ),
    ).toBe(message);
  });

  it('words a field of the wrong wire type as gogo does', () => {
    expect(wrongWireType(0, 'HolderIdentity').message).toBe('proto: wrong wireType = 0 for field HolderIdentity');
  });
});
