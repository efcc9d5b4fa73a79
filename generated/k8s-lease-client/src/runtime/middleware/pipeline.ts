// Copied by lease-api-generator from templates/runtime/middleware/pipeline.ts. DO NOT EDIT: edit that file and run `npm run generate`.
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

export interface ApiMiddlewareOptions {
  /** withRetries' options; `false` sends every request once. Default: withRetries' defaults. */
  retries?: RetryOptions | false | undefined;
  /** Each 299 Warning of every attempt. Default: `console.warn` once per distinct text. */
  onWarning?: ((warning: ApiWarning) => void) | undefined;
  /** limitResponseBytes' bound. Default 64 MiB. */
  maxResponseBytes?: number | undefined;
}

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
