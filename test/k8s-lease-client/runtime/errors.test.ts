import { describe, expect, it } from 'vitest';
import {
  errorFromResponse,
  InvalidPathParameterError,
  isAlreadyExists,
  isBadRequest,
  isConflict,
  isForbidden,
  isGone,
  isInternalError,
  isInvalid,
  isKubernetesApiError,
  isNotFound,
  isServerTimeout,
  isServiceUnavailable,
  isTooManyRequests,
  isUnauthorized,
  KubernetesApiError,
  RequestTimeoutError,
  ResponseDecodeError,
} from '../../../templates/k8s-lease-client/src/runtime/errors.js';
import type { KubernetesStatus } from '../../../templates/k8s-lease-client/src/runtime/errors.js';

const URL_ = 'http://127.0.0.1:8080/apis/coordination.k8s.io/v1/namespaces/default/leases/x';

function status(
  code: number,
  reason: string,
  message: string,
  extra: Partial<KubernetesStatus> = {},
): KubernetesStatus {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code, ...extra };
}

function jsonResponse(code: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status: code,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

describe('errorFromResponse', () => {
  it('builds a KubernetesApiError from a Status body', async () => {
    const body = status(
      409,
      'Conflict',
      'Operation cannot be fulfilled on leases.coordination.k8s.io "x": the object has been modified; please apply your changes to the latest version and try again',
      { details: { name: 'x', group: 'coordination.k8s.io', kind: 'leases' } },
    );
    const error = await errorFromResponse('PUT', URL_, jsonResponse(409, body));
    expect(error).toBeInstanceOf(KubernetesApiError);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('KubernetesApiError');
    expect(error.status).toBe(409);
    expect(error.reason).toBe('Conflict');
    expect(error.method).toBe('PUT');
    expect(error.url).toBe(URL_);
    expect(error.statusObject).toEqual(body);
    expect(error.body).toBe(JSON.stringify(body));
    expect(error.retryAfterSeconds).toBeUndefined();
    expect(error.message).toBe(
      'PUT /apis/coordination.k8s.io/v1/namespaces/default/leases/x: 409 Conflict: Operation cannot be fulfilled on leases.coordination.k8s.io "x": the object has been modified; please apply your changes to the latest version and try again',
    );
  });

  it('keeps the query string in the message', async () => {
    const error = await errorFromResponse(
      'GET',
      `${URL_}?resourceVersion=1`,
      jsonResponse(404, status(404, 'NotFound', 'leases "x" not found')),
    );
    expect(error.message).toBe(
      'GET /apis/coordination.k8s.io/v1/namespaces/default/leases/x?resourceVersion=1: 404 NotFound: leases "x" not found',
    );
  });

  it.each([
    [400, 'BadRequest'],
    [401, 'Unauthorized'],
    [403, 'Forbidden'],
    [404, 'NotFound'],
    [405, 'MethodNotAllowed'],
    [406, 'NotAcceptable'],
    [409, 'Conflict'],
    [410, 'Gone'],
    [415, 'UnsupportedMediaType'],
    [422, 'Invalid'],
    [429, 'TooManyRequests'],
    [500, 'InternalError'],
    [503, 'ServiceUnavailable'],
    [504, 'Timeout'],
    [418, 'Unknown'],
    [502, 'Unknown'],
    [413, 'Unknown'],
  ])('synthesises reason for HTTP %i without a Status as %s', async (code, reason) => {
    const error = await errorFromResponse('GET', URL_, new Response('nope', { status: code }));
    expect(error.status).toBe(code);
    expect(error.reason).toBe(reason);
    expect(error.statusObject).toBeUndefined();
    expect(error.message).toBe(`GET /apis/coordination.k8s.io/v1/namespaces/default/leases/x: ${code} ${reason}: nope`);
  });

  it('takes Expired from the Status for a 410', async () => {
    const error = await errorFromResponse(
      'GET',
      URL_,
      jsonResponse(410, status(410, 'Expired', 'The resourceVersion for the provided list is too old.')),
    );
    expect(error.reason).toBe('Expired');
    expect(isGone(error)).toBe(true);
  });

  it('synthesises the reason when the Status has an empty reason', async () => {
    const error = await errorFromResponse('GET', URL_, jsonResponse(404, status(404, '', 'gone away')));
    expect(error.reason).toBe('NotFound');
    expect(error.statusObject?.message).toBe('gone away');
  });

  it('includes an excerpt of an HTML body, spaces collapsed and line breaks escaped', async () => {
    const html = '<html>\n  <head><title>502 Bad Gateway</title></head>\n  <body>nginx</body>\n</html>';
    const error = await errorFromResponse('GET', URL_, new Response(html, { status: 502, statusText: 'Bad Gateway' }));
    expect(error.reason).toBe('Unknown');
    expect(error.body).toBe(html);
    expect(error.message).toBe(
      'GET /apis/coordination.k8s.io/v1/namespaces/default/leases/x: 502 Unknown: <html>%0A <head><title>502 Bad Gateway</title></head>%0A <body>nginx</body>%0A</html>',
    );
  });

  it('limits the excerpt in the message (reason included) to 200 characters', async () => {
    const text = 'x'.repeat(1000);
    const error = await errorFromResponse('GET', URL_, new Response(text, { status: 500 }));
    expect(error.message).toBe(
      `GET /apis/coordination.k8s.io/v1/namespaces/default/leases/x: 500 InternalError: ${'x'.repeat(200 - 'InternalError: '.length)}…`,
    );
  });

  it('treats JSON that is not a Status as an opaque body', async () => {
    const error = await errorFromResponse('GET', URL_, jsonResponse(404, { kind: 'Lease', reason: 'Conflict' }));
    expect(error.statusObject).toBeUndefined();
    expect(error.reason).toBe('NotFound');
    expect(error.message).toContain('404 NotFound: {"kind":"Lease","reason":"Conflict"}');
  });

  it('treats truncated JSON as an opaque body', async () => {
    const error = await errorFromResponse('DELETE', URL_, new Response('{"kind":"Status",', { status: 500 }));
    expect(error.statusObject).toBeUndefined();
    expect(error.reason).toBe('InternalError');
    expect(error.message).toBe(
      'DELETE /apis/coordination.k8s.io/v1/namespaces/default/leases/x: 500 InternalError: {"kind":"Status",',
    );
  });

  it('falls back to the HTTP reason phrase for an empty body', async () => {
    const error = await errorFromResponse(
      'GET',
      URL_,
      new Response(null, { status: 503, statusText: 'Service Unavailable' }),
    );
    expect(error.body).toBe('');
    expect(error.statusText).toBe('Service Unavailable');
    expect(error.message).toBe(
      'GET /apis/coordination.k8s.io/v1/namespaces/default/leases/x: 503 ServiceUnavailable: Service Unavailable',
    );
  });

  it('omits the detail when there is nothing to say', async () => {
    const error = await errorFromResponse('GET', URL_, new Response(null, { status: 404 }));
    expect(error.message).toBe('GET /apis/coordination.k8s.io/v1/namespaces/default/leases/x: 404 NotFound');
  });

  it('truncates the raw body to 4096 characters', async () => {
    const text = `${'a'.repeat(5000)}`;
    const error = await errorFromResponse('GET', URL_, new Response(text, { status: 500 }));
    expect(error.body).toHaveLength(4096);
    expect(text.startsWith(error.body)).toBe(true);
  });

  it('does not split a surrogate pair when truncating', async () => {
    const text = `${'a'.repeat(4095)}😀tail`;
    const error = await errorFromResponse('GET', URL_, new Response(text, { status: 500 }));
    expect(error.body).toBe('a'.repeat(4095));
  });

  it('reads retryAfterSeconds from the Status details first', async () => {
    const body = status(429, 'TooManyRequests', 'slow down', { details: { retryAfterSeconds: 7 } });
    const error = await errorFromResponse('GET', URL_, jsonResponse(429, body, { 'retry-after': '3' }));
    expect(error.retryAfterSeconds).toBe(7);
  });

  it('reads retryAfterSeconds from a Retry-After header in seconds', async () => {
    const error = await errorFromResponse(
      'GET',
      URL_,
      new Response('busy', { status: 503, headers: { 'Retry-After': ' 12 ' } }),
    );
    expect(error.retryAfterSeconds).toBe(12);
  });

  it('reads retryAfterSeconds from a Retry-After HTTP-date', async () => {
    const at = new Date(Date.now() + 30_000).toUTCString();
    const error = await errorFromResponse(
      'GET',
      URL_,
      new Response('busy', { status: 503, headers: { 'Retry-After': at } }),
    );
    expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(28);
    expect(error.retryAfterSeconds).toBeLessThanOrEqual(31);
    const past = await errorFromResponse(
      'GET',
      URL_,
      new Response('busy', { status: 503, headers: { 'Retry-After': 'Wed, 21 Oct 2015 07:28:00 GMT' } }),
    );
    expect(past.retryAfterSeconds).toBe(0);
  });

  it('ignores an unparseable Retry-After header', async () => {
    const error = await errorFromResponse(
      'GET',
      URL_,
      new Response('busy', { status: 503, headers: { 'Retry-After': 'soon' } }),
    );
    expect(error.retryAfterSeconds).toBeUndefined();
  });

  it('consumes the body', async () => {
    const response = new Response('body', { status: 500 });
    await errorFromResponse('GET', URL_, response);
    expect(response.bodyUsed).toBe(true);
  });

  it('still produces an error when the body was already consumed', async () => {
    const response = new Response('body', { status: 500 });
    await response.text();
    const error = await errorFromResponse('GET', URL_, response);
    expect(error.status).toBe(500);
    expect(error.body).toBe('');
    expect(error.reason).toBe('InternalError');
  });
});

describe('predicates', () => {
  async function apiError(code: number, reason?: string): Promise<KubernetesApiError> {
    const response =
      reason === undefined
        ? new Response('plain text', { status: code })
        : jsonResponse(code, status(code, reason, 'm'));
    return errorFromResponse('GET', URL_, response);
  }

  const predicates = {
    isNotFound,
    isAlreadyExists,
    isConflict,
    isInvalid,
    isForbidden,
    isUnauthorized,
    isTooManyRequests,
    isGone,
    isBadRequest,
    isServerTimeout,
    isInternalError,
    isServiceUnavailable,
  } as const;
  type PredicateName = keyof typeof predicates;

  const cases: Array<[code: number, reason: string | undefined, expected: PredicateName[]]> = [
    [404, 'NotFound', ['isNotFound']],
    [404, undefined, ['isNotFound']],
    [409, 'AlreadyExists', ['isAlreadyExists']],
    [409, 'Conflict', ['isConflict']],
    [409, undefined, ['isConflict']],
    [409, 'SomethingNew', ['isConflict']],
    [422, 'Invalid', ['isInvalid']],
    [422, undefined, ['isInvalid']],
    [403, 'Forbidden', ['isForbidden']],
    [401, 'Unauthorized', ['isUnauthorized']],
    [429, 'TooManyRequests', ['isTooManyRequests']],
    [429, undefined, ['isTooManyRequests']],
    [410, 'Gone', ['isGone']],
    [410, 'Expired', ['isGone']],
    [410, undefined, ['isGone']],
    [400, 'BadRequest', ['isBadRequest']],
    [500, 'ServerTimeout', ['isServerTimeout']],
    [504, 'Timeout', ['isServerTimeout']],
    [504, undefined, ['isServerTimeout']],
    [500, 'InternalError', ['isInternalError']],
    [500, undefined, ['isInternalError']],
    [503, 'ServiceUnavailable', ['isServiceUnavailable']],
    [503, undefined, ['isServiceUnavailable']],
    [502, undefined, []],
    [404, 'Forbidden', []],
  ];

  it.each(cases)('HTTP %i reason %s matches exactly %j', async (code, reason, expected) => {
    const error = await apiError(code, reason);
    const matched = (Object.keys(predicates) as PredicateName[]).filter((name) => predicates[name](error));
    expect(matched).toEqual(expected);
  });

  it('return false for anything that is not a KubernetesApiError', () => {
    const notApiErrors: unknown[] = [
      undefined,
      null,
      404,
      'NotFound',
      new Error('404'),
      { status: 404, reason: 'NotFound' },
    ];
    for (const value of notApiErrors) {
      expect(isKubernetesApiError(value)).toBe(false);
      for (const predicate of Object.values(predicates)) expect(predicate(value)).toBe(false);
    }
  });

  it('recognise errors from another copy of the runtime via the registered brand', () => {
    const foreign = Object.create(
      Object.defineProperty({}, Symbol.for('lease-api-runtime.KubernetesApiError'), { value: true }),
    ) as object;
    Object.assign(foreign, { status: 404, reason: 'NotFound' });
    expect(isKubernetesApiError(foreign)).toBe(true);
    expect(isNotFound(foreign)).toBe(true);
  });
});

describe('KubernetesApiError constructor', () => {
  it('can be constructed directly, e.g. by fakes in tests', () => {
    const error = new KubernetesApiError({ status: 404, method: 'GET', url: 'http://h/x' });
    expect(error.reason).toBe('NotFound');
    expect(error.body).toBe('');
    expect(error.message).toBe('GET /x: 404 NotFound');
    expect(isNotFound(error)).toBe(true);
  });

  it('keeps the raw URL when it has no scheme', () => {
    const error = new KubernetesApiError({ status: 500, method: 'GET', url: '/relative' });
    expect(error.message).toBe('GET /relative: 500 InternalError');
  });
});

describe('other errors', () => {
  it('InvalidPathParameterError carries parameter, value and reason', () => {
    const error = new InvalidPathParameterError('name', 'a/b', "must not contain '/'");
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('InvalidPathParameterError');
    expect(error.parameter).toBe('name');
    expect(error.value).toBe('a/b');
    expect(error.reason).toBe("must not contain '/'");
    expect(error.message).toBe(`Invalid name "a/b": must not contain '/'`);
  });

  it('InvalidPathParameterError shows control characters escaped', () => {
    expect(new InvalidPathParameterError('namespace', 'x\n', 'r').message).toBe('Invalid namespace "x\\n": r');
  });

  it('RequestTimeoutError carries timeoutMs and optionally the request', () => {
    const bare = new RequestTimeoutError(250);
    expect(bare.name).toBe('RequestTimeoutError');
    expect(bare.timeoutMs).toBe(250);
    expect(bare.message).toBe('Request timed out after 250 ms');
    const withContext = new RequestTimeoutError(250, { method: 'GET', url: 'http://h:1/apis/x?watch=true' });
    expect(withContext.message).toBe('GET /apis/x?watch=true: request timed out after 250 ms');
    expect(withContext.url).toBe('http://h:1/apis/x?watch=true');
    expect(withContext.method).toBe('GET');
  });

  it('ResponseDecodeError keeps status, body and cause', () => {
    const cause = new SyntaxError('Unexpected token');
    const error = new ResponseDecodeError({
      method: 'GET',
      url: 'http://h/x',
      status: 200,
      body: '<html>hi</html>',
      cause,
    });
    expect(error.name).toBe('ResponseDecodeError');
    expect(error.status).toBe(200);
    expect(error.body).toBe('<html>hi</html>');
    expect(error.cause).toBe(cause);
    expect(error.message).toBe('GET /x: 200 response is not valid JSON: <html>hi</html>');
  });
});
