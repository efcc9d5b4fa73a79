// How the served resources are named, as kube-apiserver's discovery names them (`kubectl api-resources`:
// leases, singular lease, coordination.k8s.io/v1, kind Lease, verbs create delete deletecollection get list
// patch update watch) and as its Status messages qualify them (leases.coordination.k8s.io).
import { describe, expect, it } from 'vitest';
import {
  API_PREFIX,
  LEASE_RESOURCE,
  QUALIFIED_KIND,
  QUALIFIED_RESOURCE,
  VERBS,
  resourceInfo,
} from '../../templates/k8s-lease-api-server/src/lease-meta.js';

describe('the Lease resource', () => {
  it('is named as discovery and Status messages name it', () => {
    expect(LEASE_RESOURCE).toEqual({
      version: 'v1',
      groupVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      listKind: 'LeaseList',
      plural: 'leases',
      singular: 'lease',
      qualifiedResource: 'leases.coordination.k8s.io',
      qualifiedKind: 'Lease.coordination.k8s.io',
      typeMetaPrefix: '{"kind":"Lease","apiVersion":"coordination.k8s.io/v1",',
    });
    expect([QUALIFIED_RESOURCE, QUALIFIED_KIND, API_PREFIX]).toEqual([
      'leases.coordination.k8s.io',
      'Lease.coordination.k8s.io',
      '/apis/coordination.k8s.io/v1',
    ]);
    expect([...VERBS]).toEqual(['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
  });
});

describe('resourceInfo', () => {
  it('derives the names of another kind of the group, and a type meta prefix that opens a JSON object', () => {
    const info = resourceInfo('v1beta1', 'LeaseCandidate', 'leasecandidates');
    expect(info).toMatchObject({
      groupVersion: 'coordination.k8s.io/v1beta1',
      listKind: 'LeaseCandidateList',
      singular: 'leasecandidate',
      qualifiedResource: 'leasecandidates.coordination.k8s.io',
      qualifiedKind: 'LeaseCandidate.coordination.k8s.io',
    });
    expect(JSON.parse(`${info.typeMetaPrefix}"spec":{}}`)).toEqual({
      kind: 'LeaseCandidate',
      apiVersion: 'coordination.k8s.io/v1beta1',
      spec: {},
    });
  });
});
