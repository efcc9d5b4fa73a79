/**
 * Incremental decoder for newline-delimited JSON (the wire format of
 * Kubernetes watches), correct across arbitrary chunk boundaries and strict:
 * a line that does not parse is never skipped, it becomes a WatchDecodeError.
 *
 * Speed matters here (a busy watch is hundreds of MB): newlines are found by
 * scanning bytes, each chunk's complete lines are decoded with one call and
 * sliced (no per-line decoding, no growing buffer string), and only a line
 * that spans chunks is assembled, from its bytes.
 */

import { ResponseTooLargeError, excerpt as textExcerpt } from '../errors.js';

const LF = 0x0a;

/**
 * Default of `maxLineBytes`: one watch event is one object, and etcd refuses
 * objects over 1.5 MiB (kube-apiserver request bodies over 3 MiB), so 16 MiB
 * leaves room for any real event while a line that never ends cannot take
 * the client's memory.
 */
export const DEFAULT_MAX_LINE_BYTES: number = 16 * 1024 * 1024;

/** Throws a RangeError unless `maxLineBytes` is a usable limit. */
export function checkMaxLineBytes(maxLineBytes: number): number {
  if (!(maxLineBytes >= 1 && maxLineBytes <= Number.MAX_SAFE_INTEGER))
    throw new RangeError(`maxLineBytes must be a number in 1..2^53-1, got ${maxLineBytes}`);
  return maxLineBytes;
}

/** What a WatchDecodeError is made of. */
export interface WatchDecodeErrorInit {
  /** The text that failed (the whole line, or what the stream ended with). */
  text: string;
  /** 1-based line number in the stream; 0 when unknown. */
  line: number;
  /** True when the stream ended in the middle of a line. */
  truncated: boolean;
  /** Overrides the default description of what is wrong. */
  problem?: string;
  /** The JSON parser's or the text decoder's error. */
  cause?: unknown;
}

/** A watch stream line that is not valid JSON or not a watch event, or a stream that ended mid-line. */
export class WatchDecodeError extends Error {
  override readonly name = 'WatchDecodeError';
  /** Up to 200 characters of the offending text. */
  readonly excerpt: string;
  /** 1-based line number in the stream; 0 when unknown. */
  readonly line: number;
  /** True when the stream ended without a newline and the rest did not parse. */
  readonly truncated: boolean;

  constructor(init: WatchDecodeErrorInit) {
    const excerpt = textExcerpt(init.text);
    const problem =
      init.problem ?? (init.truncated ? 'stream ended in the middle of a line' : 'line is not valid JSON');
    super(
      `watch stream${init.line > 0 ? ` line ${init.line}` : ''}: ${problem}: ${excerpt === '' ? '(empty)' : excerpt}`,
      { cause: init.cause },
    );
    this.excerpt = excerpt;
    this.line = init.line;
    this.truncated = init.truncated;
  }
}

/**
 * Synchronous core: feed chunks with `write`, then call `end` once. Both
 * append decoded values to `out` (and return it). When a line fails, the
 * values decoded before it are already in `out` and the method throws a
 * WatchDecodeError, or a ResponseTooLargeError (`limit: 'maxLineBytes'`) for
 * a line longer than `maxLineBytes` (newline excluded), which is never held
 * whole; the decoder must not be used afterwards.
 */
export class NdjsonDecoder {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  /** Bytes of the current, still incomplete line (kept as bytes so a character split across chunks decodes whole). */
  private pending: Uint8Array[] = [];
  /** Total length of `pending`. */
  private pendingBytes = 0;
  /** Lines completed so far (for error positions). */
  private lines = 0;
  private readonly maxLineBytes: number;

  constructor(maxLineBytes: number = DEFAULT_MAX_LINE_BYTES) {
    this.maxLineBytes = checkMaxLineBytes(maxLineBytes);
  }

  /** Decodes the complete lines `chunk` finishes, appending their values to `out`; keeps the incomplete rest for later. */
  write(chunk: Uint8Array, out: unknown[] = []): unknown[] {
    const length = chunk.length;
    if (length === 0) return out;
    const lastNewline = chunk.lastIndexOf(LF);
    if (lastNewline === -1) {
      this.hold(chunk);
      return out;
    }
    let start = 0;
    if (this.pending.length > 0) {
      const firstNewline = chunk.indexOf(LF);
      this.hold(chunk.subarray(0, firstNewline));
      const line = this.decode(concat(this.pending));
      this.pending = [];
      this.pendingBytes = 0;
      if (line !== '') this.parse(line, out);
      else this.lines++;
      start = firstNewline + 1;
    }
    if (lastNewline + 1 - start > this.maxLineBytes) {
      // Only a chunk whose complete lines together exceed the limit can hold a line that does; such a chunk is
      // taken line by line, so the lines before a long one still come out first. The common case does not get here.
      for (let from = start; from <= lastNewline; ) {
        const newline = chunk.indexOf(LF, from);
        if (newline - from > this.maxLineBytes) this.tooLong();
        if (newline !== from) this.parse(this.decode(chunk.subarray(from, newline)), out);
        else this.lines++;
        from = newline + 1;
      }
    } else if (start <= lastNewline) {
      // Up to a newline there is no partial character: 0x0A never occurs inside a UTF-8 sequence.
      const text = this.decode(chunk.subarray(start, lastNewline + 1));
      let from = 0;
      let newline = text.indexOf('\n');
      while (newline !== -1) {
        if (newline !== from) this.parse(text.slice(from, newline), out);
        else this.lines++;
        from = newline + 1;
        newline = text.indexOf('\n', from);
      }
    }
    if (lastNewline !== length - 1) this.hold(chunk.subarray(lastNewline + 1));
    return out;
  }

  /** Appends to the incomplete line, failing as soon as it is longer than the limit (so it is never held whole). */
  private hold(bytes: Uint8Array): void {
    this.pendingBytes += bytes.length;
    if (this.pendingBytes > this.maxLineBytes) this.tooLong();
    this.pending.push(bytes);
  }

  private tooLong(): never {
    this.pending = [];
    this.pendingBytes = 0;
    throw new ResponseTooLargeError('maxLineBytes', this.maxLineBytes);
  }

  /** Flushes the last line: a final line without a newline is accepted if it parses, else it is a truncation error. */
  end(out: unknown[] = []): unknown[] {
    const bytes = concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    if (bytes.length === 0) return out;
    let rest: string;
    try {
      rest = this.decoder.decode(bytes);
    } catch (cause) {
      throw new WatchDecodeError({
        text: lenientText(bytes),
        line: this.lines + 1,
        truncated: true,
        problem: 'stream ended in the middle of a UTF-8 character',
        cause,
      });
    }
    if (isBlank(rest)) return out;
    let value: unknown;
    try {
      value = JSON.parse(rest);
    } catch (cause) {
      throw new WatchDecodeError({ text: rest, line: this.lines + 1, truncated: true, cause });
    }
    this.lines++;
    out.push(value);
    return out;
  }

  private parse(line: string, out: unknown[]): void {
    this.lines++;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (cause) {
      // Whitespace-only lines (a keep-alive "\r\n", say) carry nothing; checked only after a failure to keep the hot path lean.
      if (isBlank(line)) return;
      throw new WatchDecodeError({ text: line, line: this.lines, truncated: false, cause });
    }
    out.push(value);
  }

  /** Complete lines only. Invalid UTF-8 is an error, never silently replaced. */
  private decode(bytes: Uint8Array): string {
    const fast = decodeWithBuffer(bytes);
    // The fast decoder substitutes U+FFFD for invalid bytes; only then is the strict decoder asked to judge.
    if (fast !== undefined && fast.indexOf('\uFFFD') === -1) return fast;
    try {
      return this.decoder.decode(bytes);
    } catch (cause) {
      throw new WatchDecodeError({
        text: lenientText(bytes),
        line: this.lines + 1,
        truncated: false,
        problem: 'invalid UTF-8',
        cause,
      });
    }
  }
}

/**
 * Node's and Bun's Buffer decodes UTF-8 several times faster than
 * TextDecoder; it is used when the platform has it (looked up, not imported:
 * the runtime stays platform-neutral) and TextDecoder otherwise.
 */
type BufferLike = {
  from(buffer: ArrayBufferLike, byteOffset: number, length: number): { toString(encoding: 'utf8'): string };
};
const PlatformBuffer: BufferLike | undefined = (globalThis as { Buffer?: BufferLike }).Buffer;

function decodeWithBuffer(bytes: Uint8Array): string | undefined {
  return PlatformBuffer === undefined
    ? undefined
    : PlatformBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/** Text for an error excerpt: invalid bytes replaced, an unfinished last character left out. */
function lenientText(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes, { stream: true });
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  let length = 0;
  for (const part of parts) length += part.length;
  const joined = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}

/**
 * The values of a newline-delimited JSON body, one by one. Ending the
 * iteration early (`break`, `return`, a thrown error) cancels the body. A
 * malformed line or a truncated last line rejects with a WatchDecodeError
 * after every value before it has been yielded; a line longer than
 * `maxLineBytes` (default 16 MiB) with a ResponseTooLargeError, the body
 * cancelled.
 */
export function readNdjson<T = unknown>(
  body: ReadableStream<Uint8Array>,
  options: { maxLineBytes?: number | undefined } = {},
): AsyncIterableIterator<T> {
  return new NdjsonIterator<T>(body.getReader(), new NdjsonDecoder(options.maxLineBytes));
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/**
 * Hand-written rather than an async generator: values are handed out from a
 * per-chunk batch with one already-resolved promise each, which is what keeps
 * a for-await over it as fast as a plain loop over JSON.parse.
 */
class NdjsonIterator<T> implements AsyncIterableIterator<T> {
  private batch: unknown[] = [];
  private index = 0;
  private failure: unknown = undefined;
  private failed = false;
  private finished = false;

  constructor(
    private readonly reader: ReadableStreamDefaultReader<Uint8Array>,
    private readonly decoder: NdjsonDecoder,
  ) {}

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }

  next(): Promise<IteratorResult<T, undefined>> {
    if (this.index < this.batch.length) {
      return Promise.resolve({ done: false, value: this.batch[this.index++] as T });
    }
    return this.fill();
  }

  async return(): Promise<IteratorResult<T, undefined>> {
    await this.close();
    return DONE;
  }

  private async fill(): Promise<IteratorResult<T, undefined>> {
    for (;;) {
      if (this.failed) {
        this.failed = false;
        const failure = this.failure;
        this.failure = undefined;
        await this.close();
        throw failure;
      }
      if (this.finished) return DONE;
      const batch: unknown[] = [];
      this.batch = batch;
      this.index = 0;
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await this.reader.read();
      } catch (error) {
        this.finished = true;
        throw error;
      }
      try {
        if (chunk.done) {
          this.finished = true;
          this.decoder.end(batch);
        } else {
          this.decoder.write(chunk.value, batch);
        }
      } catch (error) {
        // Values before the bad line still go out first.
        this.failed = true;
        this.failure = error;
      }
      if (batch.length > 0) {
        this.index = 1;
        return { done: false, value: batch[0] as T };
      }
    }
  }

  private async close(): Promise<void> {
    this.batch = [];
    this.index = 0;
    if (this.finished && !this.failed) return;
    this.finished = true;
    try {
      await this.reader.cancel();
    } catch {
      // Already errored: nothing left to release.
    }
  }
}

function isBlank(text: string): boolean {
  return text.trim() === '';
}
