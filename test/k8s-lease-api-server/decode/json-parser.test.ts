import { describe, expect, it } from 'vitest';
import { parseJsonStrict } from '../../../templates/k8s-lease-api-server/src/decode/json-parser.js';

describe('JSON parser', () => {
  it('parses like JSON.parse and reports duplicate keys with their paths', () => {
    const parsed = parseJsonStrict('{"a":{"b":1,"b":2},"l":[{"x":1,"x":"é\\n"}],"n":-1.5e2,"t":true,"z":null}');
    expect(parsed).toEqual({
      ok: true,
      value: {
        value: { a: { b: 2 }, l: [{ x: 'é\n' }], n: -150, t: true, z: null },
        duplicates: ['a.b', 'l[0].x'],
        duplicateOffsets: [12, 31],
        numbers: new Map([['n', '-1.5e2']]),
      },
    });
  });

  it('words syntax errors like encoding/json', () => {
    expect(parseJsonStrict('{"a" 1}')).toEqual({ ok: false, error: "invalid character '1' after object key" });
    expect(parseJsonStrict('[1 2]')).toEqual({ ok: false, error: "invalid character '2' after array element" });
    expect(parseJsonStrict('{} x')).toEqual({ ok: false, error: "invalid character 'x' after top-level value" });
    expect(parseJsonStrict('tru')).toEqual({ ok: false, error: 'unexpected end of JSON input' });
  });
});
