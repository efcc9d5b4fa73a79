import { describe, expect, it } from 'vitest';
import { pluralOfKind } from '../../../generator/emit/emit-watches.js';

describe('pluralOfKind: the resource plural from the path, in the kind’s capitals', () => {
  // Plurals as kube-apiserver registers them (DefaultQualifiedResource in each pkg/registry/**/storage/storage.go).
  it.each([
    ['Lease', 'leases', 'Leases'],
    ['LeaseCandidate', 'leasecandidates', 'LeaseCandidates'],
    ['PriorityClass', 'priorityclasses', 'PriorityClasses'],
    ['EndpointSlice', 'endpointslices', 'EndpointSlices'],
    ['NetworkPolicy', 'networkpolicies', 'NetworkPolicies'],
    ['Endpoints', 'endpoints', 'Endpoints'],
    ['Widget', 'gizmos', 'Gizmos'],
  ])('%s + %s → %s', (kind, plural, expected) => {
    expect(pluralOfKind(kind, plural)).toBe(expected);
  });
});
