import { describe, expect, it } from 'vitest';
import { parseYaml } from '../../../templates/k8s-lease-api-server/src/decode/yaml.js';

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
