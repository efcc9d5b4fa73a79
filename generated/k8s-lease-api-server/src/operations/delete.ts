// Copied by lease-api-generator from templates/server/operations/delete.ts. DO NOT EDIT: edit that file and run `npm run generate`.
// DELETE of one Lease or a collection. Leases with finalizers are only marked for deletion.
import type { JsonObject } from '../json.js';
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
import { checkDeletePreconditions, metadataOf } from './identity.js';

export interface DeleteOptions {
  dryRun: boolean;
  preconditions: Preconditions;
  gracePeriodSeconds?: number | undefined;
}

function hasFinalizers(obj: JsonObject): boolean {
  const finalizers = metadataOf(obj)['finalizers'];
  return Array.isArray(finalizers) && finalizers.length > 0;
}

function markForDeletion(ctx: OperationContext, existing: JsonObject): JsonObject {
  const meta = metadataOf(existing);
  // As the generic store's markAsDeleting: generation is bumped only when the object has one.
  const marked: JsonObject = { ...meta, deletionTimestamp: formatTime(ctx.now()), deletionGracePeriodSeconds: 0 };
  const generation = meta['generation'];
  if (typeof generation === 'number' && generation > 0) marked['generation'] = generation + 1;
  return canonicalLease({ ...existing, metadata: marked });
}

/** Deletes (or marks) the Lease at key; returns what the response body should show. */
function deleteExisting(ctx: OperationContext, key: string, existing: JsonObject, dryRun: boolean): JsonObject {
  if (hasFinalizers(existing)) {
    if (stringAt(metadataOf(existing), 'deletionTimestamp') !== undefined) return existing;
    const marked = markForDeletion(ctx, existing);
    return dryRun ? marked : (ctx.store.commit(key, marked)?.object ?? marked);
  }
  if (dryRun) return existing;
  return ctx.store.commit(key, undefined)?.object ?? existing;
}

export function deleteLease(
  ctx: OperationContext,
  namespace: string,
  name: string,
  options: DeleteOptions,
): Result<JsonObject, StatusError> {
  const key = storeKey(namespace, name);
  const existing = ctx.store.get(key);
  if (existing === undefined) return err(notFound(name, ctx.resource));
  const pre = checkDeletePreconditions(existing, name, options.preconditions, ctx.resource);
  if (!pre.ok) return pre;
  return ok(deleteExisting(ctx, key, existing, options.dryRun));
}

/** Deletes every Lease whose key the caller selected (from a consistent list); returns their final states. */
export function deleteCollection(ctx: OperationContext, keys: string[], options: DeleteOptions): JsonObject[] {
  const deleted: JsonObject[] = [];
  for (const key of keys) {
    const existing = ctx.store.get(key);
    if (existing === undefined) continue;
    const { name } = splitKey(key);
    if (!checkDeletePreconditions(existing, name, options.preconditions).ok) continue;
    deleted.push(deleteExisting(ctx, key, existing, options.dryRun));
  }
  return deleted;
}
