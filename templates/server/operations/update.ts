// PUT, and the shared tail of non-apply patches: replace an existing Lease's user-owned fields.
import type { JsonObject } from '../json.js';
import { managedFieldsAfterUpdate } from '../managed/field-manager.js';
import { fieldManagerFor } from '../managed/resource-field-manager.js';
import type { Result } from '../result.js';
import { err } from '../result.js';
import type { StatusError } from '../status.js';
import { notFound } from '../status.js';
import { storeKey } from '../store/lease-store.js';
import { formatTime } from '../time.js';
import type { OperationContext, WriteOptions } from './context.js';
import { bindToRequest, checkUpdatePreconditions } from './identity.js';
import type { PersistOutcome } from './persist.js';
import { carryOver, persistUpdate } from './persist.js';

/** Replaces `existing` with the decoded `incoming` on behalf of options.fieldManager. */
export function replaceExisting(
  ctx: OperationContext,
  existing: JsonObject,
  incoming: JsonObject,
  namespace: string,
  name: string,
  options: WriteOptions,
): Result<PersistOutcome, StatusError> {
  const bound = bindToRequest(incoming, namespace, name);
  if (!bound.ok) return bound;
  const pre = checkUpdatePreconditions(bound.value, existing, name, ctx.resource);
  if (!pre.ok) return pre;
  const fm = fieldManagerFor(ctx.schema, ctx.resource, formatTime(ctx.now()));
  const managedFields = managedFieldsAfterUpdate(fm, existing, bound.value, options.fieldManager);
  return persistUpdate(ctx, existing, carryOver(existing, bound.value, managedFields), options.dryRun);
}

export function updateLease(
  ctx: OperationContext,
  namespace: string,
  name: string,
  body: JsonObject,
  options: WriteOptions,
): Result<PersistOutcome, StatusError> {
  const existing = ctx.store.get(storeKey(namespace, name));
  if (existing === undefined) return err(notFound(name, ctx.resource));
  return replaceExisting(ctx, existing, body, namespace, name, options);
}
