// Continue tokens as k8s.io/apiserver/pkg/storage/continue.go makes and reads them: EncodeContinue writes
// base64 of json.Marshal(continueToken{v, rv, start}), start being the key after the page's last one
// (etcd3/store.go: lastKey + "\x00"); DecodeContinue refuses a zero resourceVersion, an empty start key and a
// start key that path.Clean would change (continue_test.go Test_decodeContinue).
import { describe, expect, it } from 'vitest';
import { decodeContinue, encodeContinue } from '../../../templates/k8s-lease-api-server/src/store/continue-token.js';

/** A token as Go writes it: base64.RawURLEncoding of the marshalled continueToken. */
function goToken(v: string, rv: number, start: string): string {
  return Buffer.from(JSON.stringify({ v, rv, start })).toString('base64url');
}

const INVALID_RV = 'continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)';

describe('encodeContinue (EncodeContinue)', () => {
  it('holds the fields of continueToken in their Go order, start being the key just after the last one', () => {
    const json = Buffer.from(encodeContinue(12, 'default/a'), 'base64').toString('utf8');
    expect(json).toBe('{"v":"meta.k8s.io/v1","rv":12,"start":"default/a\\u0000"}');
  });

  it('reads back as the position after the key, at the same resourceVersion, -1 included', () => {
    expect(decodeContinue(encodeContinue(7, 'ns/lease-1'))).toEqual({
      ok: true,
      value: { rv: 7, start: 'ns/lease-1\u0000' },
    });
    expect(decodeContinue(encodeContinue(-1, 'x'))).toEqual({ ok: true, value: { rv: -1, start: 'x\u0000' } });
  });
});

describe('decodeContinue (DecodeContinue)', () => {
  it('reads a token kube-apiserver wrote (unpadded URL-safe base64)', () => {
    expect(decodeContinue(goToken('meta.k8s.io/v1', 1, 'key'))).toEqual({ ok: true, value: { rv: 1, start: 'key' } });
    expect(decodeContinue(goToken('meta.k8s.io/v1', 42, 'default/b\u0000'))).toEqual({
      ok: true,
      value: { rv: 42, start: 'default/b\u0000' },
    });
  });

  it('refuses resourceVersion 0 with ErrInvalidStartRV', () => {
    expect(decodeContinue(goToken('meta.k8s.io/v1', 0, 'key'))).toEqual({ ok: false, error: INVALID_RV });
  });

  it.each([
    ['an empty start key', ''],
    ['a parent step', '../key'],
    ['a parent step after a local one', './../key'],
    ['parent steps after the key', 'key/../..'],
  ])('refuses %s', (_what, start) => {
    const decoded = decodeContinue(goToken('meta.k8s.io/v1', 1, start));
    expect(decoded.ok ? 'accepted' : decoded.error).toMatch(/^continue key is not valid/);
  });

  it.each([
    ['an encoded version it does not know', goToken('v1', 1, 'key')],
    ['no encoded version', goToken('', 1, 'key')],
    ['text that is not base64 of JSON', '%%%'],
    ['JSON that is not an object', Buffer.from('[1]').toString('base64url')],
  ])('refuses %s', (_what, token) => {
    const decoded = decodeContinue(token);
    expect(decoded.ok ? 'accepted' : decoded.error).toMatch(/^continue key is not valid/);
  });
});
