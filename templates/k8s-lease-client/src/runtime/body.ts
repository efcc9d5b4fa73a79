/**
 * Reading a whole response body, bounded. The transport reads every non-watch
 * body through here (2xx and error bodies alike), so a broken or hostile
 * server cannot grow the client's memory past the limit: not with a huge
 * Content-Length, not with an endless chunked body, not with a small gzip
 * body that inflates to gigabytes (fetch hands out decoded bytes, and those
 * are what is counted).
 */

import { ResponseTooLargeError } from './errors.js';
import type { RequestContext } from './errors.js';

/**
 * Default of `ClientOptions.maxResponseBytes` (and of `limitResponseBytes`): far above any Lease LIST page (500
 * Leases ≈ 250 KB), far below what endangers the client's memory.
 */
export const DEFAULT_MAX_RESPONSE_BYTES: number = 2 ** 26; // 64 MiB, written as the minifier leaves it shortest

/**
 * The body as text (UTF-8, a BOM dropped, as `response.text()`), '' for none. Once more than `maxBytes`
 * decoded bytes have arrived, the body is cancelled (which closes the connection) and the read rejects with
 * a ResponseTooLargeError naming `maxResponseBytes`: at most one chunk past the limit is ever held.
 */
export async function readText(response: Response, maxBytes: number, context?: RequestContext): Promise<string> {
  const reader = response.body?.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  for (;;) {
    const chunk = await reader?.read();
    if (!chunk || chunk.done) return text + decoder.decode();
    size += chunk.value.byteLength;
    if (size > maxBytes) {
      reader?.cancel().catch(() => {});
      throw new ResponseTooLargeError('maxResponseBytes', maxBytes, context);
    }
    text += decoder.decode(chunk.value, { stream: true });
  }
}
