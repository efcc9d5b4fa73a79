// The field manager of one served resource: its structured-merge-diff type (built once per schema) and the
// group versions its managedFields entries may name — those kube-apiserver registers the kind in (Lease:
// coordination.k8s.io v1 and v1beta1; LeaseCandidate: v1alpha1, v1alpha2, v1beta1), an entry at any other
// version being dropped as SMD drops managers whose version does not convert.
import { describe, expect, it } from 'vitest';
import { LEASE_RESOURCE, resourceInfo } from '../../../templates/k8s-lease-api-server/src/lease-meta.js';
import {
  fieldManagerFor,
  updaterSchema,
} from '../../../templates/k8s-lease-api-server/src/managed/resource-field-manager.js';
import { LEASE_SCHEMA } from '../helpers/lease-schema.js';

describe('updaterSchema', () => {
  it('converts a Lease between coordination.k8s.io v1 and v1beta1 only', () => {
    const { convertible } = updaterSchema(LEASE_SCHEMA, LEASE_RESOURCE, 'null');
    expect(['coordination.k8s.io/v1', 'coordination.k8s.io/v1beta1'].map(convertible)).toEqual([true, true]);
    expect(['coordination.k8s.io/v1alpha2', 'v1', 'apps/v1', 'coordination.k8s.io'].map(convertible)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it('converts a LeaseCandidate between its three versions', () => {
    const { convertible } = updaterSchema(
      LEASE_SCHEMA,
      resourceInfo('v1beta1', 'LeaseCandidate', 'leasecandidates'),
      'null',
    );
    expect(
      ['v1alpha1', 'v1alpha2', 'v1beta1', 'v1'].map((version) => convertible(`coordination.k8s.io/${version}`)),
    ).toEqual([true, true, true, false]);
  });

  it('builds the SMD type once per schema', () => {
    expect(updaterSchema(LEASE_SCHEMA, LEASE_RESOURCE, 'null').type).toBe(
      updaterSchema(LEASE_SCHEMA, LEASE_RESOURCE, 'null').type,
    );
  });
});

describe('fieldManagerFor', () => {
  it('names the group version and kind its entries are recorded at', () => {
    const manager = fieldManagerFor(LEASE_SCHEMA, LEASE_RESOURCE, '2026-01-01T00:00:00Z', 'null');
    expect([manager.groupVersion, manager.kind, manager.now]).toEqual([
      'coordination.k8s.io/v1',
      'Lease',
      '2026-01-01T00:00:00Z',
    ]);
  });
});
