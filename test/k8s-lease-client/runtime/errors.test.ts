import { describe, expect, it } from 'vitest';
import {
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
import { errorFromResponse } from '../../../templates/k8s-lease-client/src/runtime/error-response.js';
import { jsonResponse, status, URL_ } from './helpers/status-responses.js';

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

describe('KubernetesApiError reason without a Status', () => {
  // k8s.io/apimachinery/pkg/api/errors/errors.go, NewGenericServerResponse: the reason client-go gives a response
  // whose body is not a Status. Two differences were already this client's: 410 is Gone (client-go: Unknown), and of
  // the other 5xx only 500, 503 and 504 get a reason (client-go: InternalError for every other code ≥ 500); and a
  // 409 is Conflict whatever the verb (client-go: AlreadyExists for a POST).
  const synthesised: Record<number, string> = {
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

  it('is the synthesised reason for each status that has one, Unknown for every other', () => {
    for (let status = 100; status < 600; status++) {
      const error = new KubernetesApiError({ status, method: 'GET', url: 'http://h/x', body: 'plain text' });
      expect([status, error.reason]).toEqual([status, synthesised[status] ?? 'Unknown']);
    }
    for (const status of [0, 399.5, 400.5, -1, 1000]) {
      expect(new KubernetesApiError({ status, method: 'GET', url: 'http://h/x' }).reason).toBe('Unknown');
    }
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
    expect(bare.message).toBe('timed out after 250 ms');
    const withContext = new RequestTimeoutError(250, { method: 'GET', url: 'http://h:1/apis/x?watch=true' });
    expect(withContext.message).toBe('GET /apis/x?watch=true: timed out after 250 ms');
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
    expect(error.message).toBe('GET /x: 200 body is not JSON: <html>hi</html>');
  });
});
