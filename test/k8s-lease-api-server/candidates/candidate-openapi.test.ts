// The LeaseCandidate OpenAPI v3 document of each served version, derived from the Lease's, named as kubernetes'
// api/openapi-spec/v3/apis__coordination.k8s.io__<version>_openapi.json names it: leasecandidates paths,
// io.k8s.api.coordination.<version>.LeaseCandidate{,List,Spec} schemas, operation ids such as
// readCoordinationV1beta1NamespacedLeaseCandidate, the group-version-kind extension, and the spec's required
// fields of the version (v1alpha1: leaseName and preferredStrategies; later: leaseName, binaryVersion, strategy).
import { describe, expect, it } from 'vitest';
import { candidateOpenApiDocument } from '../../../templates/k8s-lease-api-server/src/candidates/candidate-openapi.js';
import { type JsonObject, objectAt } from '../../../templates/k8s-lease-api-server/src/json.js';
import { fallbackOpenApi } from '../../../templates/k8s-lease-api-server/src/openapi/fallback-openapi.js';

function document(version: 'v1alpha1' | 'v1beta1'): JsonObject {
  const doc = candidateOpenApiDocument(fallbackOpenApi(), version);
  if (doc === undefined) throw new Error('no LeaseCandidate document');
  return doc;
}

const schemasOf = (doc: JsonObject): JsonObject => objectAt(objectAt(doc, 'components') ?? {}, 'schemas') ?? {};

describe('candidateOpenApiDocument', () => {
  it('serves the leasecandidates paths of the version', () => {
    expect(Object.keys(objectAt(document('v1beta1'), 'paths') ?? {})).toEqual([
      '/apis/coordination.k8s.io/v1beta1/leasecandidates',
      '/apis/coordination.k8s.io/v1beta1/namespaces/{namespace}/leasecandidates',
      '/apis/coordination.k8s.io/v1beta1/namespaces/{namespace}/leasecandidates/{name}',
    ]);
  });

  it('renames operations and the group-version-kind', () => {
    const item = objectAt(
      objectAt(document('v1beta1'), 'paths') ?? {},
      '/apis/coordination.k8s.io/v1beta1/namespaces/{namespace}/leasecandidates/{name}',
    );
    const get = objectAt(item ?? {}, 'get') ?? {};
    expect(get['operationId']).toBe('readCoordinationV1beta1NamespacedLeaseCandidate');
    expect(get['x-kubernetes-group-version-kind']).toEqual({
      group: 'coordination.k8s.io',
      kind: 'LeaseCandidate',
      version: 'v1beta1',
    });
  });

  it('replaces the Lease schemas with the LeaseCandidate ones and keeps the shared meta schemas', () => {
    const names = Object.keys(schemasOf(document('v1beta1')));
    expect(names.filter((n) => n.startsWith('io.k8s.api.coordination.')).sort()).toEqual([
      'io.k8s.api.coordination.v1beta1.LeaseCandidate',
      'io.k8s.api.coordination.v1beta1.LeaseCandidateList',
      'io.k8s.api.coordination.v1beta1.LeaseCandidateSpec',
    ]);
    expect(names).toContain('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');
  });

  it('requires the spec fields of each version', () => {
    const spec = (version: 'v1alpha1' | 'v1beta1'): JsonObject =>
      objectAt(schemasOf(document(version)), `io.k8s.api.coordination.${version}.LeaseCandidateSpec`) ?? {};
    expect(spec('v1beta1')['required']).toEqual(['leaseName', 'binaryVersion', 'strategy']);
    expect(spec('v1alpha1')['required']).toEqual(['leaseName', 'preferredStrategies']);
    expect(Object.keys(objectAt(spec('v1alpha1'), 'properties') ?? {})).toContain('preferredStrategies');
    expect(Object.keys(objectAt(spec('v1beta1'), 'properties') ?? {})).toContain('strategy');
  });

  it('derives nothing from a document without the Lease schema', () => {
    expect(candidateOpenApiDocument({ openapi: '3.0.0', paths: {} }, 'v1beta1')).toBeUndefined();
  });
});
