// Fields behind a feature gate that is off are dropped on write, as the Lease REST strategy
// (pkg/registry/coordination/lease/strategy.go) does while CoordinatedLeaderElection is off — its
// default in every release that has the fields (alpha 1.31, beta 1.33, both default false):
// PrepareForCreate clears spec.strategy and spec.preferredHolder; PrepareForUpdate clears each one
// unless the old object already had it set (so data written while the gate was on survives).
import type { JsonObject } from '../json.js';
import { objectAt } from '../json.js';

const GATED_SPEC_FIELDS = ['strategy', 'preferredHolder'] as const;

/** `next` with the CoordinatedLeaderElection fields dropped; `old` is the live object on updates. */
export function dropCoordinatedLeaderElectionFields(next: JsonObject, old: JsonObject | undefined): JsonObject {
  const spec = objectAt(next, 'spec');
  if (spec === undefined) return next;
  const oldSpec = old === undefined ? undefined : objectAt(old, 'spec');
  const kept: JsonObject = { ...spec };
  let changed = false;
  for (const field of GATED_SPEC_FIELDS) {
    if (kept[field] === undefined || oldSpec?.[field] !== undefined) continue;
    delete kept[field];
    changed = true;
  }
  return changed ? { ...next, spec: kept } : next;
}
