/**
 * The release-independent runtime of k8s-lease-client: `createClient`, the errors and their predicates, time
 * helpers, patch types, watches, informers, paginated lists, fetch middleware and leader election. Every release
 * entry (`k8s-lease-client`, `k8s-lease-client/v1.35`, …) re-exports all of it.
 *
 * @module k8s-lease-client/runtime
 */
export type {
  KubernetesApiErrorInit,
  KubernetesStatus,
  RequestContext,
  ResponseDecodeErrorInit,
  UnexpectedResponseErrorInit,
} from './errors.js';
export {
  ClientClosedError,
  ConnectionError,
  InvalidPathParameterError,
  isAlreadyExists,
  isBadRequest,
  isConflict,
  isForbidden,
  isGone,
  isInternalError,
  isInvalid,
  isKubernetesApiError,
  isNotFound,
  isServerTimeout,
  isServiceUnavailable,
  isTooManyRequests,
  isUnauthorized,
  KubernetesApiError,
  RequestTimeoutError,
  ResponseDecodeError,
  ResponseTooLargeError,
  UnexpectedResponseError,
} from './errors.js';
export { errorFromResponse } from './error-response.js';
export { humanDuration } from './human-duration.js';
export { DEFAULT_MAX_RESPONSE_BYTES, limitResponseBytes } from './limits.js';
export { nameSegment, namespaceSegment } from './path-segments.js';
export type { QueryValue } from './query.js';
export { encodeQuery } from './query.js';
export type { CombinedSignal } from './signals.js';
export { combineSignals } from './signals.js';
export { stream } from './stream.js';
export type { ApiResponse, ResponseOf } from './response.js';
export { requestWithResponse } from './response.js';
export type { MicroTime, ParsedMicroTime, Time } from './time.js';
export {
  asMicroTime,
  asTime,
  formatMicroTime,
  formatTime,
  isMicroTime,
  isTime,
  microTimeNow,
  parseMicroTime,
  parseTime,
  timeNow,
} from './time.js';
export type { CallOptions, Client, ClientOptions, HttpMethod, RequestSpec, TokenProvider } from './transport.js';
export { createClient } from './transport.js';
export * from './patch.js';
export * from './watch/index.js';
export * from './middleware/index.js';
export * from './leaderelection/index.js';
