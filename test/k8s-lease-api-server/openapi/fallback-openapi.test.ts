// The OpenAPI v3 document served when no release document is packaged: the coordination.k8s.io/v1 part of
// kube-apiserver's /openapi/v3/apis/coordination.k8s.io/v1 — the three Lease paths, the Lease schemas with the
// group-version-kind extension, and the meta/v1 schemas they refer to.
import { describe, expect, it } from 'vitest';
import { type JsonObject, objectAt } from '../../../templates/k8s-lease-api-server/src/json.js';
import { fallbackOpenApi } from '../../../templates/k8s-lease-api-server/src/openapi/fallback-openapi.js';

describe('fallbackOpenApi', () => {
  const doc = fallbackOpenApi();
  const schemas: JsonObject = objectAt(objectAt(doc, 'components') ?? {}, 'schemas') ?? {};

  it('is an OpenAPI 3.0 document of the Lease paths', () => {
    expect(doc['openapi']).toBe('3.0.0');
    expect(Object.keys(objectAt(doc, 'paths') ?? {})).toEqual([
      '/apis/coordination.k8s.io/v1/leases',
      '/apis/coordination.k8s.io/v1/namespaces/{namespace}/leases',
      '/apis/coordination.k8s.io/v1/namespaces/{namespace}/leases/{name}',
    ]);
  });

  it('declares the Lease with its group-version-kind and every schema it refers to', () => {
    expect(objectAt(schemas, 'io.k8s.api.coordination.v1.Lease')?.['x-kubernetes-group-version-kind']).toEqual([
      { group: 'coordination.k8s.io', kind: 'Lease', version: 'v1' },
    ]);
    const refs = new Set([...JSON.stringify(doc).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]));
    for (const ref of refs) expect(Object.keys(schemas), String(ref)).toContain(ref);
  });

  it('marks the ObjectMeta lists as the Kubernetes OpenAPI does', () => {
    const meta =
      objectAt(objectAt(schemas, 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta') ?? {}, 'properties') ?? {};
    expect(objectAt(meta, 'finalizers')?.['x-kubernetes-list-type']).toBe('set');
    expect(objectAt(meta, 'ownerReferences')).toMatchObject({
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['uid'],
      'x-kubernetes-patch-merge-key': 'uid',
      'x-kubernetes-patch-strategy': 'merge',
    });
  });

  it('returns a new document each time, so a caller may change its copy', () => {
    const first = fallbackOpenApi();
    first['openapi'] = 'changed';
    expect(fallbackOpenApi()['openapi']).toBe('3.0.0');
  });
});
