// DELETE of one object or a collection, as the generic registry's Store.Delete does it for a strategy
// without graceful deletion (Lease, LeaseCandidate) and with the garbage collector enabled (kube-apiserver's
// default): the propagation policy adds or removes the GC finalizers; an object left with finalizers is
// only marked (deletionTimestamp, deletionGracePeriodSeconds 0) and goes when the last one is removed.
// The answer comes at once: the garbage collector (gc-driver.ts) follows the store's events and does the
// rest (orphaning, deleting dependents, removing the GC finalizers) beside later requests, as upstream.
import type { JsonObject, JsonValue } from '../json.js';
import { stringAt } from '../json.js';
import { canonicalLease } from '../lease-shape.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { StatusError } from '../status.js';
import { notFound } from '../status.js';
import { splitKey, storeKey } from '../store/lease-store.js';
import { formatTime } from '../time.js';
import type { OperationContext } from './context.js';
import type { Preconditions } from './identity.js';
import { checkDeletePreconditions, finalizersOf, metadataOf } from './identity.js';

export type PropagationPolicy = 'Orphan' | 'Background' | 'Foreground';

export interface DeleteOptions {
  dryRun: boolean;
  preconditions: Preconditions;
  gracePeriodSeconds?: number | undefined;
  propagationPolicy?: PropagationPolicy | undefined;
  /** The deprecated DeleteOptions.orphanDependents; validation forbids it beside propagationPolicy. */
  orphanDependents?: boolean | undefined;
}

/** metav1.FinalizerOrphanDependents and metav1.FinalizerDeleteDependents. */
export const ORPHAN_FINALIZER = 'orphan';
export const FOREGROUND_FINALIZER = 'foregroundDeletion';

export interface DeleteOutcome {
  /** The object as the response shows it: marked for deletion when `kept`, else its last state. */
  object: JsonObject;
  /** Finalizers keep the object: the response is the object, not a Status. */
  kept: boolean;
}

/** shouldOrphanDependents: options first, then a GC finalizer already present; the Lease default is not to orphan. */
function shouldOrphan(finalizers: string[], options: DeleteOptions): boolean {
  if (options.orphanDependents !== undefined) return options.orphanDependents;
  if (options.propagationPolicy !== undefined) return options.propagationPolicy === 'Orphan';
  for (const f of finalizers) {
    if (f === ORPHAN_FINALIZER) return true;
    if (f === FOREGROUND_FINALIZER) return false;
  }
  return false;
}

/** shouldDeleteDependentsInForeground, with the same order of precedence. */
function shouldForeground(finalizers: string[], options: DeleteOptions): boolean {
  if (options.orphanDependents !== undefined) return false;
  if (options.propagationPolicy !== undefined) return options.propagationPolicy === 'Foreground';
  for (const f of finalizers) {
    if (f === FOREGROUND_FINALIZER) return true;
    if (f === ORPHAN_FINALIZER) return false;
  }
  return false;
}

/** deletionFinalizersForGarbageCollection: the finalizers after the delete, or undefined when they stay as they are. */
function gcFinalizers(existing: JsonObject, options: DeleteOptions): string[] | undefined {
  const current = finalizersOf(existing);
  const next = current.filter((f) => f !== ORPHAN_FINALIZER && f !== FOREGROUND_FINALIZER);
  if (shouldOrphan(current, options)) next.push(ORPHAN_FINALIZER);
  if (shouldForeground(current, options)) next.push(FOREGROUND_FINALIZER);
  const same = new Set(next).size === new Set(current).size && next.every((f) => current.includes(f));
  return same ? undefined : next;
}

/** markAsDeleting: deletionTimestamp now unless already set (and not later), grace period 0, generation bumped once. */
function markAsDeleting(ctx: OperationContext, existing: JsonObject, finalizers: JsonValue): JsonObject {
  const meta = metadataOf(existing);
  const now = formatTime(ctx.now());
  const marked: JsonObject = { ...meta, finalizers, deletionGracePeriodSeconds: 0 };
  const current = stringAt(meta, 'deletionTimestamp');
  if (current === undefined || Date.parse(current) > ctx.now()) marked['deletionTimestamp'] = now;
  const generation = meta['generation'];
  if (current === undefined && typeof generation === 'number' && generation > 0) marked['generation'] = generation + 1;
  return canonicalLease({ ...existing, metadata: marked });
}

/** Store.Delete of the object at key, preconditions already checked. */
function deleteExisting(
  ctx: OperationContext,
  key: string,
  existing: JsonObject,
  options: DeleteOptions,
): DeleteOutcome {
  const updated = gcFinalizers(existing, options);
  const finalizers = updated ?? finalizersOf(existing);
  if (finalizers.length > 0) {
    const marked = markAsDeleting(ctx, existing, updated ?? metadataOf(existing)['finalizers'] ?? []);
    if (options.dryRun) return { object: marked, kept: true };
    // GuaranteedUpdate writes nothing when nothing changed (a repeated DELETE of a marked object).
    const unchanged = JSON.stringify(marked) === JSON.stringify(existing);
    const stored = unchanged ? existing : (ctx.store.commit(key, marked)?.object ?? marked);
    return { object: stored, kept: true };
  }
  if (options.dryRun) return { object: existing, kept: false };
  const event = ctx.store.commit(key, undefined);
  return { object: event?.object ?? existing, kept: false };
}

export function deleteLease(
  ctx: OperationContext,
  namespace: string,
  name: string,
  options: DeleteOptions,
): Result<DeleteOutcome, StatusError> {
  const key = storeKey(namespace, name);
  const existing = ctx.store.get(key);
  if (existing === undefined) return err(notFound(name, ctx.resource));
  const pre = checkDeletePreconditions(existing, name, options.preconditions, ctx.resource);
  if (!pre.ok) return pre;
  return ok(deleteExisting(ctx, key, existing, options));
}

/**
 * Store.DeleteCollection: each listed object is deleted with the same options, in list order (one
 * worker, kube-apiserver's default --delete-collection-workers); the first failure other than NotFound
 * ends the request with that error. The answer lists the objects as they were listed.
 */
export function deleteCollection(
  ctx: OperationContext,
  keys: string[],
  options: DeleteOptions,
): Result<JsonObject[], StatusError> {
  const listed: { key: string; obj: JsonObject }[] = [];
  for (const key of keys) {
    const obj = ctx.store.get(key);
    if (obj !== undefined) listed.push({ key, obj });
  }
  for (const { key } of listed) {
    const { namespace, name } = splitKey(key);
    const deleted = deleteLease(ctx, namespace, name, options);
    if (!deleted.ok && deleted.error.code !== 404) return deleted;
  }
  return ok(listed.map(({ obj }) => obj));
}
