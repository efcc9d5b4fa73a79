import { describe, expect, it } from 'vitest';
import { errorFromResponse } from '../../../templates/k8s-lease-client/src/runtime/error-response.js';
import { isGone, KubernetesApiError } from '../../../templates/k8s-lease-client/src/runtime/errors.js';
import { jsonResponse, status, URL_ } from './helpers/status-responses.js';

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
