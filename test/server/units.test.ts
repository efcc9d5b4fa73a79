import { describe, expect, it } from 'vitest';
import { parseJsonStrict } from '../../templates/server/decode/json-parser.js';
import { parseYaml } from '../../templates/server/decode/yaml.js';
import { fieldLeaves, fromFieldsV1, pathToString, toFieldsV1 } from '../../templates/server/managed/field-set.js';
import { humanDuration } from '../../templates/server/http/human-duration.js';
import { formatMicroTime, formatTime, parseMicroTime, parseTime } from '../../templates/server/time.js';
import * as der from '../../templates/server/tls/der.js';

describe('time', () => {
  it('formats Time at second precision and MicroTime with six digits', () => {
    const ms = Date.parse('2024-02-29T23:59:59.987Z');
    expect(formatTime(ms)).toBe('2024-02-29T23:59:59Z');
    expect(formatMicroTime(ms)).toBe('2024-02-29T23:59:59.987000Z');
  });

  it('parses like Go time.Parse', () => {
    expect(parseMicroTime('2024-01-01T00:00:00.000001-01:30')).toEqual({ ok: true, value: '2024-01-01T01:30:00.000001Z' });
    expect(parseMicroTime('2024-02-30T00:00:00.000000Z')).toEqual({ ok: false, error: 'parsing time "2024-02-30T00:00:00.000000Z": day out of range' });
    expect(parseMicroTime('2024-01-01 00:00:00.000000Z')).toEqual({
      ok: false,
      error: 'parsing time "2024-01-01 00:00:00.000000Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse " 00:00:00.000000Z" as "T"',
    });
    expect(parseMicroTime('2024-01-01T00:00:00.000000Zjunk')).toEqual({ ok: false, error: 'parsing time "2024-01-01T00:00:00.000000Zjunk": extra text: "junk"' });
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
    expect(parsed).toEqual({ ok: true, value: { value: { a: { b: 2 }, l: [{ x: 'é\n' }], n: -150, t: true, z: null }, duplicates: ['a.b', 'l[0].x'], numbers: new Map([['n', '-1.5e2']]) } });
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
});

describe('managed fields sets', () => {
  const lease = {
    metadata: { name: 'n', namespace: 'd', labels: { a: '1' }, ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'u1' }], finalizers: ['f'] },
    spec: { holderIdentity: 'h' },
  };

  it('computes Update field sets with "." for maps and lists, skipping server-owned metadata', () => {
    const fields = toFieldsV1(fieldLeaves(lease, 'update').keys());
    expect(fields).toEqual({
      'f:metadata': {
        'f:finalizers': { '.': {}, 'v:"f"': {} },
        'f:labels': { '.': {}, 'f:a': {} },
        'f:ownerReferences': { '.': {}, 'k:{"uid":"u1"}': {} },
      },
      'f:spec': { 'f:holderIdentity': {} },
    });
    expect([...fromFieldsV1(fields)].sort()).toEqual([...fieldLeaves(lease, 'update').keys()].sort());
  });

  it('computes Apply field sets without "." for non-empty maps', () => {
    expect(toFieldsV1(fieldLeaves({ metadata: { labels: { a: '1' } }, spec: {} }, 'apply').keys())).toEqual({ 'f:metadata': { 'f:labels': { 'f:a': {} } }, 'f:spec': {} });
  });

  it('prints paths the way structured-merge-diff does', () => {
    expect(pathToString('f:spec\nf:holderIdentity')).toBe('.spec.holderIdentity');
    expect(pathToString('f:metadata\nf:ownerReferences\nk:{"uid":"u1"}')).toBe('.metadata.ownerReferences[uid="u1"]');
    expect(pathToString('f:metadata\nf:finalizers\nv:"f"')).toBe('.metadata.finalizers[="f"]');
  });
});

describe('DER', () => {
  it('encodes the primitives X.509 needs', () => {
    expect(der.objectIdentifier('1.2.840.10045.4.3.2')).toEqual(Buffer.from('06082a8648ce3d040302', 'hex'));
    expect(der.unsignedInteger(Buffer.from([0x00, 0x80]))).toEqual(Buffer.from('02020080', 'hex'));
    expect(der.time(new Date('2030-01-02T03:04:05Z'))).toEqual(Buffer.concat([Buffer.from([0x17, 13]), Buffer.from('300102030405Z')]));
    expect(der.time(new Date('2050-01-01T00:00:00Z'))[0]).toBe(0x18);
    expect(der.tlv(0x04, Buffer.alloc(200)).subarray(0, 3)).toEqual(Buffer.from([0x04, 0x81, 200]));
  });
});
