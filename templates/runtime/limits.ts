/**
 * A bound on response bodies, as a `fetch` wrapper: `createClient({ fetch:
 * limitResponseBytes() })`. The transport already bounds what it reads
 * (`ClientOptions.maxResponseBytes`, by default 64 MiB); this wrapper also
 * refuses a too-large Content-Length before reading a byte, and bounds bodies
 * of a fetch used outside createClient.
 */

import { DEFAULT_MAX_RESPONSE_BYTES } from './body.js';
import { ResponseTooLargeError } from './errors.js';
import { requestUrl, watchRequested } from './middleware/request.js';

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
  if (!(maxBytes >= 0 && maxBytes <= Number.MAX_SAFE_INTEGER))
    throw new RangeError(`maxBytes must be a number in 0..2^53-1, got ${maxBytes}`);
  return async (input, init) => {
    // Called as a plain function: browsers throw "Illegal invocation" when fetch's `this` is some other object.
    const response = await (inner ?? fetch)(input, init);
    const url = requestUrl(input);
    const body = response.body;
    if (body === null || isWatch(url)) return response;
    const context = { method: init?.method ?? (input instanceof Request ? input.method : 'GET'), url };
    // Absent: Number(null) is 0; unparsable: NaN, left to the byte count below.
    if (Number(response.headers.get('content-length')) > maxBytes) {
      await body.cancel().catch(ignore);
      throw new ResponseTooLargeError('maxResponseBytes', maxBytes, context);
    }
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
  };
}

/** A watch request, whose body is a stream without end. */
function isWatch(url: string): boolean {
  try {
    return watchRequested(new URL(url).searchParams);
  } catch {
    // Not an absolute URL: not one of the transport's requests.
    return false;
  }
}

function ignore(): void {}
