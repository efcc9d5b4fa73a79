import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../templates/k8s-lease-api-server/src/json.js';
import { decodeMessage } from '../../../templates/k8s-lease-api-server/src/protobuf/decode.js';
import { concat, int, msg, repeat, str, timestamp, varint } from '../helpers/protobuf-wire.js';

describe('decodeMessage', () => {
  it('reads Time at whole seconds and MicroTime truncated to microseconds, normalising nanos as time.Unix', () => {
    const raw = concat(
      msg(1, timestamp(8, 1700000000, 999999999)),
      msg(2, timestamp(3, 1700000000, 1999), timestamp(4, 1700000000, -1)),
    );
    const decoded = decodeMessage(raw, 'Lease');
    expect(decoded.ok && decoded.value.value).toEqual({
      metadata: { creationTimestamp: '2023-11-14T22:13:20Z' },
      spec: { acquireTime: '2023-11-14T22:13:20.000001Z', renewTime: '2023-11-14T22:13:20.000000Z' },
    });
    const negative = decodeMessage(concat(msg(2, timestamp(3, 1700000000, -1001))), 'Lease');
    expect(negative.ok && negative.value.value['spec']).toEqual({
      renewTime: undefined,
      acquireTime: '2023-11-14T22:13:19.999999Z',
    });
  });

  it('keeps int64 values beyond 2^53 exact beside the number, and int32 as Go truncates it', () => {
    const decoded = decodeMessage(concat(msg(1, int(7, 2n ** 53n + 1n)), msg(2, int(2, 2n ** 32n + 7n))), 'Lease');
    expect(decoded.ok && decoded.value.numbers).toEqual(new Map([['metadata.generation', '9007199254740993']]));
    expect(decoded.ok && (decoded.value.value['spec'] as JsonObject)['leaseDurationSeconds']).toBe(7);
  });

  it.each([
    ['a truncated tag varint', concat(msg(2, Uint8Array.of(0x88))), 'unexpected EOF'],
    [
      'a varint of eleven bytes',
      concat(msg(2, Uint8Array.of(0x10, ...new Array(10).fill(0xff), 0x01))),
      'proto: integer overflow',
    ],
    ['a length past the end', concat(Uint8Array.of(0x0a), varint(1000), str(1, 'x')), 'unexpected EOF'],
    ['a negative length', concat(Uint8Array.of(0x0a), varint(-5n)), 'proto: negative length found during unmarshaling'],
    ['field 0', Uint8Array.of(0x00), 'proto: Lease: illegal tag 0 (wire type 0)'],
    ['an end group', Uint8Array.of(0x0c), 'proto: Lease: wiretype end group for non-group'],
    ['a string sent as a varint', msg(2, int(1, 5)), 'proto: wrong wireType = 0 for field HolderIdentity'],
    ['an illegal wire type in an unknown field', Uint8Array.of(0xfe, 0x01), 'proto: illegal wireType 6'],
    [
      'a stray end of group in an unknown field',
      msg(1, Uint8Array.of(0xfc, 0x01)),
      'proto: ObjectMeta: wiretype end group for non-group',
    ],
    ['an unclosed group', repeat(Uint8Array.of(0xfb, 0x01), 1_000_000), 'unexpected EOF'],
  ])('refuses %s with gogo text', (_what, raw, message) => {
    expect(decodeMessage(raw, 'Lease')).toEqual({ ok: false, error: message });
  });

  it('skips unknown fields however deep their groups nest, without recursion', () => {
    const depth = 200_000;
    const nested = concat(repeat(Uint8Array.of(0xfb, 0x01), depth), repeat(Uint8Array.of(0xfc, 0x01), depth));
    const decoded = decodeMessage(concat(nested, msg(2, str(1, 'kept'))), 'Lease');
    expect(decoded.ok && decoded.value.value['spec']).toEqual({ holderIdentity: 'kept' });
  });
});
