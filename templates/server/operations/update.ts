// PUT, and the shared tail of non-apply patches: replace an existing Lease's user-owned fields.
import type { JsonObject, JsonValue } from '../json.js';
import { isJsonObject } from '../json.js';
import { parseManagedFields, updateOwnership } from '../managed/ownership.js';
import type { Result } from '../result.js';
import { err } from '../result.js';
import type { StatusError } from '../status.js';
import { notFound } from '../status.js';
import { storeKey } from '../store/lease-store.js';
import { formatTime } from '../time.js';
import type { OperationContext, WriteOptions } from './context.js';
import { bindToRequest, checkUpdatePreconditions, metadataOf } from './identity.js';
import type { PersistOutcome } from './persist.js';
import { carryOver, persistUpdate } from './persist.js';

function decodableEntry(entry: JsonValue): boolean {
  if (!isJsonObject(entry)) return false;
  const operation = entry['operation'];
  return (
    (operation === 'Update' || operation === 'Apply') &&
    entry['fieldsType'] === 'FieldsV1' &&
    isJsonObject(entry['fieldsV1'])
  );
}

/**
 * Which managedFields an update starts from, as the field manager's decodeManagedFields: a list of only
 * empty entries ([{}]) resets ownership; a list that is empty or does not decode keeps the live one,
 * so a client that does not understand managedFields cannot wipe them.
 */
function ownershipSource(sent: JsonValue | undefined, live: JsonValue | undefined): JsonValue | undefined {
  if (!Array.isArray(sent) || sent.length === 0) return live;
  if (sent.every((entry) => isJsonObject(entry) && Object.keys(entry).length === 0)) return [];
  return sent.every(decodableEntry) ? sent : live;
}

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
  const base = parseManagedFields(
    ownershipSource(metadataOf(bound.value)['managedFields'], metadataOf(existing)['managedFields']),
  );
  const entries = updateOwnership(
    base,
    existing,
    bound.value,
    options.fieldManager,
    formatTime(ctx.now()),
    ctx.resource.groupVersion,
  );
  return persistUpdate(ctx, existing, carryOver(existing, bound.value, entries), options.dryRun);
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
