// A BOOKMARK's object: the watch cache's empty object of the resource with only its resourceVersion set
// (k8s.io/apiserver/pkg/storage/cacher/cacher.go dispatchEvents), serialised as the served version's Go type
// is: spec without omitempty fields dropped (k8s.io/api/coordination/*/types.go), and creationTimestamp null
// until 1.34's omitzero (kubernetes/kubernetes#130989).
import { describe, expect, it } from 'vitest';
import { bookmarkObject } from '../../../templates/k8s-lease-api-server/src/http/bookmark-object.js';
import { candidateResource } from '../../../templates/k8s-lease-api-server/src/candidates/candidate-resource.js';
import { resourceInfo } from '../../../templates/k8s-lease-api-server/src/lease-meta.js';

const LEASE = resourceInfo('v1', 'Lease', 'leases');

describe('bookmarkObject', () => {
  it('is an empty Lease with creationTimestamp null up to 1.33, in ObjectMeta field order', () => {
    const object = bookmarkObject(42, true, LEASE, '1.33.0');
    expect(JSON.stringify(object)).toBe(
      '{"metadata":{"resourceVersion":"42","creationTimestamp":null,"annotations":{"k8s.io/initial-events-end":"true"}},"spec":{}}',
    );
  });

  it('drops creationTimestamp from 1.34', () => {
    expect(bookmarkObject(7, false, LEASE, '1.34.1')).toStrictEqual({ metadata: { resourceVersion: '7' }, spec: {} });
    expect(bookmarkObject(7, false, LEASE, '1.35.0')).toStrictEqual({ metadata: { resourceVersion: '7' }, spec: {} });
  });

  it("keeps a LeaseCandidate's non-omitempty spec fields at their zero values, per version", () => {
    expect(bookmarkObject(1, false, candidateResource('v1alpha1'), '1.31.0')['spec']).toStrictEqual({ leaseName: '' });
    expect(bookmarkObject(1, false, candidateResource('v1alpha2'), '1.32.0')['spec']).toStrictEqual({
      leaseName: '',
      binaryVersion: '',
    });
    expect(bookmarkObject(1, false, candidateResource('v1beta1'), '1.35.0')['spec']).toStrictEqual({
      leaseName: '',
      binaryVersion: '',
    });
  });
});
