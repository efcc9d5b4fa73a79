/**
 * The errors a watch raises of its own (besides KubernetesApiError,
 * WatchDecodeError and ResponseTooLargeError), and how the state machine
 * classifies every error it meets: a 410 to re-list, retriable, or fatal.
 * `status`, where a class has one, is an HTTP status code, as on every
 * runtime error (see ../errors.ts).
 */

import type { KubernetesStatus } from '../errors.js';
import {
  ClientClosedError,
  excerpt,
  isKubernetesApiError,
  RequestTimeoutError,
  ResponseTooLargeError,
  UnexpectedResponseError,
} from '../errors.js';
import { WatchDecodeError } from './ndjson.js';

/** An in-stream `{"type":"ERROR"}` event. Never yielded: a 410 leads to a RESYNC, retriable codes to a reconnect, the rest is thrown. */
export class WatchError extends Error {
  override readonly name = 'WatchError';
  /**
   * The HTTP status code the server gave the failure (`Status.code`; 0 when the Status has none), the same
   * meaning `status` has on KubernetesApiError. The Status itself is `statusObject`.
   */
  readonly status: number;
  /** The Status object of the ERROR event, whole, as the server sent it. */
  readonly statusObject: KubernetesStatus;
  /** `Status.code` (0 when absent); the same as `status`. */
  readonly code: number;
  /** `Status.reason` ('' when absent). */
  readonly reason: string;

  constructor(statusObject: KubernetesStatus) {
    const code = typeof statusObject.code === 'number' ? statusObject.code : 0;
    const reason = typeof statusObject.reason === 'string' ? statusObject.reason : '';
    const message =
      typeof statusObject.message === 'string' && statusObject.message !== '' ? `: ${statusObject.message}` : '';
    // The whole Status stays on `statusObject`; the message gets a bounded excerpt with control characters escaped.
    super(`watch error ${code} ${excerpt(`${reason || 'Unknown'}${message}`)}`);
    this.status = code;
    this.statusObject = statusObject;
    this.code = code;
    this.reason = reason;
  }
}

/** No byte arrived for `idleTimeoutMs`: the connection is considered dead and is replaced. */
export class WatchIdleTimeoutError extends Error {
  override readonly name = 'WatchIdleTimeoutError';
  /** How long the stream was silent, in milliseconds (`WatchOptions.idleTimeoutMs`). */
  readonly idleTimeoutMs: number;

  constructor(idleTimeoutMs: number) {
    super(`watch stream idle for ${idleTimeoutMs} ms`);
    this.idleTimeoutMs = idleTimeoutMs;
  }
}

/** The server ended a watch cleanly where that is not expected; only thrown when no retry is left. */
export class WatchClosedError extends Error {
  override readonly name = 'WatchClosedError';
}

export type ResyncReason = 'Expired' | 'Gone';

/**
 * 'Expired'/'Gone' for a 410 (HTTP or in-stream), else undefined: client-go's reflector re-lists on
 * `apierrors.IsResourceExpired` / `IsGone` (isExpiredError), as kube-rs's watcher does on a 410 ErrorResponse.
 */
export function goneReason(error: unknown): ResyncReason | undefined {
  if (!(error instanceof WatchError) && !isKubernetesApiError(error)) return undefined;
  const { status, reason } = error;
  if (status !== 410 && reason !== 'Expired' && reason !== 'Gone') return undefined;
  return reason === 'Gone' ? 'Gone' : 'Expired';
}

const RETRIABLE_STATUS: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);
const RETRIABLE_REASONS: ReadonlySet<string> = new Set([
  'TooManyRequests',
  'ServerTimeout',
  'Timeout',
  'InternalError',
  'ServiceUnavailable',
]);

/**
 * 410 (by re-listing), 429 and 5xx answers, dropped/idle/cut connections, client-side timeouts and
 * network failures are retried; other API errors (401, 403, 404, 400, 422, …),
 * decode errors, unexpected responses, a closed client and unknown in-stream errors are not.
 */
export function isRetriable(error: unknown): boolean {
  // A resume would replay the same line; a body that is not a list (a proxy's page) is not going to fix itself;
  // a closed client stays closed.
  if (
    error instanceof ClientClosedError ||
    error instanceof WatchDecodeError ||
    error instanceof ResponseTooLargeError ||
    error instanceof UnexpectedResponseError
  )
    return false;
  // A 410 is answered by a re-list, which is a retry of its own.
  if (goneReason(error) !== undefined) return true;
  if (error instanceof WatchError) return RETRIABLE_STATUS.has(error.status) || RETRIABLE_REASONS.has(error.reason);
  if (isKubernetesApiError(error)) return RETRIABLE_STATUS.has(error.status);
  if (
    error instanceof WatchIdleTimeoutError ||
    error instanceof WatchClosedError ||
    error instanceof RequestTimeoutError
  )
    return true;
  // fetch and body-read failures: connection refused/reset, socket closed mid-stream ("terminated"), DNS, TLS.
  return true;
}

/** The server's Retry-After (Status.details.retryAfterSeconds or the header), in ms, when it gave a usable one. */
export function retryAfterMs(error: unknown): number | undefined {
  let seconds: number | undefined;
  if (isKubernetesApiError(error)) seconds = error.retryAfterSeconds;
  else if (error instanceof WatchError) seconds = error.statusObject.details?.retryAfterSeconds;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined;
}
