/**
 * `withApiMiddleware`: retries, API warnings and the response-size bound in
 * one fetch wrapper, the defaults of k8s-lease-client-node. Equivalent to
 * `withRetries(withWarnings(limitResponseBytes(max, fetchImpl)))` but reads
 * the request (method, URL, watch or not) once per call instead of once per
 * layer, and passes a response of known size through untouched.
 */

import { boundResponse, checkLimit, DEFAULT_MAX_RESPONSE_BYTES } from '../limits.js';
import { requestMethod, requestSignal, requestUrl } from './request.js';
import { isWatch, retryKind, retryLoop } from './retries.js';
import type { RetryOptions } from './retries.js';
import { logOncePerText, reportWarnings } from './warnings.js';
import type { ApiWarning } from './warnings.js';

/** Options of `withApiMiddleware`: retries, the warning handler and the response-size bound. */
export interface ApiMiddlewareOptions {
  /** withRetries' options; `false` sends every request once. Default: withRetries' defaults. */
  retries?: RetryOptions | false | undefined;
  /** Each 299 Warning of every attempt. Default: `console.warn` once per distinct text. */
  onWarning?: ((warning: ApiWarning) => void) | undefined;
  /** limitResponseBytes' bound. Default 64 MiB. */
  maxResponseBytes?: number | undefined;
}

/**
 * Wraps `fetchImpl` with retries (`withRetries`), API warnings (`withWarnings`) and the response-size bound
 * (`limitResponseBytes`) in one layer, for `ClientOptions.fetch`. k8s-lease-client-node's client options already
 * use it; in a browser, Deno or Bun, wrap the platform fetch yourself.
 *
 * @example
 * ```ts
 * const client = createClient({
 *   baseUrl: 'https://127.0.0.1:6443',
 *   fetch: withApiMiddleware(fetch, { retries: { maxRetries: 5 }, onWarning: (w) => log.warn(w.text) }),
 * });
 * ```
 *
 * @param fetchImpl - The fetch to wrap (the platform's, or a TLS-configured one).
 * @param options - Retry policy (`false` for none), warning handler and response-size bound.
 * @returns A fetch with the same signature.
 * @throws RangeError when `maxResponseBytes` is not a number in 0..2^53-1.
 */
export function withApiMiddleware(fetchImpl: typeof fetch, options: ApiMiddlewareOptions = {}): typeof fetch {
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  checkLimit(maxBytes);
  const onWarning = options.onWarning ?? logOncePerText();
  const loop = options.retries === false ? undefined : retryLoop(options.retries);
  return (input, init) => {
    const method = requestMethod(input, init);
    const url = requestUrl(input);
    const watch = isWatch(url);
    const attempt = async (): Promise<Response> => {
      const response = await fetchImpl(input, init);
      reportWarnings(response, () => method, url, onWarning);
      return boundResponse(response, maxBytes, { method, url }, watch);
    };
    // A watch is never retried here: the watch runtime resumes it from its last resourceVersion.
    const kind = loop === undefined || watch ? undefined : retryKind(method, url, init?.body);
    return kind === undefined || loop === undefined
      ? attempt()
      : loop(attempt, kind, method, url, requestSignal(input, init));
  };
}
