// Stored objects are serialised once: a typed object has kind and apiVersion first (as Go's json.Marshal
// writes TypeMeta, the struct's first field), list items are bare, and the text is cached per object and
// per type meta (one stored LeaseCandidate is served in two group versions).
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../templates/k8s-lease-api-server/src/json.js';
import { resourceInfo } from '../../templates/k8s-lease-api-server/src/lease-meta.js';
import { bareJson, typedJson } from '../../templates/k8s-lease-api-server/src/serialize.js';

describe('bareJson and typedJson', () => {
  it('write the object bare, or with kind and apiVersion first', () => {
    const obj: JsonObject = { metadata: { name: 'a' }, spec: {} };
    expect(bareJson(obj)).toBe('{"metadata":{"name":"a"},"spec":{}}');
    expect(typedJson(obj)).toBe(
      '{"kind":"Lease","apiVersion":"coordination.k8s.io/v1","metadata":{"name":"a"},"spec":{}}',
    );
    expect(typedJson({})).toBe('{"kind":"Lease","apiVersion":"coordination.k8s.io/v1"}');
  });

  it('serialise each object once: a later change to it (which stored objects never have) is not seen', () => {
    const obj: JsonObject = { metadata: { name: 'a' } };
    const first = typedJson(obj);
    obj['spec'] = { holderIdentity: 'x' };
    expect(typedJson(obj)).toBe(first);
    expect(bareJson(obj)).toBe('{"metadata":{"name":"a"}}');
  });

  it('keep one text per type meta for the same object', () => {
    const obj: JsonObject = { metadata: { name: 'c' } };
    const v1beta1 = resourceInfo('v1beta1', 'LeaseCandidate', 'leasecandidates');
    const v1alpha2 = resourceInfo('v1alpha2', 'LeaseCandidate', 'leasecandidates');
    expect(JSON.parse(typedJson(obj, v1beta1))).toEqual({
      kind: 'LeaseCandidate',
      apiVersion: 'coordination.k8s.io/v1beta1',
      metadata: { name: 'c' },
    });
    expect(JSON.parse(typedJson(obj, v1alpha2))['apiVersion']).toBe('coordination.k8s.io/v1alpha2');
    expect(JSON.parse(typedJson(obj, v1beta1))['apiVersion']).toBe('coordination.k8s.io/v1beta1');
  });
});
