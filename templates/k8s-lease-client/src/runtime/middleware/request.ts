/**
 * What the fetch wrappers need to know of a request, whether it comes as the
 * transport sends it (a URL string and a RequestInit) or as a `Request`.
 */

type FetchInput = Parameters<typeof fetch>[0];
type FetchInit = Parameters<typeof fetch>[1];

export function requestMethod(input: FetchInput, init: FetchInit): string {
  const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
  return method.toUpperCase();
}

export function requestUrl(input: FetchInput): string {
  return input instanceof Request ? input.url : String(input);
}

export function requestSignal(input: FetchInput, init: FetchInit): AbortSignal | undefined {
  return init?.signal ?? (input instanceof Request ? input.signal : undefined);
}

/** A URL fit for a log line or a hook: no credentials, query or fragment (a query may carry a token or a selector nobody should log). */
export function safeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.origin + parsed.pathname;
  } catch {
    return url.replace(/[?#].*/s, '').replace(/\/\/[^/@]*@/, '//');
  }
}

/**
 * `?watch=` as apimachinery's Convert_Slice_string_To_bool reads it for kube-apiserver: present and
 * neither "0" nor "false" (any case).
 */
export function watchRequested(query: URLSearchParams): boolean {
  const value = query.get('watch');
  return value !== null && value !== '0' && value.toLowerCase() !== 'false';
}
