/**
 * The typed error of a non-2xx response: its body read (bounded) and, when it is a `meta/v1 Status`, taken
 * apart as client-go's rest.Result.Error does (k8s.io/client-go/rest/request.go, transformResponse). Apart
 * from errors.ts so that the error classes do not depend on reading bodies (body.ts raises them).
 */

import { DEFAULT_MAX_RESPONSE_BYTES, readText } from './body.js';
import { KubernetesApiError } from './errors.js';
import type { KubernetesStatus } from './errors.js';

/**
 * Builds the error for a non-2xx response. Always consumes the body (up to `maxBytes`, the client's
 * maxResponseBytes), which is what lets the connection go back to the keep-alive pool.
 */
export async function errorFromResponse(
  method: string,
  url: string,
  response: Response,
  maxBytes: number = DEFAULT_MAX_RESPONSE_BYTES,
): Promise<KubernetesApiError> {
  // An aborted, failed, already-consumed or too large body leaves '': the status line alone still makes a useful error
  // (so the read's own error, which would name the request, is never seen).
  const body = await readText(response, maxBytes).catch(() => '');
  let parsed: KubernetesStatus | undefined;
  try {
    parsed = JSON.parse(body) as KubernetesStatus;
  } catch {
    // Not JSON: an opaque body.
  }
  const statusObject = parsed?.kind === 'Status' ? parsed : undefined;
  const fromStatus = statusObject?.details?.retryAfterSeconds;
  const header = response.headers.get('retry-after')?.trim() ?? '';
  // RFC 9110 also allows an HTTP-date; Kubernetes sends seconds, but proxies in front of it may not. NaN when neither.
  const fromHeader = /^\d+$/.test(header) ? +header : Math.max(0, Math.ceil((Date.parse(header) - Date.now()) / 1000));
  return new KubernetesApiError({
    status: response.status,
    statusText: response.statusText,
    method,
    url,
    statusObject,
    body,
    retryAfterSeconds:
      Number.isFinite(fromStatus) && fromStatus! > 0 ? fromStatus : fromHeader >= 0 ? fromHeader : undefined,
  });
}
