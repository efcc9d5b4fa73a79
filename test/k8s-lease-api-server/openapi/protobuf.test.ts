// The protobuf writer of the /openapi/v2 document (gnostic openapi_v2.proto messages): strings and nested
// messages length-delimited (wire type 2), bools and int64 as varints (wire type 0), doubles as fixed64 (wire
// type 1, little-endian IEEE 754), fields in the order given.
import { describe, expect, it } from 'vitest';
import { encodeMessage } from '../../../templates/k8s-lease-api-server/src/openapi/protobuf.js';

const hex = (buf: Uint8Array): string => Buffer.from(buf).toString('hex');

describe('encodeMessage', () => {
  it.each<[string, Parameters<typeof encodeMessage>[0], string]>([
    ['a string', [{ field: 1, value: 'hi' }], '0a026869'],
    ['true', [{ field: 2, value: true }], '1001'],
    ['an int64 of 150', [{ field: 3, value: { int: 150 } }], '189601'],
    ['a negative int64, ten bytes', [{ field: 3, value: { int: -1 } }], '18ffffffffffffffffff01'],
    ['a double', [{ field: 4, value: { double: 1.5 } }], '21000000000000f83f'],
    ['a nested message', [{ field: 5, value: [{ field: 1, value: 'a' }] }], '2a030a0161'],
    ['an empty nested message', [{ field: 5, value: [] }], '2a00'],
    [
      'fields in the order given',
      [
        { field: 2, value: false },
        { field: 1, value: '' },
      ],
      '10000a00',
    ],
  ])('writes %s', (_what, fields, expected) => {
    expect(hex(encodeMessage(fields))).toBe(expected);
  });
});
