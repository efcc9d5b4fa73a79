/**
 * Errors raised by the runtime, and predicates that classify Kubernetes API
 * failures the same way client-go's `k8s.io/apimachinery/pkg/api/errors` does.
 *
 * `status` means one thing on every error class that has it (KubernetesApiError,
 * ResponseDecodeError, the watch's WatchError): the HTTP status code, a number.
 * A Status object, where there is one, is `statusObject`. Errors that are not
 * about an HTTP status (timeouts, size limits, bad input, unexpected bodies)
 * have no `status`, so `error.status` reads `undefined` on them.
 */

/**
 * Structural view of `meta/v1 Status`. Every field is optional so that the
 * generated Status models of each release stay assignable to it.
 */
export interface KubernetesStatus {
  /** `Status`. */
  kind?: string;
  /** `v1`. */
  apiVersion?: string;
  /** List metadata; rarely set on a Status. */
  metadata?: {
    resourceVersion?: string;
    continue?: string;
    selfLink?: string;
    remainingItemCount?: number;
  };
  /** `Success` or `Failure`. */
  status?: string;
  /** Human-readable description of the failure. */
  message?: string;
  /** Machine-readable `metav1.StatusReason`, e.g. `NotFound`, `Conflict`, `AlreadyExists`; what the `is…` predicates read. */
  reason?: string;
  /** More about the failure: the object it concerns, field causes, and when to retry. */
  details?: {
    name?: string;
    group?: string;
    kind?: string;
    uid?: string;
    causes?: Array<{ reason?: string; message?: string; field?: string }>;
    retryAfterSeconds?: number;
  };
  /** The HTTP status code the server meant. */
  code?: number;
}

/**
 * Reasons synthesised when the body is not a Status, mirroring apimachinery's `NewGenericServerResponse`: the word at
 * index `status - 400`, none where it is empty. Space-separated words rather than an object keyed by status: every
 * bundle that can fail a request carries this, and the runs of gaps cost gzip next to nothing where the keys cost
 * ~25 B (test/k8s-lease-client/runtime/errors.test.ts pins every entry).
 */
const REASON_BY_HTTP_STATUS: readonly string[] =
  // 400–409
  (
    'BadRequest Unauthorized  Forbidden NotFound MethodNotAllowed NotAcceptable   Conflict ' +
    // 410–419
    'Gone     UnsupportedMediaType     ' +
    // 420–429
    '  Invalid       TooManyRequests ' +
    // 430–439
    '          ' +
    // 440–449
    '          ' +
    // 450–459
    '          ' +
    // 460–469
    '          ' +
    // 470–479
    '          ' +
    // 480–489
    '          ' +
    // 490–499
    '          ' +
    // 500–504
    'InternalError   ServiceUnavailable Timeout'
  ).split(' ');

/**
 * Every `metav1.StatusReason` Kubernetes defines. A reason outside this set
 * (e.g. from an aggregated API server or a proxy) says nothing, so the
 * predicates then fall back to the HTTP status, as apimachinery does.
 */
const KNOWN_REASONS: ReadonlySet<string> = new Set([
  'Unauthorized',
  'Forbidden',
  'NotFound',
  'AlreadyExists',
  'Conflict',
  'Gone',
  'Invalid',
  'ServerTimeout',
  'StoreReadError',
  'Timeout',
  'TooManyRequests',
  'BadRequest',
  'MethodNotAllowed',
  'NotAcceptable',
  'RequestEntityTooLarge',
  'UnsupportedMediaType',
  'InternalError',
  'Expired',
  'ServiceUnavailable',
]);

/**
 * The runtime is copied into every generated package, so an application can
 * hold several copies of this class; a registered symbol lets
 * `isKubernetesApiError` recognise errors from any copy, where `instanceof`
 * would not.
 */
const API_ERROR_BRAND: unique symbol = Symbol.for('lease-api-runtime.KubernetesApiError');

/** What a KubernetesApiError is made of; `errorFromResponse` builds it from a response. */
export interface KubernetesApiErrorInit {
  /** HTTP status code of the response. */
  status: number;
  /** HTTP method of the request. */
  method: string;
  /** URL of the request. */
  url: string;
  /** The response body, when it was a `Status` object. */
  statusObject?: KubernetesStatus | undefined;
  /** Raw response text; truncated to 4096 characters. */
  body?: string | undefined;
  /** Seconds the server asked the client to wait before retrying. */
  retryAfterSeconds?: number | undefined;
  /** HTTP reason phrase, used in the message when the body says nothing. */
  statusText?: string | undefined;
}

/**
 * The longest Status text (reason and message) a KubernetesApiError's message carries whole; a longer one is cut
 * there and ends in '…'. `statusObject.message` keeps all of it.
 */
const MAX_STATUS_MESSAGE = 4096;

// Fields below are `declare`d and set with Object.assign (from the init object
// where there is one): own properties like class fields, in less code for
// every bundle that can throw.

/**
 * A non-2xx response from the API server, which every generated operation rejects with. Classify it with the
 * predicates (`isNotFound`, `isConflict`, `isAlreadyExists`, …), which read `reason` and `status` as client-go's
 * `apimachinery/pkg/api/errors` does, and work across copies of the runtime where `instanceof` may not.
 *
 * @example
 * ```ts
 * try {
 *   await createNamespacedLease(client, { namespace: 'default', body: lease });
 * } catch (error) {
 *   if (!isAlreadyExists(error)) throw error;
 * }
 * ```
 */
export class KubernetesApiError extends Error {
  override readonly name = 'KubernetesApiError';
  /** HTTP status code (0 for a browser's opaque redirect). The parsed Status is `statusObject`. */
  declare readonly status: number;
  /** `Status.reason`, or a reason synthesised from the HTTP status when the body is not a Status. */
  declare readonly reason: string;
  /** The `Status` object the server answered with; undefined when the body was something else (a proxy's page, say). */
  declare readonly statusObject: KubernetesStatus | undefined;
  /** Raw response text, truncated to 4096 characters. */
  declare readonly body: string;
  /** HTTP method of the failed request. */
  declare readonly method: string;
  /** URL of the failed request. */
  declare readonly url: string;
  /** From `Status.details.retryAfterSeconds` or the `Retry-After` header. */
  declare readonly retryAfterSeconds: number | undefined;
  /** HTTP reason phrase of the response, when there was one. */
  declare readonly statusText: string | undefined;

  constructor(init: KubernetesApiErrorInit) {
    const { status, statusObject, body = '' } = init;
    // Only strings are read from the Status: a hostile or broken server's number, object or array (which may not even
    // convert to a string) must neither become error.reason nor throw here. Otherwise the HTTP status speaks.
    const reason = text(statusObject?.reason) || REASON_BY_HTTP_STATUS[status - 400] || 'Unknown';
    const detail = statusObject ? text(statusObject.message) : body || init.statusText;
    // The Status stays whole on `statusObject`; the message carries its text whole up to MAX_STATUS_MESSAGE (another
    // body only a 200-character excerpt), control characters escaped, reason included: what a server sends must
    // neither flood nor forge log lines.
    super(
      `${where(init)}${status} ${excerpt(`${reason}${detail ? `: ${detail}` : ''}`, statusObject ? MAX_STATUS_MESSAGE : 200)}`,
    );
    Object.assign(this, init, { reason, body: truncate(body) });
  }
}

// On the prototype, not the instance, so it stays out of the public type and of JSON/inspect output
// (symbol keys are never enumerated by for-in, Object.keys or JSON.stringify).
(KubernetesApiError.prototype as unknown as Record<symbol, boolean>)[API_ERROR_BRAND] = true;

/** A namespace or name that would not be a single, safe path segment. */
export class InvalidPathParameterError extends Error {
  override readonly name = 'InvalidPathParameterError';
  /** Which path parameter was refused. */
  declare readonly parameter: 'namespace' | 'name';
  /** The refused value. */
  declare readonly value: string;
  /** Why it was refused: the DNS-1123 rule (label or subdomain, maximum length) the value breaks. */
  declare readonly reason: string;

  constructor(parameter: 'namespace' | 'name', value: string, reason: string) {
    // JSON escaping makes control characters and trailing spaces visible in the message.
    super(`Invalid ${parameter} ${JSON.stringify(value.length > 80 ? `${truncate(value, 80)}…` : value)}: ${reason}`);
    Object.assign(this, { parameter, value, reason });
  }
}

/** The request an error is about, for its message and fields. */
export interface RequestContext {
  /** HTTP method of the request. */
  method: string;
  /** URL of the request. */
  url: string;
}

/**
 * The client-side timeout fired. Deliberately not an `AbortError`: an abort
 * requested by the caller rejects with the caller's own `signal.reason`, so
 * the two can always be told apart.
 */
export class RequestTimeoutError extends Error {
  override readonly name = 'RequestTimeoutError';
  /** The timeout that elapsed, in milliseconds. */
  declare readonly timeoutMs: number;
  /** HTTP method of the request that timed out, when known. */
  declare readonly method: string | undefined;
  /** URL of the request that timed out, when known. */
  declare readonly url: string | undefined;

  constructor(timeoutMs: number, context?: RequestContext) {
    super(`${where(context)}timed out after ${timeoutMs} ms`);
    Object.assign(this, { timeoutMs }, context);
  }
}

/** What a ResponseDecodeError is made of. */
export interface ResponseDecodeErrorInit {
  /** HTTP method of the request. */
  method: string;
  /** URL of the request. */
  url: string;
  /** HTTP status code of the (2xx) response. */
  status: number;
  /** The response text that is not JSON. */
  body: string;
  /** The JSON parser's error. */
  cause?: unknown;
}

/** A 2xx response whose body is not JSON, typically a misconfigured proxy or baseUrl. */
export class ResponseDecodeError extends Error {
  override readonly name = 'ResponseDecodeError';
  /** HTTP status code of the (2xx) response. */
  declare readonly status: number;
  /** HTTP method of the request. */
  declare readonly method: string;
  /** URL of the request. */
  declare readonly url: string;
  /** Raw response text, truncated to 4096 characters. */
  declare readonly body: string;

  constructor(init: ResponseDecodeErrorInit) {
    // The words inside the excerpt, as ConnectionError's: one bounded, escaped text after the status line.
    super(`${where(init)}${init.status} ${excerpt(`body is not JSON: ${init.body}`)}`, {
      cause: init.cause,
    });
    Object.assign(this, init, { body: truncate(init.body) });
  }
}

/** What an UnexpectedResponseError is made of. */
export interface UnexpectedResponseErrorInit {
  /** HTTP method of the request. */
  method: string;
  /** URL of the request. */
  url: string;
  /** What was wrong: `notAList`, a LIST answered with JSON that is not a `*List` (an object whose `items` is an array or absent). */
  kind: 'notAList';
  /** What came instead, by JSON type (`string`, `array`, `null`, `object with non-array items`, …); never the body's text. */
  received: string;
}

/**
 * A 2xx response whose JSON is not the shape the call needs, typically a proxy or a wrong baseUrl answering
 * with something else. Not retried by watches: the same request would get the same answer. No `status`.
 */
export class UnexpectedResponseError extends Error {
  override readonly name = 'UnexpectedResponseError';
  /** What was wrong: `notAList`, a LIST answered with JSON that is not a `*List`. */
  declare readonly kind: 'notAList';
  /** What came instead, by JSON type (`string`, `array`, `null`, …); never the body's text. */
  declare readonly received: string;
  /** HTTP method of the request. */
  declare readonly method: string;
  /** URL of the request. */
  declare readonly url: string;

  constructor(init: UnexpectedResponseErrorInit) {
    super(`${where(init)}LIST response is not a list object: got ${init.received}`);
    Object.assign(this, init);
  }
}

/** A response body (limitResponseBytes) or a watch line (maxLineBytes) larger than its limit; the body was cancelled. */
export class ResponseTooLargeError extends Error {
  override readonly name = 'ResponseTooLargeError';
  /** The limit to raise: `maxResponseBytes` (limitResponseBytes) or `maxLineBytes` (watch, readNdjson). */
  declare readonly limit: string;
  /** The limit that was passed, in bytes. */
  declare readonly maxBytes: number;
  /** HTTP method of the request, when known. */
  declare readonly method: string | undefined;
  /** URL of the request, when known. */
  declare readonly url: string | undefined;

  constructor(limit: string, maxBytes: number, context?: RequestContext) {
    super(`${where(context)}response exceeds ${limit} (${maxBytes} bytes)`);
    Object.assign(this, { limit, maxBytes }, context);
  }
}

/**
 * The request never got an HTTP answer: connection refused or reset, DNS, TLS, or the connection lost while the
 * body was read. Raised by the transport in place of the platform fetch's TypeError, whose text says neither
 * the method nor the URL and differs in every runtime (Node's "fetch failed", Deno's "error sending request",
 * Bun's "Unable to connect", Chromium's "Failed to fetch"); that error stays the `cause`. A TypeError itself, as
 * fetch's own network errors are, so code that already treats those as retriable keeps doing so.
 */
export class ConnectionError extends TypeError {
  override readonly name = 'ConnectionError';
  /** HTTP method of the request. */
  declare readonly method: string;
  /**
   * The request's URL without its query: the query says nothing about why a server could not be reached and
   * is the one place a secret could travel (a baseUrl with credentials, query or fragment is refused).
   */
  declare readonly url: string;

  constructor(context: RequestContext, cause: unknown) {
    const url = withoutQuery(context.url);
    const error = cause as { message?: unknown; cause?: { message?: unknown; code?: unknown } } | undefined;
    // Node's "fetch failed" says nothing without its cause ("connect ECONNREFUSED 127.0.0.1:6443", or just the
    // code of an AggregateError). Deno's message quotes the URL: shortened like ours.
    const inner = text(error?.cause?.message) || text(error?.cause?.code);
    const detail = `${text(error?.message) || 'network error'}${inner && ` (${inner})`}`.split(context.url).join(url);
    // The whole origin, unlike the other errors' messages: which server could not be reached is the point.
    super(`${context.method} ${url}: ${excerpt(`connection failed: ${detail}`)}`, { cause });
    Object.assign(this, { method: context.method, url });
  }
}

/**
 * A request made through a client (or a fetch) that was closed: nothing is sent. The core client has no
 * close of its own; a fetch with a connection pool (k8s-lease-client-node's) throws this for requests made,
 * or still running, after its close(), rather than the pool's own "destroyed" error.
 */
export class ClientClosedError extends Error {
  override readonly name = 'ClientClosedError';
  /** HTTP method of the request. */
  declare readonly method: string;
  /** The request's URL without its query. */
  declare readonly url: string;

  constructor(context: RequestContext) {
    const url = withoutQuery(context.url);
    super(`${context.method} ${url}: the client was closed`);
    Object.assign(this, { method: context.method, url });
  }
}

/** `url` without its query and fragment (see ConnectionError.url). */
function withoutQuery(url: string): string {
  return url.replace(/[?#].*/, '');
}

/**
 * Whether `error` is a KubernetesApiError, from this copy of the runtime or any other (each generated package
 * carries its own, so `instanceof` alone can miss). Narrows the type.
 */
export function isKubernetesApiError(error: unknown): error is KubernetesApiError {
  if (error instanceof KubernetesApiError) return true;
  return typeof error === 'object' && error !== null && Reflect.get(error, API_ERROR_BRAND) === true;
}

/** 404 `NotFound`: the object (or namespace, or API) does not exist. As apimachinery's `IsNotFound`. */
export function isNotFound(error: unknown): error is KubernetesApiError {
  return matches(error, 404, 'NotFound');
}

/** Create of an object that already exists. Only the Status reason tells it apart from a Conflict. */
export function isAlreadyExists(error: unknown): error is KubernetesApiError {
  return isKubernetesApiError(error) && error.status === 409 && error.reason === 'AlreadyExists';
}

/** Optimistic-concurrency failure (stale resourceVersion): re-read and retry. */
export function isConflict(error: unknown): error is KubernetesApiError {
  return matches(error, 409, 'Conflict');
}

/** 422 `Invalid`: the object failed validation; `statusObject.details.causes` names the fields. */
export function isInvalid(error: unknown): error is KubernetesApiError {
  return matches(error, 422, 'Invalid');
}

/** 403 `Forbidden`: authenticated, but RBAC (or an admission plugin) refused the request. */
export function isForbidden(error: unknown): error is KubernetesApiError {
  return matches(error, 403, 'Forbidden');
}

/** 401 `Unauthorized`: no or bad credentials (an expired token, say). */
export function isUnauthorized(error: unknown): error is KubernetesApiError {
  return matches(error, 401, 'Unauthorized');
}

/** Any 429, whatever its reason, as apimachinery's `IsTooManyRequests`. */
export function isTooManyRequests(error: unknown): error is KubernetesApiError {
  return isKubernetesApiError(error) && (error.status === 429 || error.reason === 'TooManyRequests');
}

/** 410: the requested resourceVersion is too old (`Expired`) or gone; a watch must re-list. */
export function isGone(error: unknown): error is KubernetesApiError {
  return (
    matches(error, 410, 'Gone') || (isKubernetesApiError(error) && error.status === 410 && error.reason === 'Expired')
  );
}

/** 400 `BadRequest`: the request itself was malformed (a bad patch, selector or query parameter). */
export function isBadRequest(error: unknown): error is KubernetesApiError {
  return matches(error, 400, 'BadRequest');
}

/**
 * The server gave up on the request: `ServerTimeout` (usually a 500 carrying
 * `retryAfterSeconds`) or `Timeout` (504). Both are safe to retry later, so
 * callers rarely need to distinguish them.
 */
export function isServerTimeout(error: unknown): error is KubernetesApiError {
  if (!isKubernetesApiError(error)) return false;
  return error.reason === 'ServerTimeout' || error.reason === 'Timeout' || matches(error, 504, 'Timeout');
}

/** 500 `InternalError`: the server failed; often worth a retry with backoff. */
export function isInternalError(error: unknown): error is KubernetesApiError {
  return matches(error, 500, 'InternalError');
}

/** 503 `ServiceUnavailable`: the server (or an aggregated API behind it) cannot serve now; retry later. */
export function isServiceUnavailable(error: unknown): error is KubernetesApiError {
  return matches(error, 503, 'ServiceUnavailable');
}

function matches(error: unknown, httpStatus: number, reason: string): error is KubernetesApiError {
  if (!isKubernetesApiError(error) || error.status !== httpStatus) return false;
  return error.reason === reason || !KNOWN_REASONS.has(error.reason);
}

/**
 * `GET /path?query: `, the start of every request error's message ('' for an error raised outside a request): the origin is
 * the same for every call and only makes messages longer.
 */
function where(context: RequestContext | undefined): string {
  return context ? `${context.method} ${context.url.replace(/^[^/]*:\/\/[^/]*/, '') || '/'}: ` : '';
}

/** Enough of a non-Status body (or a bad watch line) to recognise it — an HTML title, a proxy message — without flooding a log line. */
export function excerpt(body: string, maxChars = 200): string {
  // Bounded slice first so a multi-megabyte error page costs no more than a short one.
  // Runs of spaces and tabs fold into one space; line breaks, other control characters (ANSI escapes) and format
  // characters (bidi overrides) are percent-escaped: a server's text can neither forge a log line nor restyle or
  // reorder a terminal.
  const collapsed = body
    .slice(0, maxChars * 4)
    .replace(/[^\S\r\n]+/g, ' ')
    .trim()
    .replace(/[\p{Cc}\p{Cf}]/gu, encodeURI);
  // Judged by the source's length: escaping lengthens a short text at most twelvefold, and a cut text always says so.
  return body.length > maxChars ? `${truncate(collapsed, maxChars)}…` : collapsed;
}

/** `value` when it is a string, else '': what a server sent in a field that should hold text is only used if it does. */
function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Error bodies can be whole HTML pages from proxies; keeping all of it in memory (and logs) helps nobody. */
function truncate(text: string, maxChars = 4096): string {
  // Never cut a surrogate pair in half, which would leave an invalid string behind.
  return text.slice(0, maxChars).replace(/[\ud800-\udbff]$/, '');
}
