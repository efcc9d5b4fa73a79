// Continue tokens as k8s.io/apiserver/pkg/storage/continue.go makes and reads them: EncodeContinue writes
// base64.RawURLEncoding of json.Marshal(continueToken{v, rv, start}), start being the key after the page's last one
// (etcd3/store.go: lastKey + "\x00"); DecodeContinue's cases are continue_test.go's Test_decodeContinue (key prefix
// "/test/": the start below is the key relative to it), then the edges of Go's base64 and json decoding.
import { describe, expect, it } from 'vitest';
import {
  cleanRootedPath,
  decodeContinue,
  encodeContinue,
  ERR_EMPTY_START_KEY,
  ERR_INVALID_START_RV,
} from '../../../templates/k8s-lease-api-server/src/store/continue-token.js';

/** encodeContinueOrDie: base64.RawURLEncoding of the marshalled continueToken. */
function goToken(v: string, rv: number, start: string): string {
  return Buffer.from(JSON.stringify({ v, rv, start })).toString('base64url');
}

const raw = (json: string): string => Buffer.from(json).toString('base64url');
const errorOf = (token: string): string => {
  const decoded = decodeContinue(token);
  return decoded.ok ? `accepted ${JSON.stringify(decoded.value)}` : decoded.error;
};

describe('encodeContinue (EncodeContinue)', () => {
  it('writes unpadded URL-safe base64 of the fields in their Go order, start being the key just after the last one', () => {
    const token = encodeContinue(12, 'default/a');
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(token, 'base64url').toString('utf8')).toBe(
      '{"v":"meta.k8s.io/v1","rv":12,"start":"default/a\\u0000"}',
    );
  });

  it('reads back as the position after the key, at the same resourceVersion, -1 included', () => {
    expect(decodeContinue(encodeContinue(7, 'ns/lease-1'))).toEqual({
      ok: true,
      value: { rv: 7, start: 'ns/lease-1\u0000' },
    });
    expect(decodeContinue(encodeContinue(-1, 'x'))).toEqual({ ok: true, value: { rv: -1, start: 'x\u0000' } });
  });
});

describe('decodeContinue (DecodeContinue, Test_decodeContinue)', () => {
  it.each<[string, string, number, string]>([
    ['valid', 'key', 1, 'key'],
    ['root path', '/', 1, ''],
    // Not in Test_decodeContinue, but what the same code does: a leading slash is the prefix's, any negative rv
    // (etcd3/store.go continueRV < 0) asks for the latest state.
    ['a rooted key', '/key', 1, 'key'],
    ['a negative resourceVersion other than -1', 'key', -2, 'key'],
  ])('%s: start %j at rv %d continues from %j', (_name, start, rv, from) => {
    expect(decodeContinue(goToken('meta.k8s.io/v1', rv, start))).toEqual({ ok: true, value: { rv, start: from } });
  });

  it.each<[string, string, string]>([
    [
      'empty version',
      goToken('', 1, 'key'),
      'continue key is not valid: server does not recognize this encoded version ',
    ],
    [
      'invalid version',
      goToken('v1', 1, 'key'),
      'continue key is not valid: server does not recognize this encoded version v1',
    ],
    ['invalid RV', goToken('meta.k8s.io/v1', 0, 'key'), ERR_INVALID_START_RV],
    ['no start Key', goToken('meta.k8s.io/v1', 1, ''), ERR_EMPTY_START_KEY],
    ['path traversal - parent', goToken('meta.k8s.io/v1', 1, '../key'), 'continue key is not valid: ../key'],
    ['path traversal - local', goToken('meta.k8s.io/v1', 1, './key'), 'continue key is not valid: ./key'],
    ['path traversal - double parent', goToken('meta.k8s.io/v1', 1, './../key'), 'continue key is not valid: ./../key'],
    [
      'path traversal - after parent',
      goToken('meta.k8s.io/v1', 1, 'key/../..'),
      'continue key is not valid: key/../..',
    ],
  ])('%s: refused with %j', (_name, token, message) => {
    expect(errorOf(token)).toBe(message);
  });
});

describe("decodeContinue reads as Go's base64.RawURLEncoding and json.Unmarshal do", () => {
  const json = '{"v":"meta.k8s.io/v1","rv":3,"start":"k"}';

  it('refuses padded and standard-alphabet base64, skips line breaks, refuses a lone last character', () => {
    expect(errorOf(Buffer.from(json).toString('base64'))).toMatch(
      /^continue key is not valid: illegal base64 data at input byte \d+$/,
    );
    expect(errorOf(`${raw(json).slice(0, 10)}+${raw(json).slice(10)}`)).toBe(
      'continue key is not valid: illegal base64 data at input byte 10',
    );
    expect(decodeContinue(`${raw(json).slice(0, 8)}\r\n${raw(json).slice(8)}`)).toEqual({
      ok: true,
      value: { rv: 3, start: 'k' },
    });
    expect(errorOf('abcde')).toBe('continue key is not valid: illegal base64 data at input byte 4');
  });

  it('matches field names case-insensitively, the later key winning; null and unknown keys change nothing', () => {
    expect(decodeContinue(raw('{"V":"meta.k8s.io/v1","RV":4,"Start":"a","start":"b","x":1}'))).toEqual({
      ok: true,
      value: { rv: 4, start: 'b' },
    });
    expect(errorOf(raw('{"v":"meta.k8s.io/v1","rv":null,"start":"k"}'))).toBe(ERR_INVALID_START_RV);
  });

  it.each<[string, string]>([
    ['[1]', 'json: cannot unmarshal array into Go value of type storage.continueToken'],
    ['"x"', 'json: cannot unmarshal string into Go value of type storage.continueToken'],
    [
      '{"v":"meta.k8s.io/v1","rv":"3","start":"k"}',
      'json: cannot unmarshal string into Go struct field continueToken.rv of type int64',
    ],
    [
      '{"v":"meta.k8s.io/v1","rv":1.5,"start":"k"}',
      'json: cannot unmarshal number 1.5 into Go struct field continueToken.rv of type int64',
    ],
    [
      '{"v":1,"rv":3,"start":"k"}',
      'json: cannot unmarshal number 1 into Go struct field continueToken.v of type string',
    ],
    [
      '{"v":"meta.k8s.io/v1","rv":3,"start":["k"]}',
      'json: cannot unmarshal array into Go struct field continueToken.start of type string',
    ],
  ])('%s: refused with %j', (json, message) => {
    expect(errorOf(raw(json))).toBe(`continue key is not valid: ${message}`);
  });

  it.each<[string, string]>([
    ['{"v":"meta.k8s.io/v1","rv":1.0,"start":"k"}', '1.0'],
    ['{"v":"meta.k8s.io/v1","rv":1e3,"start":"k"}', '1e3'],
    ['{"v":"meta.k8s.io/v1","rv":9223372036854775808,"start":"k"}', '9223372036854775808'],
  ])('%s: refused as strconv.ParseInt refuses %s', (json, literal) => {
    expect(errorOf(raw(json))).toBe(
      `continue key is not valid: json: cannot unmarshal number ${literal} into Go struct field continueToken.rv of type int64`,
    );
  });

  it('reads JSON null as an empty token: an encoded version it does not know', () => {
    expect(errorOf(raw('null'))).toBe('continue key is not valid: server does not recognize this encoded version ');
  });

  it("words a syntax error as Go's json.SyntaxError", () => {
    expect(errorOf(raw('{"v":'))).toBe('continue key is not valid: unexpected end of JSON input');
  });
});

describe("cleanRootedPath (Go's path.Clean on a rooted path)", () => {
  // path_test.go cleantests, those that start with a slash.
  it.each([
    ['/', '/'],
    ['/abc', '/abc'],
    ['/abc/def', '/abc/def'],
    ['/abc/', '/abc'],
    ['//abc', '/abc'],
    ['/./abc', '/abc'],
    ['/abc/.', '/abc'],
    ['/abc/..', '/'],
    ['/abc/../../..', '/'],
    ['/../abc', '/abc'],
    ['/abc/./../def', '/def'],
    ['/abc//./../def', '/def'],
  ])('%j → %j', (path, cleaned) => {
    expect(cleanRootedPath(path)).toBe(cleaned);
  });
});
