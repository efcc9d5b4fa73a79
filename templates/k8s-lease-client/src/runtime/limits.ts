/**
 * A bound on response bodies, as a `fetch` wrapper: `createClient({ fetch:
 * limitResponseBytes() })`. The transport already bounds what it reads
 * (`ClientOptions.maxResponseBytes`, by default 64 MiB); this wrapper also
 * refuses a too-large Content-Length before reading a byte, and bounds bodies
 * of a fetch used outside createClient.
 */

import { DEFAULT_MAX_RESPONSE_BYTES } from './body.js';
import { ResponseTooLargeError } from './errors.js';
import { isWatch } from './middleware/retries.js';
import { requestMethod, requestUrl } from './middleware/request.js';

export { DEFAULT_MAX_RESPONSE_BYTES };

/**
 * Wraps `fetch` (default: `globalThis.fetch`, looked up per call) so that no
 * response body, error bodies included, is read past `maxBytes`: a
 * Content-Length above it is refused before any byte is read, a longer
 * (chunked) body fails once it passes the limit. Either way the body is
 * cancelled, which closes the connection, and the call rejects with a
 * ResponseTooLargeError naming `maxResponseBytes`. Watch requests
 * (`watch=true`) are exempt: they are endless by design and bounded per line
 * by `maxLineBytes` instead.
 */
export function limitResponseBytes(maxBytes: number = DEFAULT_MAX_RESPONSE_BYTES, inner?: typeof fetch): typeof fetch {
  checkLimit(maxBytes);
  return async (input, init) => {
    // Called as a plain function: browsers throw "Illegal invocation" when fetch's `this` is some other object.
    const response = await (inner ?? fetch)(input, init);
    const url = requestUrl(input);
    return boundResponse(response, maxBytes, { method: requestMethod(input, init), url }, isWatch(url));
  };
}

export function checkLimit(maxBytes: number): void {
  if (!(maxBytes >= 0 && maxBytes <= Number.MAX_SAFE_INTEGER))
    throw new RangeError(`maxBytes must be a number in 0..2^53-1, got ${maxBytes}`);
}

/**
 * The response with its body bounded by `maxBytes`. Passed through untouched when its size is known and within the
 * limit (a Content-Length of an unencoded body: fetch reads no byte past it), which is what a Lease read gets; only a
 * body of unknown size (chunked, or decompressed from gzip, whose Content-Length counts the compressed bytes) is
 * counted as it is read. A watch's body is left alone.
 */
export async function boundResponse(
  response: Response,
  maxBytes: number,
  context: { method: string; url: string },
  watch: boolean,
): Promise<Response> {
  const body = response.body;
  if (body === null || watch) return response;
  // Absent: null; unparsable: NaN, left to the byte count below.
  const declared = response.headers.get('content-length');
  const length = declared === null ? Number.NaN : Number(declared);
  if (length > maxBytes) {
    await body.cancel().catch(ignore);
    throw new ResponseTooLargeError('maxResponseBytes', maxBytes, context);
  }
  const encoding = response.headers.get('content-encoding');
  if (length >= 0 && (encoding === null || encoding.toLowerCase() === 'identity')) return response;
  const reader = body.getReader();
  let size = 0;
  // Pull-based, so at most one chunk past the limit is ever held.
  const counted = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const chunk = await reader.read();
      if (chunk.done) {
        controller.close();
        return;
      }
      size += chunk.value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(ignore);
        controller.error(new ResponseTooLargeError('maxResponseBytes', maxBytes, context));
        return;
      }
      controller.enqueue(chunk.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return new Response(counted, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

function ignore(): void {}
