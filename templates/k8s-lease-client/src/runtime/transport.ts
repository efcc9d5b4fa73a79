/**
 * The HTTP transport every generated client calls. Built on the platform
 * `fetch` only, and kept deliberately thin: retries, warnings, auth providers,
 * proxies or TLS plug in through `fetch` and `token` rather than through code
 * here (the middleware in ./middleware/, and on Node the package
 * k8s-lease-client-node, which builds all of it from a kubeconfig).
 */

import { DEFAULT_MAX_RESPONSE_BYTES, readText } from './body.js';
import { errorFromResponse } from './error-response.js';
import { ConnectionError, KubernetesApiError, ResponseDecodeError } from './errors.js';
import { combineSignals } from './signals.js';
import type { CombinedSignal } from './signals.js';

/** The HTTP methods the Kubernetes API's Lease operations use. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/**
 * A bearer token, or a function called before every request so rotated tokens are picked up. The function is handed
 * the call's `signal` and `timeoutMs` so that work of its own (a network refresh) can be bounded by them; one that
 * ignores them is not bounded.
 */
export type TokenProvider =
  | string
  | ((call?: {
      readonly signal?: AbortSignal | undefined;
      readonly timeoutMs?: number | undefined;
    }) => string | Promise<string>);

/** Options of `createClient`: where the API server is, how to authenticate, and per-request defaults. */
export interface ClientOptions {
  /** API server origin, e.g. `http://127.0.0.1:8080`; a trailing slash is tolerated. */
  baseUrl: string;
  /** Sent with every request. Names are case-insensitive; per-call headers win over these. */
  headers?: Record<string, string> | undefined;
  /** Sent as `Authorization: Bearer …`. */
  token?: TokenProvider | undefined;
  /**
   * Custom fetch (tests, proxies, retry wrappers; on Node, k8s-lease-client-node's
   * TLS-configured undici fetch).
   * Defaults to `globalThis.fetch`, looked up per call. It receives
   * `init.headers` as a plain object of lower-case names, its own for each
   * request.
   */
  fetch?: typeof fetch | undefined;
  /**
   * Default per-call timeout in ms; `undefined` means none. It bounds the
   * HTTP exchange: until the body is read for `request`, until the headers
   * arrive for `stream()`. A token provider function is handed it (and the call's signal) to bound its own work;
   * the HTTP exchange gets its own `timeoutMs` after the token is in hand.
   */
  timeoutMs?: number | undefined;
  /**
   * Extra standard RequestInit merged into every request, e.g. `{ credentials: 'include' }` in a browser.
   * `redirect` defaults to `'manual'`: a redirect is not followed but rejected as a KubernetesApiError with
   * the 3xx status (0 in browsers); `'follow'` would re-send the request, body included, wherever it points.
   * For TLS options on Node, use k8s-lease-client-node's `clientOptions` (its `fetch`), not an undici dispatcher here.
   */
  init?: Omit<RequestInit, 'method' | 'body' | 'headers' | 'signal'> | undefined;
  /**
   * Largest response body read into memory, in decoded bytes (a compressed body counts as it inflates); error
   * bodies included. Default 64 MiB (DEFAULT_MAX_RESPONSE_BYTES); `Infinity` for none. A longer body is cancelled
   * as soon as the limit is passed and the call rejects with a ResponseTooLargeError. Watch streams are
   * bounded per line instead (`maxLineBytes`).
   */
  maxResponseBytes?: number | undefined;
}

/** Per-call options every generated operation takes as its last argument. */
export interface CallOptions {
  /** Aborts the call: the promise rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** Overrides `ClientOptions.timeoutMs` for this call. */
  timeoutMs?: number | undefined;
  /** Sent with this request only; they win over `ClientOptions.headers` (names are case-insensitive). */
  headers?: Record<string, string> | undefined;
}

/** One HTTP request as the generated operations describe it to `Client.request`. */
export interface RequestSpec {
  /** The HTTP method. */
  method: HttpMethod;
  /** Already built and encoded; starts with '/'. */
  path: string;
  /** Already encoded by encodeQuery: '' or '?…'. */
  query?: string | undefined;
  /** Already serialised. */
  body?: string | undefined;
  /** Defaults to `application/json` when there is a body. */
  contentType?: string | undefined;
  /** Defaults to `application/json`. */
  accept?: string | undefined;
}

/**
 * A connection to one API server, made by `createClient`: the first argument of every generated operation
 * (`readNamespacedLease(client, …)`), of `watch`, `createInformer` and the leader-election helpers.
 */
export interface Client {
  /** The API server origin (and path prefix, if any) requests go to, without a trailing slash. */
  readonly baseUrl: string;
  /** Sends the request, returns the parsed JSON body of a 2xx (undefined for an empty body); throws KubernetesApiError for non-2xx. */
  request<T>(spec: RequestSpec, options?: CallOptions): Promise<T>;
}

/**
 * Internal to the runtime: what a client from `createClient` does for
 * `request` (resolving to the parsed body) and, with `stream` true, for
 * `stream()`: then it resolves once a 2xx response's headers are in, with the
 * signal still attached to the body; the receiver disposes it once done with
 * the body.
 */
export interface Send {
  (
    spec: RequestSpec,
    options: CallOptions | undefined,
    stream: true,
  ): Promise<readonly [Response, CombinedSignal, maxResponseBytes: number]>;
  (spec: RequestSpec, options?: CallOptions): Promise<unknown>;
}

/**
 * Key of the `Send` a client from `createClient` carries for `stream()`. Not
 * on the `Client` type, so that streaming costs nothing in bundles that never
 * stream; registered, so that `stream()` from another copy of the runtime
 * works with this copy's clients.
 */
export const SEND: unique symbol = Symbol.for('lease-api-runtime.send');

const JSON_TYPE = 'application/json';

/**
 * Makes a client for the API server at `options.baseUrl`, to pass to the generated operations. Nothing is sent
 * until the first call. On Node, k8s-lease-client-node's `kubeconfigClientOptions()` or `inClusterClientOptions()`
 * build `options` (TLS, client certificates, exec plugins) from a kubeconfig or the pod's service account.
 *
 * Calls reject with `KubernetesApiError` for a non-2xx answer, `ConnectionError` when no HTTP answer came,
 * `RequestTimeoutError` after `timeoutMs`, `ResponseTooLargeError` beyond `maxResponseBytes` and
 * `ResponseDecodeError` for a 2xx body that is not JSON.
 *
 * @example
 * ```ts
 * import { createClient, readNamespacedLease, isNotFound } from 'k8s-lease-client';
 *
 * const client = createClient({ baseUrl: 'https://127.0.0.1:6443', token: () => readToken(), timeoutMs: 10_000 });
 * try {
 *   const lease = await readNamespacedLease(client, { namespace: 'kube-system', name: 'my-controller' });
 *   console.log(lease.spec?.holderIdentity);
 * } catch (error) {
 *   if (!isNotFound(error)) throw error;
 * }
 * ```
 *
 * @param options - The API server's URL, credentials and per-request defaults.
 * @returns A client; it holds no connection of its own (the `fetch` does), so it needs no closing.
 * @throws TypeError when `baseUrl` is not an absolute URL or carries credentials, a query or a fragment.
 * @throws RangeError when `timeoutMs` is not a finite number >= 0.
 */
export function createClient(options: ClientOptions): Client {
  const {
    fetch: customFetch,
    timeoutMs: defaultTimeoutMs,
    init: extraInit,
    token,
    maxResponseBytes = DEFAULT_MAX_RESPONSE_BYTES,
  } = options;
  const baseUrl = normaliseBaseUrl(options.baseUrl);
  // Fail at construction rather than on the first request, far from the configuration mistake.
  combineSignals(undefined, defaultTimeoutMs).dispose();
  // Copied per request (a handful of entries) so that a custom fetch may even mutate what it is given.
  const baseHeaders = mergeHeaders({ accept: JSON_TYPE }, options.headers);

  const send = async (spec: RequestSpec, callOptions: CallOptions | undefined, stream?: true): Promise<unknown> => {
    const { method, path, body } = spec;
    if (path[0] !== '/') throw new TypeError(`Invalid path ${JSON.stringify(path)}`);
    const url = baseUrl + path + (spec.query ?? '');
    // Resolved before the timer starts: the timeout bounds the HTTP exchange, not a slow credential plugin; a provider
    // that does network work (an OIDC refresh) bounds it itself by the call's signal and timeout.
    // Tokens read from files (service-account mounts) often end in a newline, which fetch would reject as a header value.
    // A static token is trimmed per request too: cheaper in code than keeping a second set of base headers.
    const timeoutMs = callOptions?.timeoutMs ?? defaultTimeoutMs;
    const trimmed = (
      typeof token === 'function' ? await token({ signal: callOptions?.signal, timeoutMs }) : token
    )?.trim();
    const headers = mergeHeaders(
      {},
      baseHeaders,
      {
        accept: spec.accept,
        'content-type': spec.contentType ?? (body !== undefined && JSON_TYPE),
        authorization: trimmed ? `Bearer ${trimmed}` : undefined,
      },
      callOptions?.headers,
    );
    const linked = combineSignals(callOptions?.signal, timeoutMs, { method, url });
    const signal = linked.signal;
    let response: Response | undefined;
    let text = '';
    try {
      // Called as a plain function: browsers throw "Illegal invocation" when fetch's `this` is some other object.
      // Redirects are not followed (unless `init.redirect` says so): a 3xx to another origin would get the request body
      // re-sent there and its answer taken for the API server's. kube-apiserver does not redirect API calls, so a 3xx is a
      // KubernetesApiError (status 0 in browsers, where the redirect response is opaque).
      // `as`: fetch takes an undefined body and signal alike; the DOM typings only say so without exactOptionalPropertyTypes.
      response = await (customFetch ?? fetch)(url, {
        redirect: 'manual',
        ...extraInit,
        method,
        headers,
        body,
        signal,
      } as RequestInit);
      if (!response.ok) throw await errorFromResponse(method, url, response, maxResponseBytes);
      if (stream) return [response, linked, maxResponseBytes];
      // Text + JSON.parse rather than json(): an empty 2xx body (e.g. some DELETEs) must be undefined, not a SyntaxError.
      text = await readText(response, maxResponseBytes, { method, url });
    } catch (error) {
      // After an abort, fetch implementations disagree on what they reject with (undici: the signal's reason;
      // others: a generic AbortError, especially while reading the body): normalise to the signal's reason,
      // the caller's own or a RequestTimeoutError naming the request. A network failure, which every fetch
      // reports as a bare TypeError (never with the URL), becomes a ConnectionError naming the request; typed
      // errors (a custom fetch's own, ResponseTooLargeError) pass as they are.
      throw signal?.aborted && !(error instanceof KubernetesApiError)
        ? signal.reason
        : (error as Error)?.name === 'TypeError'
          ? new ConnectionError({ method, url }, error)
          : error;
    } finally {
      // A stream's body still needs the caller's signal; its receiver disposes it.
      if (!stream || !response?.ok) linked.dispose();
    }
    try {
      return text ? JSON.parse(text) : undefined;
    } catch (cause) {
      throw new ResponseDecodeError({ method, url, status: response.status, body: text, cause });
    }
  };

  const client: Client & { readonly [SEND]: Send } = {
    baseUrl,
    [SEND]: send as Send,
    request: send as Client['request'],
  };
  return client;
}

function normaliseBaseUrl(baseUrl: string): string {
  let url: URL | undefined;
  try {
    url = new URL(baseUrl);
  } catch {
    // Reported below, with the value.
  }
  // fetch refuses URLs with credentials on every request; say so once. The value is never echoed: its credentials, a
  // `?token=` or whatever secret was pasted in the wrong place would end up in a log line.
  if (!url || url.username || url.password || url.search || url.hash) {
    throw new TypeError('Invalid baseUrl: must be an absolute URL without credentials, query or fragment');
  }
  // Paths are appended verbatim, so `https://host/` + `/apis/...` would produce `//apis`. A path prefix (behind a proxy) is kept.
  return url.href.replace(/\/+$/, '');
}

/**
 * Copies the values of `sources` into `target`, names lower-cased so `Accept`
 * from a caller replaces our `accept` instead of being sent alongside it.
 * Skips what is not a string (undefined, false): no header.
 */
function mergeHeaders(
  target: Record<string, string>,
  ...sources: Array<Record<string, string | false | undefined> | undefined>
): Record<string, string> {
  for (const source of sources) {
    for (const name in source) {
      const value = source[name];
      // fetch's own error for such a value quotes it: the token (or a password) would end up in a log line.
      if (/[\0\n\r]/.test(value as string)) throw new TypeError(`Invalid header ${name}`);
      if (typeof value === 'string') target[name.toLowerCase()] = value;
    }
  }
  return target;
}
