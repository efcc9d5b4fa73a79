// A fetch for createClient that speaks TLS (CA, client certificate, SNI) and proxies through an undici dispatcher.
// undici's own fetch is used with undici's Agent: Node's built-in fetch bundles another undici whose
// dispatcher interface may differ from the installed one's.
import { ClientClosedError } from 'k8s-lease-client';
import { Agent, fetch as undiciFetch, ProxyAgent } from 'undici';
import type { Dispatcher } from 'undici';
import { ClusterConnectionError, errorCode } from './errors.js';
import { impersonationInterceptor } from './impersonation.js';
import type { ImpersonationHeaders } from './impersonation.js';
import { redactable, redactUrl } from './redact.js';

/** TLS settings of `nodeFetch`: which CAs to trust, a client certificate, the server name. */
export interface NodeTlsOptions {
  /** PEM of the CAs to trust instead of Node's bundled roots. */
  ca?: string | undefined;
  /** PEM client certificate (mTLS); needs `key`. */
  cert?: string | undefined;
  /** PEM private key of `cert`. */
  key?: string | undefined;
  /** SNI and the name the certificate must carry, when it differs from the URL's host. */
  servername?: string | undefined;
  /** Skip verifying the server's certificate (kubeconfig's insecure-skip-tls-verify). */
  insecureSkipVerify?: boolean | undefined;
}

/** Options of `nodeFetch`: TLS, a proxy, impersonation, and a description for error messages. */
export interface NodeFetchOptions {
  /** CA, client certificate and server name; default: Node's trusted roots, no client certificate. */
  tls?: NodeTlsOptions | undefined;
  /** http:// or https:// proxy; requests are tunnelled with CONNECT. */
  proxyUrl?: string | undefined;
  /** Where the settings came from (e.g. `cluster "c" in /home/me/.kube/config`), named in connection errors. */
  description?: string | undefined;
  /** Impersonate-* headers added to every request that carries no Impersonate-User of its own. */
  impersonate?: ImpersonationHeaders | undefined;
}

/** A fetch over one undici connection pool, made by `nodeFetch`, and the `close()` that ends the pool. */
export interface NodeFetch {
  /** Hand to createClient; every call shares one connection pool (one TLS handshake per connection). */
  readonly fetch: typeof fetch;
  /** Closes the pool's connections, including streams still open. */
  close(): Promise<void>;
}

/** Node error codes of a failed certificate verification (tls and OpenSSL). */
const CERTIFICATE_CODES = /CERT|SIGNATURE|ISSUER|SELF_SIGNED|ERR_TLS/;

/**
 * Makes a fetch for `ClientOptions.fetch` that speaks TLS with the given CA and client certificate, tunnels
 * through a proxy, and keeps connections alive in one pool; network failures become ClusterConnectionErrors
 * that name the server and the setting to check. The loaders build one from a kubeconfig; use this directly
 * when the settings come from elsewhere.
 *
 * @example
 * ```ts
 * const transport = nodeFetch({ tls: { ca: await readFile('ca.crt', 'utf8') } });
 * const client = createClient({ baseUrl: 'https://10.0.0.1:6443', fetch: transport.fetch, token });
 * // …
 * await transport.close();
 * ```
 *
 * @param options - TLS settings, proxy URL, impersonation headers and a description for error messages.
 * @returns The fetch and its `close()`; requests after `close()` reject with ClientClosedError.
 */
export function nodeFetch(options: NodeFetchOptions = {}): NodeFetch {
  const dispatcher = createDispatcher(options);
  let closed: Promise<void> | undefined;
  const send: typeof fetch = async (input, init) => {
    const request = input instanceof Request ? input : undefined;
    const url = request ? request.url : input instanceof URL ? input.href : String(input);
    const method = init?.method ?? request?.method ?? 'GET';
    // After close() the pool is gone: say so, rather than undici's "cannot reach … (UND_ERR_DESTROYED)".
    if (closed !== undefined) throw new ClientClosedError({ method, url });
    // The transport's own calls (a URL string, plain headers) go through as they are; a Request is taken apart as
    // `new Request(input, init)` would: init's members win, headers merged with init's overriding.
    const headers = request ? { ...headerRecord(request.headers), ...headerRecord(init?.headers) } : init?.headers;
    const given = init?.body !== undefined ? bodyOf(init.body) : (request?.body ?? undefined);
    const body = given instanceof ReadableStream ? chunksOf(given) : given;
    const signal = init?.signal ?? request?.signal ?? null;
    const redirect = init?.redirect ?? request?.redirect;
    try {
      const response = await undiciFetch(url, {
        method,
        ...(headers !== undefined ? { headers: headers as NonNullable<UndiciInit['headers']> } : {}),
        // Absent rather than undefined: undici's RequestInit is typed with exact optional members.
        ...(body !== undefined ? { body } : {}),
        // A stream is sent as it is read (fetch requires saying so); it cannot be replayed by any retry.
        ...(given instanceof ReadableStream ? { duplex: 'half' as const } : {}),
        signal,
        ...(redirect !== undefined ? { redirect } : {}),
        dispatcher,
      });
      // undici's Response is the platform's in all but its TypeScript type (same ReadableStream, same members):
      // handed over as it is, since wrapping its body in another stream costs a promise and a copy per chunk.
      return response as unknown as Response;
    } catch (error) {
      if (signal?.aborted) throw error;
      throw closed !== undefined
        ? new ClientClosedError({ method, url })
        : connectionError(url, error, options.description);
    }
  };
  // Idempotent: undici rejects a second close of the same dispatcher.
  return redactable({ fetch: send, close: () => (closed ??= dispatcher.close()) });
}

function createDispatcher(options: NodeFetchOptions): Dispatcher {
  const tls = options.tls ?? {};
  const connect = {
    ca: tls.ca,
    cert: tls.cert,
    key: tls.key,
    servername: tls.servername,
    rejectUnauthorized: !tls.insecureSkipVerify,
  };
  const base: Dispatcher =
    options.proxyUrl === undefined
      ? new Agent({ connect })
      : new ProxyAgent({ uri: options.proxyUrl, requestTls: connect });
  return options.impersonate ? base.compose(impersonationInterceptor(options.impersonate)) : base;
}

type UndiciInit = NonNullable<Parameters<typeof undiciFetch>[1]>;

/** A platform stream as the async iterable undici's fetch accepts (the two packages type their streams apart). */
async function* chunksOf(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) return;
      yield chunk.value;
    }
  } finally {
    reader.releaseLock();
  }
}

function headerRecord(headers: HeadersInit | undefined): Record<string, string> {
  // A null prototype: a header named `__proto__` stays a header.
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  new Headers(headers).forEach((value, name) => {
    out[name] = value;
  });
  return out;
}

/** The bodies createClient sends (strings), bytes, and streams (sent as read, duplex "half"); others are refused rather than sent wrong. */
function bodyOf(body: BodyInit | null): string | Uint8Array | ReadableStream<Uint8Array> | undefined {
  if (body === null) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array || body instanceof ReadableStream) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  if (body instanceof URLSearchParams) return body.toString();
  throw new TypeError('nodeFetch: only string, byte and ReadableStream bodies are supported');
}

/** One line naming the server, what failed and where the settings came from, instead of fetch's bare "fetch failed". */
function connectionError(url: string, error: unknown, description: string | undefined): ClusterConnectionError {
  const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
  const code = errorCode(cause);
  const origin = redactUrl(new URL(url).origin);
  // Node's and OpenSSL's messages are one line, but nothing here relies on it.
  const detail = (cause instanceof Error ? cause.message : String(cause)).replace(/\s+/g, ' ');
  const from = description ? `${description}: ` : '';
  const message =
    code !== undefined && CERTIFICATE_CODES.test(code)
      ? `cannot verify the certificate of ${origin} (${code}): ${detail} (${from}check certificate-authority / tls-server-name)`
      : `cannot reach ${origin}${code ? ` (${code})` : ''}: ${detail}${description ? ` (${description})` : ''}`;
  return new ClusterConnectionError(message, code, { cause: error });
}
