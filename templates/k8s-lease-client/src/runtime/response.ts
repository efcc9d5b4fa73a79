/**
 * Opt-in access to the status code and headers of a response, for the
 * generated `…WithResponse` functions. A module of its own so that bundles
 * which only use the body-returning functions never carry it.
 */

import { readText } from './body.js';
import { ConnectionError, KubernetesApiError, ResponseDecodeError } from './errors.js';
import { sendOf } from './stream.js';
import type { CallOptions, Client, RequestSpec } from './transport.js';

/** One 2xx response: its status code, its headers and its parsed JSON body. */
export interface ApiResponse<Status extends number, Body> {
  /** The HTTP status code; checking it narrows `body`. */
  readonly status: Status;
  /** The response headers. */
  readonly headers: Headers;
  /** The parsed JSON body (undefined for an empty body). */
  readonly body: Body;
}

/**
 * The union of `ApiResponse`s an operation may resolve to, from its
 * `…Responses` interface (status code → body), so that checking `status`
 * narrows `body`: `{ status: 201; body: Lease } | { status: 200; … }`.
 */
export type ResponseOf<Responses> = {
  [Code in keyof Responses]: ApiResponse<Code & number, Responses[Code]>;
}[keyof Responses];

/**
 * Sends the request as `client.request` does (same headers, timeout, errors:
 * non-2xx throws KubernetesApiError), but resolves to the status, headers and
 * parsed body (undefined for an empty body). The timeout covers reading the
 * body too. Needs a client made by `createClient`.
 */
export async function requestWithResponse<Responses>(
  client: Client,
  spec: RequestSpec,
  options?: CallOptions,
): Promise<ResponseOf<Responses>> {
  const [response, linked, maxBytes] = await sendOf(client)(spec, options, true);
  const url = client.baseUrl + spec.path + (spec.query ?? '');
  let text: string;
  try {
    text = await readText(response, maxBytes, { method: spec.method, url });
  } catch (error) {
    // As client.request: after an abort, report the signal's reason (the caller's, or a RequestTimeoutError).
    // A connection lost mid-body is a ConnectionError, as with client.request.
    throw linked.signal?.aborted && !(error instanceof KubernetesApiError)
      ? linked.signal.reason
      : (error as Error)?.name === 'TypeError'
        ? new ConnectionError({ method: spec.method, url }, error)
        : error;
  } finally {
    linked.dispose();
  }
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch (cause) {
    throw new ResponseDecodeError({
      method: spec.method,
      url,
      status: response.status,
      body: text,
      cause,
    });
  }
  return { status: response.status, headers: response.headers, body } as ResponseOf<Responses>;
}
