import { credentialGeneration } from './source.js';
import type { ExecCredentialSource } from './types.js';

/** Options of `refreshOnUnauthorized`. */
export interface RefreshOptions {
  /**
   * Told when fetching a fresh credential after a 401 failed; the 401 response is then returned as it is, as
   * client-go's roundTripper logs "refreshing credentials" and returns the response. Default: process.emitWarning.
   */
  onRefreshError?: ((error: unknown) => void) | undefined;
}

function bearer(headers: Headers): string | undefined {
  const value = headers.get('authorization');
  return value?.toLowerCase().startsWith('bearer ') ? value.slice('bearer '.length).trim() : undefined;
}

/** Bodies fetch can send twice; a stream (or a Request carrying one) is consumed by the first attempt. */
function replayable(input: RequestInfo | URL, init: RequestInit | undefined): boolean {
  if (input instanceof Request && input.body !== null) return false;
  const body = init?.body;
  return (
    !(body instanceof ReadableStream) && !(typeof body === 'object' && body !== null && Symbol.asyncIterator in body)
  );
}

function requestHeaders(input: RequestInfo | URL, init: RequestInit | undefined): Headers {
  return new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
}

/**
 * A fetch that, on a 401, refreshes the exec credential and sends the request once more with the new bearer token.
 * As client-go's maybeRefreshCreds, the plugin reruns only if the credential that got the 401 is still the current
 * one: concurrent 401s share one refresh. The apiserver rejects a request at authentication before reading its body,
 * so replaying it is safe; requests with a stream body are not retried.
 */
export function refreshOnUnauthorized(
  fetch: typeof globalThis.fetch,
  source: ExecCredentialSource,
  options: RefreshOptions = {},
): typeof globalThis.fetch {
  const onRefreshError =
    options.onRefreshError ??
    ((error: unknown) =>
      process.emitWarning(error instanceof Error ? error.message : String(error), 'ExecCredentialRefreshWarning'));
  return async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const sentGeneration = credentialGeneration(source);
    const response = await fetch(input, init);
    if (response.status !== 401 || !replayable(input, init)) return response;
    const headers = requestHeaders(input, init);
    const sent = bearer(headers);
    let fresh: string | undefined;
    try {
      fresh = await source.token();
      // Someone else's refresh (or an expiry) already replaced the credential this request was sent with: use it as
      // it is. Sources from elsewhere have no generation; for them a different token is the sign.
      const refreshedMeanwhile =
        sentGeneration === undefined ? fresh !== sent : credentialGeneration(source) !== sentGeneration;
      if (!refreshedMeanwhile) {
        source.invalidate();
        fresh = await source.token();
      }
    } catch (error) {
      onRefreshError(error);
      return response;
    }
    // Frees the connection; the 401's body is replaced by the retry's answer.
    await response.body?.cancel().catch(() => undefined);
    if (fresh) headers.set('authorization', `Bearer ${fresh}`);
    else headers.delete('authorization');
    return fetch(input, { ...init, headers });
  };
}

/**
 * The source as the client's `token` option, which wants a string: a plugin that returned only a client certificate
 * yields '' (the client then sends no Authorization header).
 */
export function tokenProvider(source: ExecCredentialSource): () => Promise<string> {
  return async () => (await source.token()) ?? '';
}
