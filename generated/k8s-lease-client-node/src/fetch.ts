// A fetch for createClient that speaks TLS (CA, client certificate, SNI) and proxies through an undici dispatcher.
// undici's own fetch is used with undici's Agent: Node's built-in fetch bundles another undici whose
// dispatcher interface may differ from the installed one's.
import { Agent, fetch as undiciFetch, ProxyAgent } from 'undici';
import type { Dispatcher } from 'undici';
import { ClusterConnectionError, errorCode } from './errors.js';
import { redactable } from './redact.js';

export interface NodeTlsOptions {
  /** PEM of the CAs to trust instead of Node's bundled roots. */
  ca?: string;
  /** PEM client certificate (mTLS); needs `key`. */
  cert?: string;
  key?: string;
  /** SNI and the name the certificate must carry, when it differs from the URL's host. */
  servername?: string;
  /** Skip verifying the server's certificate (kubeconfig's insecure-skip-tls-verify). */
  insecureSkipVerify?: boolean;
}

export interface NodeFetchOptions {
  tls?: NodeTlsOptions;
  /** http:// or https:// proxy; requests are tunnelled with CONNECT. */
  proxyUrl?: string;
}

export interface NodeFetch {
  /** Hand to createClient; every call shares one connection pool (one TLS handshake per connection). */
  readonly fetch: typeof fetch;
  /** Closes the pool's connections, including streams still open. */
  close(): Promise<void>;
}

/** Node error codes of a failed certificate verification (tls and OpenSSL). */
const CERTIFICATE_CODES = /CERT|SIGNATURE|ISSUER|SELF_SIGNED|ERR_TLS/;

export function nodeFetch(options: NodeFetchOptions = {}): NodeFetch {
  const dispatcher = createDispatcher(options);
  const send: typeof fetch = async (input, init) => {
    const url = typeof input === 'string' || input instanceof URL ? input : input.url;
    let response: Awaited<ReturnType<typeof undiciFetch>>;
    try {
      response = await undiciFetch(url, {
        method: init?.method,
        headers: headerRecord(init?.headers),
        body: bodyOf(init?.body),
        signal: init?.signal ?? null,
        redirect: init?.redirect,
        dispatcher,
      });
    } catch (error) {
      throw init?.signal?.aborted ? error : connectionError(url, error);
    }
    // The platform Response type createClient expects.
    return new Response(response.body && platformStream(response.body), { status: response.status, statusText: response.statusText, headers: [...response.headers] });
  };
  let closed: Promise<void> | undefined;
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
  if (options.proxyUrl === undefined) return new Agent({ connect });
  return new ProxyAgent({ uri: options.proxyUrl, requestTls: connect });
}

/**
 * undici's stream as the platform ReadableStream type (the two are typed apart). Pulls on demand
 * (highWaterMark 0), so a slow reader still applies backpressure to the socket and nothing is buffered here.
 */
function platformStream(body: NonNullable<Awaited<ReturnType<typeof undiciFetch>>['body']>): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>(
    {
      pull: async (controller) => {
        const chunk = await reader.read();
        if (chunk.done) controller.close();
        else controller.enqueue(chunk.value);
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}

function headerRecord(headers: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(headers).forEach((value, name) => {
    out[name] = value;
  });
  return out;
}

/** The bodies createClient sends (strings), plus bytes; others are refused rather than sent wrong. */
function bodyOf(body: BodyInit | null | undefined): string | Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (body instanceof URLSearchParams) return body.toString();
  throw new TypeError('nodeFetch: only string and byte bodies are supported');
}

/** One line naming the server and what failed, instead of fetch's bare "fetch failed". */
function connectionError(input: string | URL, error: unknown): ClusterConnectionError {
  const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
  const code = errorCode(cause);
  const origin = new URL(input).origin;
  const detail = cause instanceof Error ? cause.message : String(cause);
  const message =
    code !== undefined && CERTIFICATE_CODES.test(code)
      ? `cannot verify the certificate of ${origin} (${code}): ${detail}; check certificate-authority and tls-server-name`
      : `cannot reach ${origin}${code ? ` (${code})` : ''}: ${detail}`;
  return new ClusterConnectionError(message, code, { cause: error });
}
