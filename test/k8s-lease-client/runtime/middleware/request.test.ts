// What the fetch wrappers read of a request, whether the transport hands them a URL and a RequestInit or the caller
// a Request: its method, URL and signal, a URL fit for a log line, and whether it asks for a watch.
import { describe, expect, it } from 'vitest';
import {
  requestMethod,
  requestSignal,
  requestUrl,
  safeUrl,
  watchRequested,
} from '../../../../templates/k8s-lease-client/src/runtime/middleware/request.js';

const URL_ = 'https://k8s.example:6443/apis/coordination.k8s.io/v1/namespaces/default/leases/a';

describe('requestMethod', () => {
  it("init's method wins, upper-cased; else the Request's; else GET, as fetch", () => {
    expect(requestMethod(URL_, { method: 'put' })).toBe('PUT');
    expect(requestMethod(new Request(URL_, { method: 'DELETE' }), undefined)).toBe('DELETE');
    expect(requestMethod(new Request(URL_, { method: 'DELETE' }), { method: 'patch' })).toBe('PATCH');
    expect(requestMethod(URL_, undefined)).toBe('GET');
    expect(requestMethod(new URL(URL_), {})).toBe('GET');
  });
});

describe('requestUrl', () => {
  it('the URL of a string, a URL or a Request', () => {
    expect(requestUrl(URL_)).toBe(URL_);
    expect(requestUrl(new URL(`${URL_}?watch=1`))).toBe(`${URL_}?watch=1`);
    expect(requestUrl(new Request(URL_))).toBe(URL_);
  });
});

describe('requestSignal', () => {
  it("init's signal wins; else the Request's; else none", () => {
    const mine = new AbortController().signal;
    const theirs = new AbortController();
    const request = new Request(URL_, { signal: theirs.signal });
    expect(requestSignal(URL_, { signal: mine })).toBe(mine);
    expect(requestSignal(request, { signal: mine })).toBe(mine);
    // A Request carries a signal of its own that follows the one it was made with.
    theirs.abort(new Error('stop'));
    expect(requestSignal(request, undefined)?.aborted).toBe(true);
    expect(requestSignal(URL_, undefined)).toBeUndefined();
    expect(requestSignal(URL_, {})).toBeUndefined();
  });
});

describe('safeUrl', () => {
  it.each([
    ['a query (a token or a selector)', `${URL_}?labelSelector=app%3Dx&token=t0k`, URL_],
    ['a fragment', `${URL_}#x`, URL_],
    ['credentials', 'https://user:pa55@k8s.example:6443/api?x=1', 'https://k8s.example:6443/api'],
    ['nothing to drop', URL_, URL_],
  ])('drops %s', (_name, url, expected) => {
    expect(safeUrl(url)).toBe(expected);
  });

  it('text that is not an absolute URL loses its query, fragment and user-info all the same', () => {
    expect(safeUrl('/apis/x?token=t0k')).toBe('/apis/x');
    expect(safeUrl('/apis/x#frag?token=t0k')).toBe('/apis/x');
    expect(safeUrl('//user:pa55@host:bad/p?q')).toBe('//host:bad/p');
  });
});

describe('watchRequested', () => {
  // kube-apiserver reads ?watch= as apimachinery's Convert_Slice_string_To_bool: present and neither "0" nor "false".
  it.each([
    ['watch=true', true],
    ['watch=1', true],
    ['watch=', true],
    ['watch=yes', true],
    ['watch=false', false],
    ['watch=FALSE', false],
    ['watch=0', false],
    ['limit=5', false],
    ['', false],
  ])('?%s: %s', (query, expected) => {
    expect(watchRequested(new URLSearchParams(query))).toBe(expected);
  });

  it('reads the first watch parameter, as the server does', () => {
    expect(watchRequested(new URLSearchParams('watch=false&watch=true'))).toBe(false);
    expect(watchRequested(new URLSearchParams('watch=true&watch=false'))).toBe(true);
  });
});
