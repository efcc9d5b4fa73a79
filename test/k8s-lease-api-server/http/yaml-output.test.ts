// YAML bodies as kube-apiserver's YAML serializer writes them: sigs.k8s.io/yaml JSONToYAML, i.e. go-yaml v2
// marshalling generic maps — keys sorted, block sequences at their key's indentation, multi-line strings as
// literal blocks, and double quotes on every string (key or value) YAML 1.1 would read as something else
// (y/N/yes booleans, numbers, timestamps, ~, the empty string).
import { describe, expect, it } from 'vitest';
import { yamlFromJson } from '../../../templates/k8s-lease-api-server/src/http/yaml-output.js';

describe('yamlFromJson', () => {
  it('writes a Lease as kubectl get -o yaml shows it', () => {
    const lease = {
      kind: 'Lease',
      apiVersion: 'coordination.k8s.io/v1',
      metadata: { name: 'a', namespace: 'default', labels: { app: 'web' }, finalizers: ['x'] },
      spec: { holderIdentity: 'h', leaseDurationSeconds: 15 },
    };
    expect(yamlFromJson(JSON.stringify(lease))).toBe(
      [
        'apiVersion: coordination.k8s.io/v1',
        'kind: Lease',
        'metadata:',
        '  finalizers:',
        '  - x',
        '  labels:',
        '    app: web',
        '  name: a',
        '  namespace: default',
        'spec:',
        '  holderIdentity: h',
        '  leaseDurationSeconds: 15',
        '',
      ].join('\n'),
    );
  });

  it('quotes strings YAML 1.1 would resolve to another type, keys included', () => {
    const value = { y: 'N', s: 'yes', n: '1', t: '2024-01-01', tilde: '~', empty: '', plain: 'x', z: null, f: 1.5 };
    expect(yamlFromJson(JSON.stringify(value))).toBe(
      [
        'empty: ""',
        'f: 1.5',
        '"n": "1"',
        'plain: x',
        's: "yes"',
        't: "2024-01-01"',
        'tilde: "~"',
        '"y": "N"',
        'z: null',
        '',
      ].join('\n'),
    );
  });

  it('writes empty collections in flow style, lists of maps compactly and multi-line strings as literal blocks', () => {
    expect(yamlFromJson(JSON.stringify({ e: {}, l: [], o: { k: [{ p: 1, q: 'v' }] }, m: 'a\nb' }))).toBe(
      ['e: {}', 'l: []', 'm: |-', '  a', '  b', 'o:', '  k:', '  - p: 1', '    q: v', ''].join('\n'),
    );
  });
});
