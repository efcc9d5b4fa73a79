// The status conditions the namespace controller keeps on a terminating namespace, as
// pkg/controller/namespace/deletion/status_condition_utils.go words and updates them: all five types
// always present, a failing one True with its reason and message, the others False with the "ok" text;
// lastTransitionTime moves only when a condition's status flips.
import type { JsonObject, JsonValue } from '../json.js';
import { isJsonObject, stringAt } from '../json.js';
import { formatTime } from '../time.js';

const CONDITION_TYPES = [
  'NamespaceDeletionDiscoveryFailure',
  'NamespaceDeletionGroupVersionParsingFailure',
  'NamespaceDeletionContentFailure',
  'NamespaceContentRemaining',
  'NamespaceFinalizersRemaining',
] as const;

export type ConditionType = (typeof CONDITION_TYPES)[number];

const OK: Record<ConditionType, { reason: string; message: string }> = {
  NamespaceDeletionDiscoveryFailure: {
    reason: 'ResourcesDiscovered',
    message: 'All resources successfully discovered',
  },
  NamespaceDeletionGroupVersionParsingFailure: {
    reason: 'ParsedGroupVersions',
    message: 'All legacy kube types successfully parsed',
  },
  NamespaceDeletionContentFailure: {
    reason: 'ContentDeleted',
    message: 'All content successfully deleted, may be waiting on finalization',
  },
  NamespaceContentRemaining: { reason: 'ContentRemoved', message: 'All content successfully removed' },
  NamespaceFinalizersRemaining: { reason: 'ContentRemoved', message: 'All content successfully removed' },
};

/** What one pass over the namespace's content found. */
export interface ContentTotals {
  /** Remaining objects per qualified resource ("leases.coordination.k8s.io"). */
  remaining: Readonly<Record<string, number>>;
  /** Remaining objects per finalizer they carry. */
  finalizers: Readonly<Record<string, number>>;
  /** Messages of deletes that failed (deleteAllContent's errs). */
  failures: readonly string[];
}

interface Failing {
  reason: string;
  message: string;
}

function listed(counts: Readonly<Record<string, number>>, render: (key: string, n: number) => string): string[] {
  return Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([key, n]) => render(key, n))
    .sort();
}

/** ProcessContentTotals and makeDeleteContentCondition: the types that fail, with their reason and message. */
function failing(totals: ContentTotals): Partial<Record<ConditionType, Failing>> {
  const out: Partial<Record<ConditionType, Failing>> = {};
  const resources = listed(totals.remaining, (gr, n) => `${gr} has ${n} resource instances`);
  if (resources.length > 0)
    out.NamespaceContentRemaining = {
      reason: 'SomeResourcesRemain',
      message: `Some resources are remaining: ${resources.join(', ')}`,
    };
  const finalizers = listed(totals.finalizers, (f, n) => `${f} in ${n} resource instances`);
  if (finalizers.length > 0)
    out.NamespaceFinalizersRemaining = {
      reason: 'SomeFinalizerRemain',
      message: `Some finalizers are remaining: ${finalizers.join(', ')}`,
    };
  if (totals.failures.length > 0)
    out.NamespaceDeletionContentFailure = {
      reason: 'ContentDeletionFailed',
      message: `Failed to delete all resource types, ${totals.failures.length} remaining: ${[...totals.failures].sort().join(', ')}`,
    };
  return out;
}

/**
 * updateConditions: the namespace's conditions after a pass, or undefined when none changed (so the
 * controller writes nothing). Conditions of other types are kept, in place.
 */
export function nextConditions(
  current: readonly JsonValue[],
  totals: ContentTotals,
  now: number,
): JsonValue[] | undefined {
  const fail = failing(totals);
  const next: JsonValue[] = [...current];
  let changed = false;
  for (const type of CONDITION_TYPES) {
    const f = fail[type];
    const wanted = { status: f === undefined ? 'False' : 'True', ...(f ?? OK[type]) };
    const index = next.findIndex((c) => isJsonObject(c) && c['type'] === type);
    const old = index < 0 ? undefined : (next[index] as JsonObject);
    const same =
      old !== undefined &&
      stringAt(old, 'status') === wanted.status &&
      stringAt(old, 'reason') === wanted.reason &&
      stringAt(old, 'message') === wanted.message;
    if (same) continue;
    changed = true;
    const flipped = old === undefined || stringAt(old, 'status') !== wanted.status;
    const lastTransitionTime = flipped ? formatTime(now) : (old['lastTransitionTime'] ?? formatTime(now));
    // NamespaceCondition's field order: type, status, lastTransitionTime, reason, message.
    const condition: JsonObject = {
      type,
      status: wanted.status,
      lastTransitionTime,
      reason: wanted.reason,
      message: wanted.message,
    };
    if (index < 0) next.push(condition);
    else next[index] = condition;
  }
  return changed ? next : undefined;
}
