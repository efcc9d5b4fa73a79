// The Lease strategy's handling of the CoordinatedLeaderElection fields while the gate is off
// (kubernetes pkg/registry/coordination/lease/strategy.go): PrepareForCreate clears spec.strategy and
// spec.preferredHolder; PrepareForUpdate clears each unless the old object already had it.
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../templates/k8s-lease-api-server/src/json.js';
import { dropCoordinatedLeaderElectionFields } from '../../../templates/k8s-lease-api-server/src/operations/disabled-fields.js';

const lease = (spec: JsonObject): JsonObject => ({ metadata: { name: 'a' }, spec });

describe('dropCoordinatedLeaderElectionFields', () => {
  it('clears both fields on create', () => {
    expect(
      dropCoordinatedLeaderElectionFields(
        lease({ holderIdentity: 'h', strategy: 'OldestEmulationVersion', preferredHolder: 'p' }),
        undefined,
      ),
    ).toEqual(lease({ holderIdentity: 'h' }));
  });

  it('keeps on update a field the old object had, and clears one it did not', () => {
    const old = lease({ strategy: 'OldestEmulationVersion' });
    expect(dropCoordinatedLeaderElectionFields(lease({ strategy: 'other.io/x', preferredHolder: 'p' }), old)).toEqual(
      lease({ strategy: 'other.io/x' }),
    );
  });

  it('returns the object itself when there is nothing to clear', () => {
    const plain = lease({ holderIdentity: 'h' });
    expect(dropCoordinatedLeaderElectionFields(plain, undefined)).toBe(plain);
    const noSpec: JsonObject = { metadata: { name: 'a' } };
    expect(dropCoordinatedLeaderElectionFields(noSpec, undefined)).toBe(noSpec);
  });
});
