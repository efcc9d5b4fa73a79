import { describe, expect, it } from 'vitest';
import { encodeQuery } from '../../../templates/k8s-lease-client/src/runtime/query.js';

describe('encodeQuery', () => {
  it('returns an empty string for no parameters', () => {
    expect(encodeQuery(undefined)).toBe('');
    expect(encodeQuery({})).toBe('');
    expect(encodeQuery({ a: undefined, b: null })).toBe('');
  });

  it('keeps keys in the given order and skips undefined and null', () => {
    expect(
      encodeQuery({
        pretty: true,
        dryRun: undefined,
        fieldManager: 'leader-elector',
        limit: 500,
        continue: null,
        watch: false,
      }),
    ).toBe('?pretty=true&fieldManager=leader-elector&limit=500&watch=false');
    expect(encodeQuery({ z: 1, a: 2 })).toBe('?z=1&a=2');
  });

  it('writes numbers as plain decimal integers', () => {
    expect(encodeQuery({ a: 0, b: -0, c: -5, d: Number.MAX_SAFE_INTEGER })).toBe('?a=0&b=0&c=-5&d=9007199254740991');
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1.5, 2 ** 53, 1e21])(
    'rejects the number %s with a TypeError naming the key',
    (value) => {
      expect(() => encodeQuery({ limit: 1, timeoutSeconds: value })).toThrow(TypeError);
      expect(() => encodeQuery({ limit: 1, timeoutSeconds: value })).toThrow(
        `Invalid timeoutSeconds=${String(value)}: not a string, boolean or safe integer`,
      );
    },
  );

  it('percent-encodes strings with encodeURIComponent', () => {
    expect(encodeQuery({ labelSelector: 'app in (a,b),tier!=db', fieldSelector: 'metadata.name=x' })).toBe(
      '?labelSelector=app%20in%20(a%2Cb)%2Ctier!%3Ddb&fieldSelector=metadata.name%3Dx',
    );
    expect(encodeQuery({ q: 'a&b=c#d?e/f+g %' })).toBe('?q=a%26b%3Dc%23d%3Fe%2Ff%2Bg%20%25');
    expect(encodeQuery({ q: 'é😀' })).toBe('?q=%C3%A9%F0%9F%98%80');
    expect(encodeQuery({ continue: 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTIzfQ==' })).toBe(
      '?continue=eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTIzfQ%3D%3D',
    );
  });

  it('keeps an empty string value', () => {
    expect(encodeQuery({ resourceVersion: '' })).toBe('?resourceVersion=');
  });

  it('encodes keys too', () => {
    expect(encodeQuery({ 'a b': 'c' })).toBe('?a%20b=c');
  });

  it('round-trips through URLSearchParams', () => {
    const params = { labelSelector: 'a=b,c in (d)', limit: 10, watch: true, name: 'x y+z' };
    const parsed = new URLSearchParams(encodeQuery(params));
    expect(Object.fromEntries(parsed)).toEqual({
      labelSelector: 'a=b,c in (d)',
      limit: '10',
      watch: 'true',
      name: 'x y+z',
    });
  });

  it('rejects unsupported value types from untyped callers', () => {
    const params = { a: { nested: true } } as unknown as Record<string, string>;
    expect(() => encodeQuery(params)).toThrow(TypeError);
    expect(() => encodeQuery(params)).toThrow('Invalid a=[object Object]: not a string, boolean or safe integer');
    expect(() => encodeQuery({ b: 1n } as unknown as Record<string, string>)).toThrow(
      'Invalid b=1: not a string, boolean or safe integer',
    );
    expect(() => encodeQuery({ c: Symbol('s') } as unknown as Record<string, string>)).toThrow(
      'Invalid c=Symbol(s): not a string, boolean or safe integer',
    );
  });
});
