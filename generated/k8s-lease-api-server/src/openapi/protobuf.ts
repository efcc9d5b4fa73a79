// A minimal protocol-buffers writer: enough wire format to encode a gnostic OpenAPI v2 document.
export type ProtoField = { field: number; value: string | boolean | ProtoField[] };

function varint(value: number): number[] {
  const bytes: number[] = [];
  let n = value;
  while (n > 0x7f) {
    bytes.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  bytes.push(n);
  return bytes;
}

export function encodeMessage(fields: ProtoField[]): Buffer {
  const parts: Buffer[] = [];
  for (const { field, value } of fields) {
    if (typeof value === 'boolean') {
      parts.push(Buffer.from([...varint(field << 3), value ? 1 : 0]));
      continue;
    }
    const payload = typeof value === 'string' ? Buffer.from(value, 'utf8') : encodeMessage(value);
    parts.push(Buffer.from([...varint((field << 3) | 2), ...varint(payload.length)]), payload);
  }
  return Buffer.concat(parts);
}
