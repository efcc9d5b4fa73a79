// status_condition_utils.go (pkg/controller/namespace/deletion): updateConditions keeps all five types,
// moves lastTransitionTime only on a status flip; makeDeleteContentCondition sorts and counts the errors.
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../templates/k8s-lease-api-server/src/json.js';
import { nextConditions } from '../../../templates/k8s-lease-api-server/src/namespaces/namespace-conditions.js';

const T0 = Date.parse('2026-02-03T04:05:06Z');
const T1 = T0 + 60_000;
const byType = (conditions: unknown[] | undefined, type: string): JsonObject | undefined =>
  (conditions as JsonObject[] | undefined)?.find((c) => c['type'] === type);

describe('nextConditions', () => {
  it('reports failed deletes sorted and counted, others as ok', () => {
    const next = nextConditions([], { remaining: {}, finalizers: {}, failures: ['zeta', 'alpha'] }, T0);
    expect(next).toHaveLength(5);
    expect(byType(next, 'NamespaceDeletionContentFailure')).toEqual({
      type: 'NamespaceDeletionContentFailure',
      status: 'True',
      lastTransitionTime: '2026-02-03T04:05:06Z',
      reason: 'ContentDeletionFailed',
      message: 'Failed to delete all resource types, 2 remaining: alpha, zeta',
    });
    expect(byType(next, 'NamespaceContentRemaining')?.['status']).toBe('False');
  });

  it('lists remaining resources sorted, skipping zero counts', () => {
    const totals = {
      remaining: { 'leases.coordination.k8s.io': 3, 'leasecandidates.coordination.k8s.io': 1, 'x.y': 0 },
      finalizers: {},
      failures: [],
    };
    expect(byType(nextConditions([], totals, T0), 'NamespaceContentRemaining')?.['message']).toBe(
      'Some resources are remaining: leasecandidates.coordination.k8s.io has 1 resource instances, leases.coordination.k8s.io has 3 resource instances',
    );
  });

  it('keeps the transition time when only the message changes, and moves it on a flip', () => {
    const first = nextConditions([], { remaining: { r: 2 }, finalizers: {}, failures: [] }, T0) ?? [];
    const second = nextConditions(first, { remaining: { r: 1 }, finalizers: {}, failures: [] }, T1) ?? [];
    expect(byType(second, 'NamespaceContentRemaining')?.['lastTransitionTime']).toBe('2026-02-03T04:05:06Z');
    const third = nextConditions(second, { remaining: {}, finalizers: {}, failures: [] }, T1) ?? [];
    expect(byType(third, 'NamespaceContentRemaining')).toMatchObject({
      status: 'False',
      lastTransitionTime: '2026-02-03T04:06:06Z',
      reason: 'ContentRemoved',
    });
    expect(nextConditions(third, { remaining: {}, finalizers: {}, failures: [] }, T1 + 1000)).toBeUndefined();
  });

  it('keeps conditions of other types in place', () => {
    const other = { type: 'Custom', status: 'True' };
    const next = nextConditions([other], { remaining: {}, finalizers: {}, failures: [] }, T0);
    expect(next?.[0]).toEqual(other);
    expect(next).toHaveLength(6);
  });
});
