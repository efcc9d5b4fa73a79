import { describe, expect, it } from 'vitest';
import { parseJsonStrict } from '../../../templates/k8s-lease-api-server/src/decode/json-parser.js';
import type { StrictShape } from '../../../templates/k8s-lease-api-server/src/decode/strict-shape.js';

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

// sigs.k8s.io/json internal/golang/encoding/json decode.go object and kubernetes_patch.go saveStrictError:
// strict errors are saved at the key, before its value, in the order met, each once, at most 100.
describe('JSON parser with the decoded type’s shape', () => {
  const opaque: StrictShape = { kind: 'opaque' };
  const shape: StrictShape = {
    kind: 'struct',
    fields: {
      spec: {
        kind: 'struct',
        fields: { holder: opaque, list: { kind: 'list', items: { kind: 'struct', fields: {} } } },
      },
      labels: { kind: 'map', values: opaque },
      raw: opaque,
    },
  };
  const strict = (text: string): string[] | undefined => {
    const parsed = parseJsonStrict(text, shape);
    return parsed.ok ? parsed.value.strictErrors : [parsed.error];
  };

  it('interleaves unknown and duplicate fields in document order, each once', () => {
    expect(
      strict('{"spec":{"zz":1,"holder":"a","holder":"b","aa":{"x":1,"x":2},"zz":3},"labels":{"k":"1","k":"2"}}'),
    ).toEqual([
      'unknown field "spec.zz"',
      'duplicate field "spec.holder"',
      'unknown field "spec.aa"',
      'duplicate field "labels.k"',
    ]);
  });

  it('reports a repeated key before what repeats inside it, and looks inside a repeated struct again', () => {
    expect(strict('{"spec":{},"spec":{"holder":1,"holder":2,"u":1}}')).toEqual([
      'duplicate field "spec"',
      'duplicate field "spec.holder"',
      'unknown field "spec.u"',
    ]);
  });

  it('checks list items, and neither opaque values nor values of the wrong JSON kind', () => {
    expect(strict('{"spec":{"list":[{},{"u":1}]},"raw":{"a":1,"a":2}}')).toEqual(['unknown field "spec.list[1].u"']);
    expect(strict('{"spec":[{"u":1}],"labels":[{"a":1,"a":1}]}')).toEqual([]);
  });

  it('quotes paths as strconv.Quote and keeps at most 100 errors', () => {
    expect(strict('{"a\\u0001é":1}')).toEqual(['unknown field "a\\x01é"']);
    const many = `{${Array.from({ length: 150 }, (_, i) => `"u${i}":1`).join(',')}}`;
    const errors = strict(many) ?? [];
    expect(errors).toHaveLength(100);
    expect(errors.at(-1)).toBe('unknown field "u99"');
  });

  it('collects no strict errors without a shape', () => {
    const parsed = parseJsonStrict('{"a":1,"a":2}');
    expect(parsed.ok && parsed.value.strictErrors).toBeUndefined();
  });
});
