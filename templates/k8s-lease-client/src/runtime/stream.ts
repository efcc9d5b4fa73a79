/**
 * Streaming responses (watches). A function rather than a `Client` method so
 * that bundles which never stream do not carry it.
 */

import type { CombinedSignal } from './signals.js';
import { SEND } from './transport.js';
import type { CallOptions, Client, RequestSpec, Send } from './transport.js';

/**
 * The connection logic of a client made by `createClient` (of any copy of the
 * runtime). Throws a TypeError for any other object, e.g. a hand-written fake
 * that only implements `request`.
 */
export function sendOf(client: Client): Send {
  const send = (client as { readonly [SEND]?: Send })[SEND];
  if (typeof send !== 'function') throw new TypeError('streaming needs a client made by createClient');
  return send;
}

/**
 * Sends the request and returns the raw 2xx Response (for streaming
 * watches); throws KubernetesApiError for non-2xx. The caller owns the body
 * and must read it to the end or cancel it. The timeout only covers the wait
 * for the response headers; the caller's signal keeps aborting the body.
 * When both a signal and a timeout apply, the returned Response wraps the
 * original body (same status and headers; `url` and `redirected` are not
 * carried over) so the signal can be released when the body ends.
 */
export async function stream(client: Client, spec: RequestSpec, options?: CallOptions): Promise<Response> {
  const [response, linked] = await sendOf(client)(spec, options, true);
  const callerSignal = options?.signal;
  const body = response.body;
  if (callerSignal === undefined || callerSignal === linked.signal || body === null) {
    // Nothing left to follow once headers are in: only a timer (or nothing) was attached.
    linked.dispose();
    return response;
  }
  linked.stopTimer();
  return new Response(releaseWhenDone(body, linked), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/** Re-exposes `body` unchanged, disposing `linked` once it has ended, failed or been cancelled. */
function releaseWhenDone(body: ReadableStream<Uint8Array>, linked: CombinedSignal): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const chunk = await reader.read();
        if (chunk.done) {
          linked.dispose();
          controller.close();
        } else {
          controller.enqueue(chunk.value);
        }
      } catch (error) {
        const aborted = linked.signal?.aborted === true;
        linked.dispose();
        controller.error(aborted ? linked.signal?.reason : error);
      }
    },
    cancel(reason) {
      linked.dispose();
      return reader.cancel(reason);
    },
  });
}
