/**
 * `withRetries`: a fetch wrapper that retries idempotent requests the API
 * server could not serve (throttled, unavailable, timed out, connection
 * reset). Lives outside the transport so that bundles which never import it
 * pay nothing for it.
 */

import { requestMethod, requestSignal, requestUrl, safeUrl, watchRequested } from './request.js';

/** What `RetryOptions.onRetry` is told before each retry. */
export interface RetryEvent {
  /** 1 for the first retry. */
  attempt: number;
  /** How long the wrapper waits before sending the request again. */
  delayMs: number;
  /** HTTP method of the retried request. */
  method: string;
  /** Without query string, fragment or credentials. */
  url: string;
  /** The StatusReason of the response (`TooManyRequests`, `ServiceUnavailable`, `Timeout`, `InternalError`) or the error code of the connection failure (`ECONNRESET`…). */
  reason: string;
}

/**
 * A retry budget shared by every request through one wrapper, as gRPC's retry
 * throttling: each retryable failure takes a token, each other outcome gives
 * back `tokenRatio`; retries stop while at most half of `maxTokens` is left,
 * so a server in trouble sees its load shrink instead of multiply.
 */
export interface RetryBudget {
  /** Size of the bucket, which starts full. */
  maxTokens: number;
  /** Tokens a request that needed no retry gives back (a fraction of one). */
  tokenRatio: number;
}

/** Options of `withRetries` (and `ApiMiddlewareOptions.retries`): how often, how long to wait, and the shared budget. */
export interface RetryOptions {
  /** Retries per request; client-go's default (rest.Request's maxRetries) is 10. */
  maxRetries?: number | undefined;
  /** First backoff; doubled per retry. Default 1000 (client-go's retry delay after a connection reset is 1 s). */
  baseDelayMs?: number | undefined;
  /**
   * Ceiling of every single wait. A server asking (Retry-After) for longer is
   * not retried: its answer goes back to the caller, whose error carries
   * `retryAfterSeconds`. Default 30000.
   */
  maxDelayMs?: number | undefined;
  /** Shared by all requests through this wrapper; `false` disables it. Default `{ maxTokens: 10, tokenRatio: 0.1 }`. */
  budget?: RetryBudget | false | undefined;
  /** Called before each retry, e.g. to log or count it. */
  onRetry?: ((event: RetryEvent) => void) | undefined;
  /** Injected in tests; must reject with `signal.reason` once `signal` aborts. */
  sleep?: ((ms: number, signal: AbortSignal | undefined) => Promise<void>) | undefined;
  /** Returns [0, 1); for the jitter. */
  random?: (() => number) | undefined;
  /** Milliseconds since the epoch; for Retry-After given as an HTTP date. */
  now?: (() => number) | undefined;
}

const RETRYABLE_CONNECTION_ERRORS: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'EPIPE',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
]);

/** What a body is read for (a Status, a short proxy page) before it is cancelled instead. */
const DRAIN_LIMIT_BYTES = 16 * 1024;

/**
 * Wraps `fetchImpl` so idempotent requests are retried with capped
 * exponential backoff and jitter, honouring `Retry-After`. A create (POST), an
 * unconditional write and a watch are never retried.
 */
export function withRetries(fetchImpl: typeof fetch, options: RetryOptions = {}): typeof fetch {
  const loop = retryLoop(options);
  return async (input, init) => {
    const method = requestMethod(input, init);
    const url = requestUrl(input);
    const kind = retryKind(method, url, init?.body);
    const attempt = (): Promise<Response> => fetchImpl(input, init);
    return kind === undefined ? attempt() : loop(attempt, kind, method, url, requestSignal(input, init));
  };
}

/** One request's attempts: `attempt` sends it once; the loop decides, waits and sends again. */
export type RetryLoop = (
  attempt: () => Promise<Response>,
  kind: RetryKind,
  method: string,
  url: string,
  signal: AbortSignal | undefined,
) => Promise<Response>;

/** The retry decisions of `withRetries`, with the budget shared by every request given to the returned loop. */
export function retryLoop(options: RetryOptions = {}): RetryLoop {
  const {
    maxRetries = 10,
    baseDelayMs = 1000,
    maxDelayMs = 30_000,
    budget = { maxTokens: 10, tokenRatio: 0.1 },
    onRetry,
    sleep = abortableSleep,
    random = Math.random,
    now = Date.now,
  } = options;
  let tokens = budget ? budget.maxTokens : 0;
  const spend = (): boolean => {
    if (!budget) return true;
    tokens = Math.max(0, tokens - 1);
    return tokens > budget.maxTokens / 2;
  };
  const refund = (): void => {
    if (budget) tokens = Math.min(budget.maxTokens, tokens + budget.tokenRatio);
  };

  return async (attempt, kind, method, url, signal) => {
    for (let count = 1; ; count++) {
      let response: Response;
      try {
        response = await attempt();
      } catch (error) {
        // An abort is the caller's decision; and after a reset, only a read is known not to have been applied.
        const code = signal?.aborted || kind !== 'read' ? undefined : connectionErrorCode(error);
        if (code === undefined || count > maxRetries || !spend()) throw error;
        const delayMs = backoff(count, baseDelayMs, maxDelayMs, random);
        onRetry?.({ attempt: count, delayMs, method, url: safeUrl(url), reason: code });
        await sleep(delayMs, signal);
        continue;
      }
      const reason = retryableStatus(response, kind);
      if (reason === undefined) {
        refund();
        return response;
      }
      if (count > maxRetries || !spend()) return response;
      const serverDelayMs = await retryAfterMs(response, now);
      if (serverDelayMs !== undefined && serverDelayMs > maxDelayMs) return response;
      const delayMs = Math.max(serverDelayMs ?? 0, backoff(count, baseDelayMs, maxDelayMs, random));
      await drain(response);
      onRetry?.({ attempt: count, delayMs, method, url: safeUrl(url), reason });
      await sleep(delayMs, signal);
    }
  };
}

export type RetryKind = 'read' | 'conditional-write';

/**
 * Reads (GET, not a watch), and writes guarded by a resourceVersion
 * precondition. Anything else may have been applied by the time it fails, and
 * sending it again would apply it twice.
 */
export function retryKind(method: string, url: string, body: unknown): RetryKind | undefined {
  switch (method) {
    case 'GET':
      // The watch runtime reconnects on its own, from the last resourceVersion it saw.
      return isWatch(url) ? undefined : 'read';
    case 'PUT':
    case 'PATCH':
    case 'DELETE':
      return hasResourceVersionPrecondition(method, body) ? 'conditional-write' : undefined;
    default:
      return undefined;
  }
}

/**
 * `?watch=` as apimachinery's Convert_Slice_string_To_bool reads it (present
 * and neither "0" nor "false"), or a legacy `/watch/` path.
 */
export function isWatch(url: string): boolean {
  // Neither a `watch` parameter nor a /watch/ path, nor a percent-escape that could spell one: the common case,
  // without parsing the URL.
  if (!url.includes('watch') && !url.includes('%')) return false;
  let parsed: URL;
  try {
    parsed = new URL(url, 'http://localhost');
  } catch {
    return false;
  }
  return (
    watchRequested(parsed.searchParams) || /\/(?:api\/[^/]+|apis\/[^/]+\/[^/]+)\/watch(?:\/|$)/.test(parsed.pathname)
  );
}

function hasResourceVersionPrecondition(method: string, body: unknown): boolean {
  // A stream or FormData cannot be sent twice, and a body that is not JSON (YAML apply) is not inspected.
  if (typeof body !== 'string') return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return false;
  }
  if (method === 'DELETE') return nonEmpty(field(field(parsed, 'preconditions'), 'resourceVersion'));
  if (method === 'PATCH' && Array.isArray(parsed)) {
    // A JSON patch that writes metadata.resourceVersion makes the API server check it, as a merge patch does.
    return parsed.some(
      (op: unknown) =>
        (field(op, 'op') === 'add' || field(op, 'op') === 'replace') &&
        field(op, 'path') === '/metadata/resourceVersion' &&
        nonEmpty(field(op, 'value')),
    );
  }
  return nonEmpty(field(field(parsed, 'metadata'), 'resourceVersion'));
}

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.hasOwn(value, name)
    ? Reflect.get(value, name)
    : undefined;
}

function nonEmpty(value: unknown): boolean {
  return typeof value === 'string' && value !== '';
}

/**
 * As client-go's checkWait: a 429, or any 5xx carrying Retry-After; besides,
 * 503 and 504 without it. A write is retried only after 429 and 503, which
 * say the request was not served: a 504 (or 500 ServerTimeout) may come
 * after the write was committed, and sending it again would then fail with a
 * Conflict on a change that was in fact applied.
 */
function retryableStatus(response: Response, kind: RetryKind): string | undefined {
  const { status } = response;
  if (status === 429) return 'TooManyRequests';
  if (status === 503) return 'ServiceUnavailable';
  if (kind !== 'read') return undefined;
  if (status === 504) return 'Timeout';
  if (status >= 500 && response.headers.has('retry-after')) return 'InternalError';
  return undefined;
}

/** How deep a cause chain is followed: wrappers add a level or two; a cyclic or hostile chain must not loop. */
const MAX_CAUSE_DEPTH = 8;

/**
 * The code of a broken connection (client-go: IsConnectionReset, IsProbableEOF), on the error or along its
 * `cause` chain: undici puts it on fetch's TypeError's cause, wrappers such as the Node package's
 * ClusterConnectionError put it on the error itself.
 */
function connectionErrorCode(error: unknown): string | undefined {
  if (!(error instanceof TypeError)) return undefined;
  let current: unknown = error;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH && typeof current === 'object' && current !== null; depth++) {
    const code = field(current, 'code');
    if (typeof code === 'string' && RETRYABLE_CONNECTION_ERRORS.has(code)) return code;
    current = field(current, 'cause');
  }
  return undefined;
}

/**
 * The server's wish in ms: the Retry-After header (delay-seconds or
 * HTTP-date, RFC 9110), else a 429 Status's `details.retryAfterSeconds`
 * (read from a clone, so the response stays intact for the caller).
 */
async function retryAfterMs(response: Response, now: () => number): Promise<number | undefined> {
  const header = response.headers.get('retry-after')?.trim();
  if (header) {
    if (/^\d+$/.test(header)) return Number(header) * 1000;
    const date = Date.parse(header);
    if (Number.isFinite(date)) return Math.max(0, date - now());
  }
  if (response.status !== 429) return undefined;
  const text = await readBounded(response.clone());
  let seconds: unknown;
  try {
    seconds = field(field(JSON.parse(text ?? ''), 'details'), 'retryAfterSeconds');
  } catch {
    return undefined;
  }
  return typeof seconds === 'number' && Number.isSafeInteger(seconds) && seconds > 0 ? seconds * 1000 : undefined;
}

/**
 * Capped exponential backoff (client-go's flowcontrol.Backoff doubles up to a
 * maximum) with jitter subtracted rather than added, up to half the delay, so
 * that `maxDelayMs` stays a true ceiling while clients that failed together
 * still spread out.
 */
export function backoff(attempt: number, baseDelayMs: number, maxDelayMs: number, random: () => number): number {
  const capped = Math.min(maxDelayMs, baseDelayMs * 2 ** Math.min(attempt - 1, 30));
  return Math.round(capped * (1 - random() / 2));
}

/** The body of a response that will not be returned: read when small, so the connection can serve the next attempt; cancelled when not. */
async function drain(response: Response): Promise<void> {
  await readBounded(response).catch(() => undefined);
}

/** The body as text when it is at most DRAIN_LIMIT_BYTES; undefined (and the rest cancelled) otherwise. */
async function readBounded(response: Response): Promise<string | undefined> {
  const reader = response.body?.getReader();
  if (reader === undefined) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > DRAIN_LIMIT_BYTES) {
        await reader.cancel();
        return undefined;
      }
      chunks.push(value);
    }
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

function abortableSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
