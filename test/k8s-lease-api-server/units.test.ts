import { describe, expect, it } from 'vitest';
import { parseJsonStrict } from '../../templates/k8s-lease-api-server/src/decode/json-parser.js';
import { parseYaml } from '../../templates/k8s-lease-api-server/src/decode/yaml.js';
import { humanDuration } from '../../templates/k8s-lease-api-server/src/http/human-duration.js';
import {
  formatMicroTime,
  formatTime,
  parseMicroTime,
  parseTime,
} from '../../templates/k8s-lease-api-server/src/time.js';
import { parseQueryBool, watchTimeoutMs } from '../../templates/k8s-lease-api-server/src/http/request-options.js';
import { goQuote, parseInt64 } from '../../templates/k8s-lease-api-server/src/selectors/strconv.js';

describe('time', () => {
  it('formats Time at second precision and MicroTime with six digits', () => {
    const ms = Date.parse('2024-02-29T23:59:59.987Z');
    expect(formatTime(ms)).toBe('2024-02-29T23:59:59Z');
    expect(formatMicroTime(ms)).toBe('2024-02-29T23:59:59.987000Z');
  });

  it('parses like Go time.Parse', () => {
    expect(parseMicroTime('2024-01-01T00:00:00.000001-01:30')).toEqual({
      ok: true,
      value: '2024-01-01T01:30:00.000001Z',
    });
    expect(parseMicroTime('2024-02-30T00:00:00.000000Z')).toEqual({
      ok: false,
      error: 'parsing time "2024-02-30T00:00:00.000000Z": day out of range',
    });
    expect(parseMicroTime('2024-01-01 00:00:00.000000Z')).toEqual({
      ok: false,
      error:
        'parsing time "2024-01-01 00:00:00.000000Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse " 00:00:00.000000Z" as "T"',
    });
    expect(parseMicroTime('2024-01-01T00:00:00.000000Zjunk')).toEqual({
      ok: false,
      error: 'parsing time "2024-01-01T00:00:00.000000Zjunk": extra text: "junk"',
    });
    expect(parseTime('2024-01-01T00:00:00.5+01:00')).toEqual({ ok: true, value: '2023-12-31T23:00:00Z' });
  });

  it('renders ages like kubectl', () => {
    expect(humanDuration(5_000)).toBe('5s');
    expect(humanDuration(150_000)).toBe('2m30s');
    expect(humanDuration(11 * 60_000)).toBe('11m');
    expect(humanDuration(5 * 3_600_000 + 60_000)).toBe('5h1m');
    expect(humanDuration(3 * 86_400_000)).toBe('3d');
    expect(humanDuration(-5_000)).toBe('<invalid>');
  });
});

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

describe('YAML reader', () => {
  it('reads block mappings, sequences, quoted and typed scalars', () => {
    const text = [
      '# a lease',
      'apiVersion: coordination.k8s.io/v1',
      'kind: Lease',
      'metadata:',
      '  name: "x"',
      '  labels: {a: b, c: "d"}',
      '  finalizers:',
      '  - one',
      "  - 'two''s'",
      '  ownerReferences:',
      '    - apiVersion: v1',
      '      kind: Pod',
      '      uid: "123"',
      '      controller: true',
      'spec:',
      '  leaseDurationSeconds: 15',
      '  holderIdentity: ~',
      '  empty: []',
    ].join('\n');
    expect(parseYaml(text)).toEqual({
      ok: true,
      value: {
        duplicates: [],
        duplicateLines: [],
        value: {
          apiVersion: 'coordination.k8s.io/v1',
          kind: 'Lease',
          metadata: {
            name: 'x',
            labels: { a: 'b', c: 'd' },
            finalizers: ['one', "two's"],
            ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', uid: '123', controller: true }],
          },
          spec: { leaseDurationSeconds: 15, holderIdentity: null, empty: [] },
        },
      },
    });
  });

  it('reports duplicates and unsupported constructs', () => {
    const dup = parseYaml('a: 1\na: 2\n');
    expect(dup.ok && dup.value.duplicates).toEqual(['a']);
    // Anchors are plain YAML that go-yaml resolves; custom tags are refused.
    expect(parseYaml('a: &anchor 1\nb: *anchor\n')).toMatchObject({ ok: true, value: { value: { a: 1, b: 1 } } });
    expect(parseYaml('a: !custom 1').ok).toBe(false);
  });

  it('resolves an alias to the last anchor of its name before it, and refuses an anchor containing itself (go-yaml v2)', () => {
    expect(parseYaml('a: &x 1\nb: *x\nc: &x 2\nd: *x\n')).toMatchObject({
      ok: true,
      value: { value: { a: 1, b: 1, c: 2, d: 2 } },
    });
    expect(parseYaml('a: &a [1, *a]\n')).toEqual({ ok: false, error: "yaml: anchor 'a' value contains itself" });
  });

  it('words duplicate keys as go-yaml (line of the repeated key, %#v of the key), JSON read as YAML alike', () => {
    const yaml = parseYaml('a: 1\nb:\n  c: 1\n  c: 2\n1: x\n1: y\n');
    expect(yaml.ok && yaml.value.duplicateLines).toEqual([
      'line 4: key "c" already set in map',
      'line 6: key 1 already set in map',
    ]);
    const json = parseYaml('{"a":1,\n "a.b":2,\n "a.b":3}');
    expect(json.ok && json.value.duplicateLines).toEqual(['line 3: key "a.b" already set in map']);
  });
});

describe('strconv.ParseInt(s, 10, 64)', () => {
  const cases: [string, bigint | string][] = [
    ['0', 0n],
    ['+7', 7n],
    ['-7', -7n],
    ['007', 7n],
    ['9223372036854775807', 9223372036854775807n],
    ['-9223372036854775808', -9223372036854775808n],
    ['9223372036854775808', 'strconv.ParseInt: parsing "9223372036854775808": value out of range'],
    ['18446744073709551616', 'strconv.ParseInt: parsing "18446744073709551616": value out of range'],
    ['1a', 'strconv.ParseInt: parsing "1a": invalid syntax'],
    ['', 'strconv.ParseInt: parsing "": invalid syntax'],
    ['-', 'strconv.ParseInt: parsing "-": invalid syntax'],
    ['+-1', 'strconv.ParseInt: parsing "+-1": invalid syntax'],
    ['١', 'strconv.ParseInt: parsing "١": invalid syntax'],
  ];
  it.each(cases)('%j → %s', (text, expected) => {
    const parsed = parseInt64(text);
    expect(parsed.ok ? parsed.value : parsed.error).toBe(expected);
  });
});

describe('Go %q', () => {
  const cases: [string, string][] = [
    ['plain', '"plain"'],
    ['"\\', '"\\"\\\\"'],
    ['\u0000\u0007\b\f\n\r\t\u000b\u001f\u007f', '"\\x00\\a\\b\\f\\n\\r\\t\\v\\x1f\\x7f"'],
    ['é€😀', '"é€😀"'],
    ['\u00ad\u200b\u{e0001}', '"\\u00ad\\u200b\\U000e0001"'],
  ];
  it.each(cases)('%j → %s', (text, expected) => {
    expect(goQuote(text)).toBe(expected);
  });
});

describe('boolean query values', () => {
  const cases: [string | null, boolean | undefined][] = [
    [null, undefined],
    ['', true],
    ['true', true],
    ['True', true],
    ['1', true],
    ['no', true],
    ['0', false],
    ['false', false],
    ['FaLsE', false],
    ['falſe', false],
    ['false ', true],
  ];
  it.each(cases)('%j → %s', (value, expected) => {
    expect(parseQueryBool(value)).toBe(expected);
  });
});

describe('watch lifetime from timeoutSeconds', () => {
  const cases: [bigint | undefined, number, number][] = [
    [undefined, 0, 1_800_000],
    [undefined, 0.5, 2_700_000],
    [0n, 0.999, 3_598_200],
    [1n, 0, 1000],
    [2147484n, 0, 2_147_484_000],
    [9223372036n, 0, 9_223_372_036_000],
    [-1n, 0, 0],
    [9223372037n, 0, 0],
    [18446744074n, 0, 290],
  ];
  it.each(cases)('%s s (random %s) → %i ms', (seconds, random, expected) => {
    expect(watchTimeoutMs(seconds, random)).toBe(expected);
  });
});
