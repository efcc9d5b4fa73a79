import { describe, expect, it } from 'vitest';
import { encodeMessage } from '../../../templates/k8s-lease-api-server/src/protobuf/encode.js';
import { bytes, concat, int, msg, str, sub } from '../helpers/protobuf-wire.js';

const EMPTY = new Uint8Array(0);

describe('encodeMessage', () => {
  it('writes what the independent decoder reads: value fields always, pointers only when set, maps sorted by bytes', () => {
    const raw = encodeMessage('Lease', {
      metadata: { name: 'n', labels: { b: '2', a: '1', '\u{1f600}': 'x', '\uffff': 'y' } },
      spec: { holderIdentity: 'h', leaseDurationSeconds: -1 },
    });
    const meta = sub(raw, 1) ?? EMPTY;
    // name..generation and creationTimestamp (empty: the zero Time) are Go values; labels come sorted by UTF-8 bytes.
    expect(Buffer.from(meta).toString('hex')).toBe(
      Buffer.from(
        concat(
          str(1, 'n'),
          str(2, ''),
          str(3, ''),
          str(4, ''),
          str(5, ''),
          str(6, ''),
          int(7, 0),
          bytes(8, EMPTY),
          msg(11, str(1, 'a'), str(2, '1')),
          msg(11, str(1, 'b'), str(2, '2')),
          msg(11, str(1, '\uffff'), str(2, 'y')),
          msg(11, str(1, '\u{1f600}'), str(2, 'x')),
        ),
      ).toString('hex'),
    );
    // int32 -1 is sign-extended to ten bytes, as gogo's encodeVarintGenerated(uint64(v)).
    expect(Buffer.from(sub(raw, 2) ?? EMPTY).toString('hex')).toBe(
      Buffer.from(concat(str(1, 'h'), int(2, -1))).toString('hex'),
    );
  });
});
