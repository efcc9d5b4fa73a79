/**
 * The HTTP transport every generated client calls. Built on the platform
 * `fetch` only, and kept deliberately thin: retries, auth providers, proxies
 * or a Node dispatcher plug in through `fetch`, `token` and `init` rather than
 * through code here.
 */

import { errorFromResponse, isKubernetesApiError, RequestTimeoutError, ResponseDecodeError } from './errors.js';
import { combineSignals } from './signals.js';
import type { CombinedSignal } from './signals.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** A bearer token, or a function called before every request so rotated tokens are picked up. */
export type TokenProvider = string | (() => string | Promise<string>);

export interface ClientOptions {
  /** API server origin, e.g. `http://127.0.0.1:8080`; a trailing slash is tolerated. */
  baseUrl: string;
  /** Sent with every request. Names are case-insensitive; per-call headers win over these. */
  headers?: Record<string, string>;
  /** Sent as `Authorization: Bearer …`. */
  token?: TokenProvider;
  /**
   * Custom fetch (tests, proxies, undici with a dispatcher, retry wrappers).
   * Defaults to `globalThis.fetch`, looked up per call. It receives
   * `init.headers` as a plain object that may be shared between requests and
   * is frozen: a wrapper that adds headers must copy it.
   */
  fetch?: typeof fetch;
  /**
   * Default per-call timeout in ms; `undefined` means none. It bounds the
   * HTTP exchange: until the body is read for `request`, until the headers
   * arrive for `stream`. It does not bound the token provider.
   */
  timeoutMs?: number;
  /** Extra RequestInit merged into every request, e.g. `{ dispatcher }` for undici. */
  init?: Omit<RequestInit, 'method' | 'body' | 'headers' | 'signal'>;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Overrides `ClientOptions.timeoutMs` for this call. */
  timeoutMs?: number;
  headers?: Record<string, string>;
}

export interface RequestSpec {
  method: HttpMethod;
  /** Already built and encoded; starts with '/'. */
  path: string;
  /** Already encoded by encodeQuery: '' or '?…'. */
  query?: string;
  /** Already serialised. */
  body?: string;
  /** Defaults to `application/json` when there is a body. */
  contentType?: string;
  /** Defaults to `application/json`. */
  accept?: string;
}

export interface Client {
  readonly baseUrl: string;
  /** Sends the request, returns the parsed JSON body of a 2xx (undefined for an empty body); throws KubernetesApiError for non-2xx. */
  request<T>(spec: RequestSpec, options?: CallOptions): Promise<T>;
  /**
   * Sends the request and returns the raw 2xx Response (for streaming
   * watches); throws KubernetesApiError for non-2xx. The caller owns the body
   * and must read it to the end or cancel it. The timeout only covers the
   * wait for the response headers; the caller's signal keeps aborting the
   * body. When both a signal and a timeout apply, the returned Response wraps
   * the original body (same status and headers; `url` and `redirected` are
   * not carried over) so the signal can be released when the body ends.
   */
  stream(spec: RequestSpec, options?: CallOptions): Promise<Response>;
}

const DEFAULT_ACCEPT = 'application/json';
const DEFAULT_CONTENT_TYPE = 'application/json';

export function createClient(options: ClientOptions): Client {
  const baseUrl = normaliseBaseUrl(options.baseUrl);
  const customFetch = options.fetch;
  const defaultTimeoutMs = options.timeoutMs;
  // Fail at construction rather than on the first request, far from the configuration mistake.
  if (defaultTimeoutMs !== undefined) combineSignals(undefined, defaultTimeoutMs).dispose();
  const extraInit = options.init;
  const token = options.token;
  const tokenProvider = typeof token === 'function' ? token : undefined;

  const defaultHeaders: Record<string, string> = { accept: DEFAULT_ACCEPT };
  mergeHeaders(defaultHeaders, options.headers);
  if (typeof token === 'string') {
    const authorization = bearer(token);
    if (authorization !== undefined) defaultHeaders['authorization'] = authorization;
  }
  // Shared by every plain GET: fetch copies headers into its own Headers, so one frozen object is safe and saves a copy per request.
  const baseHeaders = Object.freeze(defaultHeaders);

  function headersFor(spec: RequestSpec, callHeaders: Record<string, string> | undefined, authorization: string | undefined): Record<string, string> {
    const contentType = spec.contentType ?? (spec.body === undefined ? undefined : DEFAULT_CONTENT_TYPE);
    if (spec.accept === undefined && contentType === undefined && authorization === undefined && callHeaders === undefined) {
      return baseHeaders;
    }
    const headers: Record<string, string> = { ...baseHeaders };
    if (spec.accept !== undefined) headers['accept'] = spec.accept;
    if (contentType !== undefined) headers['content-type'] = contentType;
    if (authorization !== undefined) headers['authorization'] = authorization;
    mergeHeaders(headers, callHeaders);
    return headers;
  }

  async function send(spec: RequestSpec, options: CallOptions | undefined, url: string, linked: CombinedSignal, authorization: string | undefined): Promise<Response> {
    const headers = headersFor(spec, options?.headers, authorization);
    const init: RequestInit =
      extraInit === undefined
        ? { method: spec.method, headers, body: spec.body, signal: linked.signal }
        : { ...extraInit, method: spec.method, headers, body: spec.body, signal: linked.signal };
    // Called as a plain function: browsers throw "Illegal invocation" when fetch's `this` is some other object.
    const fetchImpl = customFetch ?? globalThis.fetch;
    const response = await fetchImpl(url, init);
    if (!response.ok) throw await errorFromResponse(spec.method, url, response);
    return response;
  }

  return {
    baseUrl,

    async request<T>(spec: RequestSpec, options?: CallOptions): Promise<T> {
      const url = urlFor(baseUrl, spec);
      // Resolved before the timer starts: the timeout bounds the HTTP exchange, not a slow credential plugin.
      const authorization = tokenProvider === undefined ? undefined : bearer(await tokenProvider());
      const timeoutMs = options?.timeoutMs ?? defaultTimeoutMs;
      const linked = combineSignals(options?.signal, timeoutMs);
      try {
        const response = await send(spec, options, url, linked, authorization);
        // text() + JSON.parse rather than json(): an empty 2xx body (e.g. some DELETEs) must be undefined, not a SyntaxError.
        const text = await response.text();
        if (text === '') return undefined as T;
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch (cause) {
          throw new ResponseDecodeError({ method: spec.method, url, status: response.status, body: text, cause });
        }
        return value as T;
      } catch (error) {
        throw abortReasonOr(error, linked.signal, spec.method, url);
      } finally {
        linked.dispose();
      }
    },

    async stream(spec: RequestSpec, options?: CallOptions): Promise<Response> {
      const url = urlFor(baseUrl, spec);
      const authorization = tokenProvider === undefined ? undefined : bearer(await tokenProvider());
      const timeoutMs = options?.timeoutMs ?? defaultTimeoutMs;
      const callerSignal = options?.signal;
      const linked = combineSignals(callerSignal, timeoutMs);
      let response: Response;
      try {
        response = await send(spec, options, url, linked, authorization);
      } catch (error) {
        linked.dispose();
        throw abortReasonOr(error, linked.signal, spec.method, url);
      }
      if (callerSignal === undefined || callerSignal === linked.signal || response.body === null) {
        // Nothing left to follow once headers are in: only a timer (or nothing) was attached.
        linked.dispose();
        return response;
      }
      linked.stopTimer();
      return new Response(releaseWhenDone(response.body, linked), {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    },
  };
}

function urlFor(baseUrl: string, spec: RequestSpec): string {
  if (spec.path.charCodeAt(0) !== 0x2f) throw new TypeError(`RequestSpec.path must start with '/', got ${JSON.stringify(spec.path)}`);
  return spec.query === undefined ? baseUrl + spec.path : baseUrl + spec.path + spec.query;
}

function normaliseBaseUrl(baseUrl: string): string {
  let parsed: URL;
  try {
    parsed = new URL(baseUrl);
  } catch (cause) {
    throw new TypeError(`Invalid baseUrl ${JSON.stringify(baseUrl)}`, { cause });
  }
  if (parsed.search !== '' || parsed.hash !== '') {
    throw new TypeError(`baseUrl must not have a query or fragment: ${JSON.stringify(baseUrl)}`);
  }
  if (parsed.username !== '' || parsed.password !== '') {
    // fetch refuses URLs with credentials on every request; say so once, without echoing the secret.
    throw new TypeError('baseUrl must not contain credentials; use the token or headers options');
  }
  // Paths are appended verbatim, so `https://host/` + `/apis/...` would produce `//apis`. A path prefix (behind a proxy) is kept.
  return parsed.href.replace(/\/+$/, '');
}

function bearer(token: string): string | undefined {
  // Tokens read from files (service-account mounts) often end in a newline, which fetch would reject as a header value.
  const trimmed = token.trim();
  return trimmed === '' ? undefined : `Bearer ${trimmed}`;
}

function mergeHeaders(target: Record<string, string>, source: Record<string, string> | undefined): void {
  if (source === undefined) return;
  // Lower-cased so `Accept` from a caller replaces our `accept` instead of being sent alongside it.
  for (const name of Object.keys(source)) {
    const value = source[name];
    if (value !== undefined) target[name.toLowerCase()] = value;
  }
}

/**
 * After an abort, fetch implementations disagree on what they reject with
 * (undici: the signal's reason; others: a generic AbortError, especially
 * while reading the body). Normalise to the signal's reason, and give a
 * timeout the method and URL that the signal layer does not know.
 */
function abortReasonOr(error: unknown, signal: AbortSignal | undefined, method: string, url: string): unknown {
  if (signal === undefined || !signal.aborted || isKubernetesApiError(error) || error instanceof ResponseDecodeError) return error;
  const reason: unknown = signal.reason;
  return reason instanceof RequestTimeoutError ? new RequestTimeoutError(reason.timeoutMs, { method, url }) : reason;
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
