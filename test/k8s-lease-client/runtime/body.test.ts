// Reading a whole body, bounded: counted in decoded bytes, cancelled once past the limit. No server: the bodies are
// streams made here, so the test sees exactly how much was pulled.
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_RESPONSE_BYTES, readText } from '../../../templates/k8s-lease-client/src/runtime/body.js';
import { ResponseTooLargeError } from '../../../templates/k8s-lease-client/src/runtime/errors.js';
import { rejectionOf } from '../../helpers/rejection.js';

const CONTEXT = { method: 'GET', url: 'https://k8s.example/apis/coordination.k8s.io/v1/leases' };
const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

/** A body of the given chunks; records how many were pulled and whether it was cancelled. */
function body(chunks: Uint8Array[]): { response: Response; pulled: () => number; cancelled: () => boolean } {
  let next = 0;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[next++];
      if (chunk === undefined) controller.close();
      else controller.enqueue(chunk);
    },
    cancel() {
      cancelled = true;
    },
  });
  return { response: new Response(stream), pulled: () => next, cancelled: () => cancelled };
}

describe('readText', () => {
  it('64 MiB by default', () => {
    expect(DEFAULT_MAX_RESPONSE_BYTES).toBe(64 * 1024 * 1024);
  });

  it('reads the chunks as UTF-8, a character split across chunks included, as response.text()', async () => {
    const bytes = encode('{"holder":"ü日本"}');
    const split = [bytes.slice(0, 12), bytes.slice(12, 13), bytes.slice(13)];
    expect(await readText(body(split).response, 1024, CONTEXT)).toBe('{"holder":"ü日本"}');
  });

  it('drops a byte order mark, as response.text()', async () => {
    expect(await readText(body([new Uint8Array([0xef, 0xbb, 0xbf]), encode('{}')]).response, 1024, CONTEXT)).toBe('{}');
  });

  it("'' for no body or an empty one", async () => {
    expect(await readText(new Response(null, { status: 204 }), 1024, CONTEXT)).toBe('');
    expect(await readText(body([]).response, 1024, CONTEXT)).toBe('');
  });

  it('a body of exactly the limit is read whole', async () => {
    expect(await readText(body([encode('a'.repeat(6)), encode('b'.repeat(4))]).response, 10, CONTEXT)).toBe(
      'aaaaaabbbb',
    );
  });

  it('one byte past the limit: ResponseTooLargeError naming maxResponseBytes and the request, body cancelled', async () => {
    const tooLarge = body([encode('a'.repeat(6)), encode('b'.repeat(5)), encode('never read')]);
    const error = await rejectionOf(readText(tooLarge.response, 10, CONTEXT));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ limit: 'maxResponseBytes', maxBytes: 10, ...CONTEXT });
    expect((error as Error).message).toBe(
      'GET /apis/coordination.k8s.io/v1/leases: response exceeds maxResponseBytes (10 bytes)',
    );
    expect(tooLarge.cancelled()).toBe(true);
    expect(tooLarge.pulled()).toBe(2);
  });

  it('counts bytes, not characters', async () => {
    // Four characters, twelve bytes.
    const error = await rejectionOf(readText(body([encode('日本日本')]).response, 11, CONTEXT));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
  });
});
