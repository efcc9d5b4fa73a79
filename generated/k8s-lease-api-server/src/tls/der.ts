// Just enough ASN.1 DER encoding to build X.509 certificates.
function encodeLength(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  const bytes: number[] = [];
  for (let n = length; n > 0; n = Math.floor(n / 256)) bytes.unshift(n & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

export function tlv(tag: number, content: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag]), encodeLength(content.length), content]);
}

export const sequence = (...items: Buffer[]): Buffer => tlv(0x30, Buffer.concat(items));
export const set = (...items: Buffer[]): Buffer => tlv(0x31, Buffer.concat(items));
export const octetString = (content: Buffer): Buffer => tlv(0x04, content);
export const utf8String = (text: string): Buffer => tlv(0x0c, Buffer.from(text, 'utf8'));
export const boolean = (value: boolean): Buffer => tlv(0x01, Buffer.from([value ? 0xff : 0x00]));
export const explicit = (tagNumber: number, content: Buffer): Buffer => tlv(0xa0 | tagNumber, content);
export const implicitPrimitive = (tagNumber: number, content: Buffer): Buffer => tlv(0x80 | tagNumber, content);

/** An INTEGER from unsigned big-endian bytes (minimal encoding, never negative). */
export function unsignedInteger(bytes: Buffer): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  const trimmed = bytes.subarray(start);
  const needsPad = ((trimmed[0] ?? 0) & 0x80) !== 0;
  return tlv(0x02, needsPad ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed);
}

export const smallInteger = (value: number): Buffer => unsignedInteger(Buffer.from([value]));

export function bitString(content: Buffer, unusedBits = 0): Buffer {
  return tlv(0x03, Buffer.concat([Buffer.from([unusedBits]), content]));
}

export function objectIdentifier(dotted: string): Buffer {
  const parts = dotted.split('.').map(Number);
  const [first = 0, second = 0, ...rest] = parts;
  const bytes: number[] = [first * 40 + second];
  for (const part of rest) {
    const chunk: number[] = [];
    let n = part;
    do {
      chunk.unshift(n & 0x7f);
      n = Math.floor(n / 128);
    } while (n > 0);
    for (let i = 0; i < chunk.length - 1; i++) chunk[i] = (chunk[i] ?? 0) | 0x80;
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** UTCTime through 2049, GeneralizedTime after, as RFC 5280 requires. */
export function time(date: Date): Buffer {
  const iso = date.toISOString();
  const digits = iso.slice(0, 19).replace(/[-:T]/g, '');
  return date.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(`${digits.slice(2)}Z`)) : tlv(0x18, Buffer.from(`${digits}Z`));
}
