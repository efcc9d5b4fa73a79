// The common tail of every write: carry server-owned metadata over, enforce finalizer rules,
// validate, and commit unless nothing changed or it is a dry run.
import { goStringSlice } from '../field-value.js';
import { compareGoStrings } from '../go-strings.js';
import type { JsonObject, JsonValue } from '../json.js';
import { deepEqual, stringAt } from '../json.js';
import { canonicalLease } from '../lease-shape.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { StatusError } from '../status.js';
import { alreadyExists, invalid } from '../status.js';
import { storeKey } from '../store/lease-store.js';
import type { OperationContext } from './context.js';
import { finalizersOf, metadataOf } from './identity.js';
import { sizedForStorage } from './storage-size.js';

const SERVER_OWNED = [
  'uid',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'generation',
  'resourceVersion',
  'selfLink',
];

export interface PersistOutcome {
  object: JsonObject;
  /** False when the write was a no-op or a dry run. */
  committed: boolean;
}

/** The next state of an existing Lease: server-owned metadata comes from the live object. */
export function carryOver(
  existing: JsonObject,
  incoming: JsonObject,
  managedFields: JsonObject[] | undefined,
): JsonObject {
  const liveMeta = metadataOf(existing);
  const meta: JsonObject = { ...metadataOf(incoming) };
  for (const key of SERVER_OWNED) {
    // rest.BeforeUpdate takes the live uid only when none is provided; one that differs is left for
    // validation to refuse (field is immutable), as a patch's is.
    if (key === 'uid' && (stringAt(meta, 'uid') ?? '') !== '') continue;
    const value: JsonValue | undefined = liveMeta[key];
    if (value === undefined) delete meta[key];
    else meta[key] = value;
  }
  // Unchanged ownership keeps the live array, sparing a re-render (and keeping no-op detection exact).
  const liveManaged = liveMeta['managedFields'];
  if (managedFields === undefined) delete meta['managedFields'];
  else meta['managedFields'] = deepEqual(liveManaged, managedFields) ? (liveManaged ?? null) : managedFields;
  // generation is carried over, never bumped: as rest.BeforeUpdate ("Ensure requests cannot update
  // generation"), and the Lease strategy has no PrepareForUpdate that would bump it on a spec change.
  return canonicalLease({ ...incoming, metadata: meta });
}

function withoutResourceVersion(obj: JsonObject): JsonObject {
  const { resourceVersion: _rv, ...meta } = metadataOf(obj);
  return { ...obj, metadata: meta };
}

function validationError(
  ctx: OperationContext,
  next: JsonObject,
  old: JsonObject | undefined,
): StatusError | undefined {
  const errors = ctx.validate(next, old);
  return errors.length === 0
    ? undefined
    : invalid(stringAt(metadataOf(next), 'name') ?? '', errors, ctx.resource.qualifiedKind);
}

export interface PersistOptions {
  dryRun: boolean;
  /**
   * Create, update and non-apply patch retry without managedFields when the object is too large for
   * etcd (endpoints/handlers isTooLargeError); server-side apply does not.
   */
  mayDropManagedFields?: boolean | undefined;
}

function persistOptions(options: boolean | PersistOptions): PersistOptions {
  return typeof options === 'boolean' ? { dryRun: options } : options;
}

function prepared(ctx: OperationContext, next: JsonObject, old: JsonObject | undefined): JsonObject {
  return ctx.dropDisabledFields === undefined ? next : canonicalLease(ctx.dropDisabledFields(next, old));
}

function newFinalizersWhileDeleting(
  ctx: OperationContext,
  existing: JsonObject,
  next: JsonObject,
): StatusError | undefined {
  const live = new Set(finalizersOf(existing));
  // sets.String Difference(...).List(): each new name once, sorted; printed with %#v in every release (a
  // Sprintf in the detail, not the field error's value).
  const added = [...new Set(finalizersOf(next).filter((f) => !live.has(f)))].sort(compareGoStrings);
  if (added.length === 0) return undefined;
  const detail = `no new finalizers can be added if the object is being deleted, found new finalizers ${goStringSlice(added)}`;
  const name = stringAt(metadataOf(next), 'name') ?? '';
  return invalid(name, [{ type: 'Forbidden', field: 'metadata.finalizers', detail }], ctx.resource.qualifiedKind);
}

/**
 * Store.Update's ShouldDeleteDuringUpdate: an update that leaves no finalizer on an object whose
 * deletion was requested (with no grace period left) deletes it instead.
 */
function deletesDuringUpdate(existing: JsonObject, next: JsonObject): boolean {
  const meta = metadataOf(existing);
  if (finalizersOf(next).length > 0 || stringAt(meta, 'deletionTimestamp') === undefined) return false;
  const grace = meta['deletionGracePeriodSeconds'];
  return grace === undefined || grace === 0;
}

/** Stores `next` as the new state of an existing Lease. */
export function persistUpdate(
  ctx: OperationContext,
  existing: JsonObject,
  proposed: JsonObject,
  options: boolean | PersistOptions,
): Result<PersistOutcome, StatusError> {
  const { dryRun, mayDropManagedFields = false } = persistOptions(options);
  const next = prepared(ctx, proposed, existing);
  const meta = metadataOf(next);
  const name = stringAt(meta, 'name') ?? '';
  const namespace = stringAt(meta, 'namespace') ?? '';
  if (stringAt(metadataOf(existing), 'deletionTimestamp') !== undefined) {
    const forbidden = newFinalizersWhileDeleting(ctx, existing, next);
    if (forbidden !== undefined) return err(forbidden);
  }
  const invalidNext = validationError(ctx, next, existing);
  if (invalidNext !== undefined) return err(invalidNext);
  const key = storeKey(namespace, name);
  if (deletesDuringUpdate(existing, next)) {
    // deleteWithoutFinalizers: the object goes; "clients are expecting an updated object if a PUT
    // succeeded", so the answer is the object of the request, not the Status a DELETE would get.
    if (!dryRun) ctx.store.commit(key, undefined);
    return ok({ object: next, committed: !dryRun });
  }
  if (deepEqual(withoutResourceVersion(next), withoutResourceVersion(existing)))
    return ok({ object: existing, committed: false });
  if (dryRun) return ok({ object: next, committed: false });
  const sized = sizedForStorage(next, ctx.resource, mayDropManagedFields);
  if (!sized.ok) return err(sized.error);
  const event = ctx.store.commit(key, sized.value);
  return ok({ object: event?.object ?? sized.value, committed: true });
}

/** Stores a brand-new Lease. */
export function persistCreate(
  ctx: OperationContext,
  proposed: JsonObject,
  options: boolean | PersistOptions,
): Result<PersistOutcome, StatusError> {
  const { dryRun, mayDropManagedFields = false } = persistOptions(options);
  const next = prepared(ctx, proposed, undefined);
  const invalidNext = validationError(ctx, next, undefined);
  if (invalidNext !== undefined) return err(invalidNext);
  const meta = metadataOf(next);
  const name = stringAt(meta, 'name') ?? '';
  const key = storeKey(stringAt(meta, 'namespace') ?? '', name);
  const live = ctx.store.get(key);
  if (live !== undefined) {
    const exists = alreadyExists(name, ctx.resource);
    // Store.create: an AlreadyExists for an object under deletion says so.
    const deleting = stringAt(metadataOf(live), 'deletionTimestamp') !== undefined;
    return err(deleting ? { ...exists, message: `object is being deleted: ${exists.message}` } : exists);
  }
  if (dryRun) return ok({ object: next, committed: false });
  const sized = sizedForStorage(next, ctx.resource, mayDropManagedFields);
  if (!sized.ok) return err(sized.error);
  const event = ctx.store.commit(key, sized.value);
  return ok({ object: event?.object ?? sized.value, committed: true });
}
