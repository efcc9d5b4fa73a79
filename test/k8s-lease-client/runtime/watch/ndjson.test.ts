import { describe, expect, it } from 'vitest';
import { ResponseTooLargeError } from '../../../../templates/k8s-lease-client/src/runtime/errors.js';
import {
  DEFAULT_MAX_LINE_BYTES,
  NdjsonDecoder,
  readNdjson,
  WatchDecodeError,
} from '../../../../templates/k8s-lease-client/src/runtime/watch/ndjson.js';

const encoder = new TextEncoder();

function streamOf(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> & { cancelled: () => boolean } {
  let i = 0;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[i++];
      if (chunk === undefined) controller.close();
      else controller.enqueue(chunk);
    },
    cancel() {
      cancelled = true;
    },
  });
  return Object.assign(stream, { cancelled: () => cancelled });
}

/** Splits bytes at the given offsets. */
function split(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const cut of [...cuts, bytes.length]) {
    chunks.push(bytes.slice(start, cut));
    start = cut;
  }
  return chunks;
}

async function collect(chunks: readonly Uint8Array[]): Promise<{ values: unknown[]; error: unknown }> {
  const values: unknown[] = [];
  try {
    for await (const value of readNdjson(streamOf(chunks))) values.push(value);
  } catch (error) {
    return { values, error };
  }
  return { values, error: undefined };
}

const unicode = '{"type":"MODIFIED","object":{"spec":{"holderIdentity":"ü—😀"}}}';
const unicodeBytes = encoder.encode(`${unicode}\n`);
const euro = encoder.encode('€')[0] ?? 0;

interface Case {
  name: string;
  chunks: Uint8Array[];
  values: unknown[];
  error?: { truncated: boolean; excerpt: string; line: number };
}

const cases: Case[] = [
  { name: 'empty stream', chunks: [], values: [] },
  { name: 'empty chunks only', chunks: [new Uint8Array(0), new Uint8Array(0)], values: [] },
  { name: 'one line, one chunk', chunks: [encoder.encode('{"a":1}\n')], values: [{ a: 1 }] },
  {
    name: 'many lines in one chunk',
    chunks: [encoder.encode('{"a":1}\n{"a":2}\n{"a":3}\n')],
    values: [{ a: 1 }, { a: 2 }, { a: 3 }],
  },
  {
    name: 'a line split across three chunks',
    chunks: [encoder.encode('{"a"'), encoder.encode(':12'), encoder.encode('3}\n{"b":2}\n')],
    values: [{ a: 123 }, { b: 2 }],
  },
  {
    name: 'newline alone in the next chunk',
    chunks: [encoder.encode('{"a":1}'), encoder.encode('\n')],
    values: [{ a: 1 }],
  },
  {
    name: 'multi-byte characters split inside their bytes',
    // Cut inside ü (2 bytes), — (3 bytes) and 😀 (4 bytes).
    chunks: split(unicodeBytes, [
      unicode.indexOf('ü') + 1,
      unicode.indexOf('—') + 2,
      unicode.indexOf('—') + 4,
      unicode.indexOf('—') + 6,
    ]),
    values: [JSON.parse(unicode)],
  },
  {
    name: 'every byte its own chunk',
    chunks: split(
      unicodeBytes,
      Array.from({ length: unicodeBytes.length - 1 }, (_, i) => i + 1),
    ),
    values: [JSON.parse(unicode)],
  },
  {
    name: 'CRLF line endings (tolerated)',
    chunks: [encoder.encode('{"a":1}\r\n{"a":2}\r\n')],
    values: [{ a: 1 }, { a: 2 }],
  },
  {
    name: 'blank lines are skipped',
    chunks: [encoder.encode('\n{"a":1}\n\n  \n{"a":2}\n\n')],
    values: [{ a: 1 }, { a: 2 }],
  },
  {
    name: 'final line without newline that parses',
    chunks: [encoder.encode('{"a":1}\n{"a":2}')],
    values: [{ a: 1 }, { a: 2 }],
  },
  { name: 'trailing whitespace without newline', chunks: [encoder.encode('{"a":1}\n  ')], values: [{ a: 1 }] },
  {
    name: 'malformed line in the middle: earlier values first, then the error',
    chunks: [encoder.encode('{"a":1}\n{"a":'), encoder.encode('oops}\n{"a":3}\n')],
    values: [{ a: 1 }],
    error: { truncated: false, excerpt: '{"a":oops}', line: 2 },
  },
  {
    name: 'truncated last line',
    chunks: [encoder.encode('{"a":1}\n{"type":"ADDED","object":{"metadata":{"name":"x"')],
    values: [{ a: 1 }],
    error: { truncated: true, excerpt: '{"type":"ADDED","object":{"metadata":{"name":"x"', line: 2 },
  },
  {
    name: 'stream ends inside a multi-byte character',
    chunks: [encoder.encode('{"a":1}\n{"b":"'), Uint8Array.of(euro)],
    values: [{ a: 1 }],
    error: { truncated: true, excerpt: '{"b":"', line: 2 },
  },
  {
    name: 'an HTML error page from a proxy',
    chunks: [encoder.encode('<html><body>502 Bad Gateway</body></html>\n')],
    values: [],
    error: { truncated: false, excerpt: '<html><body>502 Bad Gateway</body></html>', line: 1 },
  },
];

describe('readNdjson', () => {
  it.each(cases)('$name', async ({ chunks, values, error }) => {
    const result = await collect(chunks);
    expect(result.values).toEqual(values);
    if (error === undefined) {
      expect(result.error).toBeUndefined();
    } else {
      expect(result.error).toBeInstanceOf(WatchDecodeError);
      const decodeError = result.error as WatchDecodeError;
      expect({ truncated: decodeError.truncated, excerpt: decodeError.excerpt, line: decodeError.line }).toEqual(error);
      expect(decodeError.message).toContain(error.excerpt.slice(0, 20));
    }
  });

  it('random chunkings of a fixed stream give the same values (property test, 300 runs)', async () => {
    const lines: unknown[] = [];
    for (let i = 0; i < 60; i++) {
      lines.push({
        type: i % 3 === 0 ? 'ADDED' : 'MODIFIED',
        object: {
          metadata: { name: `lease-${i}`, resourceVersion: String(1000 + i) },
          spec: { holderIdentity: `ü—😀-${'x'.repeat(i * 7)}` },
        },
      });
    }
    const bytes = encoder.encode(`${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
    let seed = 42;
    const random = (): number => {
      // mulberry32: deterministic, so a failure reproduces.
      seed = (seed + 0x6d2b79f5) | 0;
      let t = seed;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    for (let run = 0; run < 300; run++) {
      const cutCount = Math.floor(random() * 40);
      const cuts = Array.from({ length: cutCount }, () => Math.floor(random() * bytes.length)).sort((a, b) => a - b);
      const result = await collect(split(bytes, cuts));
      expect(result.error).toBeUndefined();
      expect(result.values).toEqual(lines);
    }
  });

  it('break cancels the body', async () => {
    const stream = streamOf([encoder.encode('{"a":1}\n{"a":2}\n'), encoder.encode('{"a":3}\n')]);
    for await (const value of readNdjson(stream)) {
      expect(value).toEqual({ a: 1 });
      break;
    }
    expect(stream.cancelled()).toBe(true);
  });

  it('a decode error cancels the body', async () => {
    const stream = streamOf([encoder.encode('nope\n'), encoder.encode('{"a":3}\n')]);
    const iterator = readNdjson(stream);
    await expect(iterator.next()).rejects.toBeInstanceOf(WatchDecodeError);
    expect(stream.cancelled()).toBe(true);
  });

  it('truncates a long offending line in the excerpt, keeping surrogate pairs whole', () => {
    const decoder = new NdjsonDecoder();
    const long = `{"x":"${'😀'.repeat(500)}`;
    const out: unknown[] = [];
    decoder.write(encoder.encode(long), out);
    let caught: unknown;
    try {
      decoder.end(out);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(WatchDecodeError);
    const excerpt = (caught as WatchDecodeError).excerpt;
    expect(excerpt.length).toBeLessThanOrEqual(201);
    expect(excerpt.endsWith('…')).toBe(true);
    expect(/[\ud800-\udbff](?![\udc00-\udfff])/.test(excerpt)).toBe(false);
  });

  it('rejects invalid UTF-8 instead of decoding it to replacement characters', () => {
    const decoder = new NdjsonDecoder();
    expect(() => decoder.write(Uint8Array.of(0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d, 0x0a))).toThrow(
      WatchDecodeError,
    );
  });

  it('the synchronous decoder returns values in order and counts lines across chunks', () => {
    const decoder = new NdjsonDecoder();
    expect(decoder.write(encoder.encode('{"a":1}\n{"a"'))).toEqual([{ a: 1 }]);
    expect(decoder.write(encoder.encode(':2}\n\n'))).toEqual([{ a: 2 }]);
    expect(() => decoder.write(encoder.encode('bad\n'))).toThrow(/line 4/);
  });
});

describe('maxLineBytes', () => {
  const LIMIT = 1024;
  const line = (bytes: number): string => JSON.stringify({ pad: 'p'.repeat(bytes - 10) });

  it('a line that never ends fails once it passes the limit, before it is held whole, and the body is cancelled', async () => {
    let pulled = 0;
    let cancelled = false;
    // An endless line: without a limit this reads forever and buffers all of it.
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(encoder.encode(pulled === 1 ? `${line(20)}\n{"pad":"` : 'p'.repeat(256)));
      },
      cancel() {
        cancelled = true;
      },
    });
    const values: unknown[] = [];
    let error: unknown;
    try {
      for await (const value of readNdjson(endless, { maxLineBytes: LIMIT })) values.push(value);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({
      limit: 'maxLineBytes',
      maxBytes: LIMIT,
      message: `response exceeds maxLineBytes (${LIMIT} bytes)`,
    });
    // The line before it still came out; reading stopped one chunk past the limit (plus the stream's one-chunk read-ahead).
    expect(values).toEqual([JSON.parse(line(20))]);
    expect(pulled).toBeLessThanOrEqual(Math.ceil(LIMIT / 256) + 2);
    expect(cancelled).toBe(true);
  });

  it.each([
    ['inside one chunk', (bytes: Uint8Array) => [bytes]],
    ['split across chunks', (bytes: Uint8Array) => split(bytes, [7, 300, 900])],
    [
      'one byte at a time',
      (bytes: Uint8Array) =>
        split(
          bytes,
          Array.from({ length: bytes.length - 1 }, (_, i) => i + 1),
        ),
    ],
  ])('a line of limit+1 bytes %s fails; one of exactly the limit passes', async (_name, chunking) => {
    const atLimit = line(LIMIT);
    const over = line(LIMIT + 1);
    expect(encoder.encode(atLimit).length).toBe(LIMIT);
    const values: unknown[] = [];
    let error: unknown;
    try {
      for await (const value of readNdjson(streamOf(chunking(encoder.encode(`${atLimit}\n${over}\n{"after":1}\n`))), {
        maxLineBytes: LIMIT,
      }))
        values.push(value);
    } catch (caught) {
      error = caught;
    }
    expect(values).toEqual([JSON.parse(atLimit)]);
    expect(error).toMatchObject({ name: 'ResponseTooLargeError', limit: 'maxLineBytes', maxBytes: LIMIT });
  });

  it('the default is 16 MiB, and an unusable limit is refused', () => {
    expect(DEFAULT_MAX_LINE_BYTES).toBe(16 * 1024 * 1024);
    expect(() => new NdjsonDecoder(0)).toThrow(RangeError);
    expect(() => readNdjson(streamOf([]), { maxLineBytes: Number.NaN })).toThrow(RangeError);
  });
});
