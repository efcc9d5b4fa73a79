/**
 * Errors raised by the runtime, and predicates that classify Kubernetes API
 * failures the same way client-go's `k8s.io/apimachinery/pkg/api/errors` does.
 */

/**
 * Structural view of `meta/v1 Status`. Every field is optional so that the
 * generated Status models of each release stay assignable to it.
 */
export interface KubernetesStatus {
  kind?: string;
  apiVersion?: string;
  metadata?: {
    resourceVersion?: string;
    continue?: string;
    selfLink?: string;
    remainingItemCount?: number;
  };
  status?: string;
  message?: string;
  reason?: string;
  details?: {
    name?: string;
    group?: string;
    kind?: string;
    uid?: string;
    causes?: Array<{ reason?: string; message?: string; field?: string }>;
    retryAfterSeconds?: number;
  };
  code?: number;
}

/** Error bodies can be whole HTML pages from proxies; keeping all of it in memory (and logs) helps nobody. */
const MAX_BODY_CHARS = 4096;
/** Enough of a non-Status body to recognise it (an HTML title, a proxy message) without flooding a log line. */
const MAX_EXCERPT_CHARS = 200;

/** Reasons synthesised when the body is not a Status, mirroring apimachinery's `NewGenericServerResponse`. */
const REASON_BY_HTTP_STATUS: Readonly<Partial<Record<number, string>>> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  406: 'NotAcceptable',
  409: 'Conflict',
  410: 'Gone',
  415: 'UnsupportedMediaType',
  422: 'Invalid',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

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

export interface KubernetesApiErrorInit {
  /** HTTP status code of the response. */
  status: number;
  method: string;
  url: string;
  statusObject?: KubernetesStatus | undefined;
  /** Raw response text; truncated to 4096 characters. */
  body?: string | undefined;
  retryAfterSeconds?: number | undefined;
  /** HTTP reason phrase, used in the message when the body says nothing. */
  statusText?: string | undefined;
}

/** A non-2xx response from the API server. */
export class KubernetesApiError extends Error {
  override readonly name = 'KubernetesApiError';
  /** HTTP status code. */
  readonly status: number;
  /** `Status.reason`, or a reason synthesised from the HTTP status when the body is not a Status. */
  readonly reason: string;
  readonly statusObject: KubernetesStatus | undefined;
  /** Raw response text, truncated to 4096 characters. */
  readonly body: string;
  readonly method: string;
  readonly url: string;
  /** From `Status.details.retryAfterSeconds` or the `Retry-After` header. */
  readonly retryAfterSeconds: number | undefined;

  constructor(init: KubernetesApiErrorInit) {
    const statusObject = init.statusObject;
    const body = init.body ?? '';
    const reason = nonEmptyString(statusObject?.reason) ?? synthesiseReason(init.status);
    const detail =
      statusObject !== undefined
        ? nonEmptyString(statusObject.message) ?? ''
        : excerpt(body) || (init.statusText ?? '');
    super(`${init.method} ${displayPath(init.url)}: ${init.status} ${reason}${detail === '' ? '' : `: ${detail}`}`);
    this.status = init.status;
    this.reason = reason;
    this.statusObject = statusObject;
    this.body = truncate(body, MAX_BODY_CHARS);
    this.method = init.method;
    this.url = init.url;
    this.retryAfterSeconds = init.retryAfterSeconds;
  }
}

// On the prototype, not the instance, so it stays out of the public type and of JSON/inspect output.
Object.defineProperty(KubernetesApiError.prototype, API_ERROR_BRAND, { value: true });

/** A namespace or name that would not be a single, safe path segment. */
export class InvalidPathParameterError extends Error {
  override readonly name = 'InvalidPathParameterError';
  readonly parameter: 'namespace' | 'name';
  readonly value: string;
  readonly reason: string;

  constructor(parameter: 'namespace' | 'name', value: string, reason: string) {
    super(`Invalid ${parameter} ${quote(value)}: ${reason}`);
    this.parameter = parameter;
    this.value = value;
    this.reason = reason;
  }
}

export interface RequestContext {
  method: string;
  url: string;
}

/**
 * The client-side timeout fired. Deliberately not an `AbortError`: an abort
 * requested by the caller rejects with the caller's own `signal.reason`, so
 * the two can always be told apart.
 */
export class RequestTimeoutError extends Error {
  override readonly name = 'RequestTimeoutError';
  readonly timeoutMs: number;
  readonly method: string | undefined;
  readonly url: string | undefined;

  constructor(timeoutMs: number, context?: RequestContext) {
    super(
      context === undefined
        ? `Request timed out after ${timeoutMs} ms`
        : `${context.method} ${displayPath(context.url)}: request timed out after ${timeoutMs} ms`,
    );
    this.timeoutMs = timeoutMs;
    this.method = context?.method;
    this.url = context?.url;
  }
}

export interface ResponseDecodeErrorInit {
  method: string;
  url: string;
  status: number;
  body: string;
  cause?: unknown;
}

/** A 2xx response whose body is not JSON, typically a misconfigured proxy or baseUrl. */
export class ResponseDecodeError extends Error {
  override readonly name = 'ResponseDecodeError';
  readonly status: number;
  readonly method: string;
  readonly url: string;
  /** Raw response text, truncated to 4096 characters. */
  readonly body: string;

  constructor(init: ResponseDecodeErrorInit) {
    super(
      `${init.method} ${displayPath(init.url)}: ${init.status} response is not valid JSON: ${excerpt(init.body) || '(empty)'}`,
      { cause: init.cause },
    );
    this.status = init.status;
    this.method = init.method;
    this.url = init.url;
    this.body = truncate(init.body, MAX_BODY_CHARS);
  }
}

/**
 * Builds the error for a non-2xx response. Always consumes the body, which is
 * what lets the connection go back to the keep-alive pool.
 */
export async function errorFromResponse(method: string, url: string, response: Response): Promise<KubernetesApiError> {
  let body = '';
  try {
    body = await response.text();
  } catch {
    // Aborted or already-consumed body: the status line alone still makes a useful error.
  }
  const statusObject = parseStatus(body);
  return new KubernetesApiError({
    status: response.status,
    statusText: response.statusText,
    method,
    url,
    statusObject,
    body,
    retryAfterSeconds: retryAfterFrom(statusObject, response.headers.get('retry-after')),
  });
}

export function isKubernetesApiError(error: unknown): error is KubernetesApiError {
  if (error instanceof KubernetesApiError) return true;
  return typeof error === 'object' && error !== null && Reflect.get(error, API_ERROR_BRAND) === true;
}

export function isNotFound(error: unknown): boolean {
  return matches(error, 404, 'NotFound');
}

/** Create of an object that already exists. Only the Status reason tells it apart from a Conflict. */
export function isAlreadyExists(error: unknown): boolean {
  return isKubernetesApiError(error) && error.status === 409 && error.reason === 'AlreadyExists';
}

/** Optimistic-concurrency failure (stale resourceVersion): re-read and retry. */
export function isConflict(error: unknown): boolean {
  return matches(error, 409, 'Conflict');
}

export function isInvalid(error: unknown): boolean {
  return matches(error, 422, 'Invalid');
}

export function isForbidden(error: unknown): boolean {
  return matches(error, 403, 'Forbidden');
}

export function isUnauthorized(error: unknown): boolean {
  return matches(error, 401, 'Unauthorized');
}

/** Any 429, whatever its reason, as apimachinery's `IsTooManyRequests`. */
export function isTooManyRequests(error: unknown): boolean {
  return isKubernetesApiError(error) && (error.status === 429 || error.reason === 'TooManyRequests');
}

/** 410: the requested resourceVersion is too old (`Expired`) or gone; a watch must re-list. */
export function isGone(error: unknown): boolean {
  return matches(error, 410, 'Gone') || (isKubernetesApiError(error) && error.status === 410 && error.reason === 'Expired');
}

export function isBadRequest(error: unknown): boolean {
  return matches(error, 400, 'BadRequest');
}

/**
 * The server gave up on the request: `ServerTimeout` (usually a 500 carrying
 * `retryAfterSeconds`) or `Timeout` (504). Both are safe to retry later, so
 * callers rarely need to distinguish them.
 */
export function isServerTimeout(error: unknown): boolean {
  if (!isKubernetesApiError(error)) return false;
  return error.reason === 'ServerTimeout' || error.reason === 'Timeout' || matches(error, 504, 'Timeout');
}

export function isInternalError(error: unknown): boolean {
  return matches(error, 500, 'InternalError');
}

export function isServiceUnavailable(error: unknown): boolean {
  return matches(error, 503, 'ServiceUnavailable');
}

function matches(error: unknown, httpStatus: number, reason: string): boolean {
  if (!isKubernetesApiError(error) || error.status !== httpStatus) return false;
  return error.reason === reason || !KNOWN_REASONS.has(error.reason);
}

function synthesiseReason(httpStatus: number): string {
  return REASON_BY_HTTP_STATUS[httpStatus] ?? 'Unknown';
}

function parseStatus(body: string): KubernetesStatus | undefined {
  // Cheap pre-check: most non-Status bodies (HTML, plain text) would otherwise cost a thrown SyntaxError.
  if (!body.trimStart().startsWith('{')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Reflect.get(parsed, 'kind') !== 'Status') return undefined;
  return parsed as KubernetesStatus;
}

function retryAfterFrom(statusObject: KubernetesStatus | undefined, header: string | null): number | undefined {
  const fromStatus = statusObject?.details?.retryAfterSeconds;
  if (typeof fromStatus === 'number' && Number.isFinite(fromStatus) && fromStatus > 0) return fromStatus;
  if (header === null) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  // RFC 9110 also allows an HTTP-date; Kubernetes sends seconds, but proxies in front of it may not.
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Path and query only: the origin is the same for every call and only makes messages longer. */
function displayPath(url: string): string {
  const schemeEnd = url.indexOf('://');
  if (schemeEnd === -1) return url;
  const pathStart = url.indexOf('/', schemeEnd + 3);
  return pathStart === -1 ? '/' : url.slice(pathStart);
}

function excerpt(body: string): string {
  // Bounded slice first so a multi-megabyte error page costs no more than a short one.
  const head = body.slice(0, MAX_EXCERPT_CHARS * 4);
  const collapsed = head.replace(/\s+/g, ' ').trim();
  if (collapsed.length <= MAX_EXCERPT_CHARS && head.length === body.length) return collapsed;
  return `${truncate(collapsed, MAX_EXCERPT_CHARS)}…`;
}

function truncate(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  // Never cut a surrogate pair in half, which would leave an invalid string behind.
  const last = text.charCodeAt(maxChars - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? maxChars - 1 : maxChars);
}

function quote(value: string): string {
  const shown = value.length > 80 ? `${value.slice(0, 80)}…` : value;
  // JSON escaping makes control characters and trailing spaces visible in the message.
  return JSON.stringify(shown);
}
