// The common tail of every write: carry server-owned metadata over, enforce finalizer rules,
// validate, and commit unless nothing changed or it is a dry run.
import type { JsonObject, JsonValue } from '../json.js';
import { deepEqual, stringAt } from '../json.js';
import { canonicalLease } from '../lease-shape.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { StatusError } from '../status.js';
import { alreadyExists, formatFieldValue, invalid } from '../status.js';
import { storeKey } from '../store/lease-store.js';
import type { OperationContext } from './context.js';
import { metadataOf } from './identity.js';

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

function finalizersOf(obj: JsonObject): string[] {
  const value = metadataOf(obj)['finalizers'];
  return Array.isArray(value) ? value.filter((f): f is string => typeof f === 'string') : [];
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

/** Stores `next` as the new state of an existing Lease. */
export function persistUpdate(
  ctx: OperationContext,
  existing: JsonObject,
  next: JsonObject,
  dryRun: boolean,
): Result<PersistOutcome, StatusError> {
  const meta = metadataOf(next);
  const name = stringAt(meta, 'name') ?? '';
  const namespace = stringAt(meta, 'namespace') ?? '';
  const beingDeleted = stringAt(metadataOf(existing), 'deletionTimestamp') !== undefined;
  if (beingDeleted) {
    const added = finalizersOf(next).filter((f) => !finalizersOf(existing).includes(f));
    if (added.length > 0) {
      const detail = `no new finalizers can be added if the object is being deleted, found new finalizers ${formatFieldValue(added)}`;
      return err(
        invalid(name, [{ type: 'Forbidden', field: 'metadata.finalizers', detail }], ctx.resource.qualifiedKind),
      );
    }
  }
  const invalidNext = validationError(ctx, next, existing);
  if (invalidNext !== undefined) return err(invalidNext);
  if (deepEqual(withoutResourceVersion(next), withoutResourceVersion(existing)))
    return ok({ object: existing, committed: false });
  if (dryRun) return ok({ object: next, committed: false });
  const key = storeKey(namespace, name);
  // The last finalizer leaving an object under deletion completes the deletion.
  const removing = beingDeleted && finalizersOf(next).length === 0;
  const event = ctx.store.commit(key, removing ? undefined : next);
  return ok({ object: event?.object ?? next, committed: true });
}

/** Stores a brand-new Lease. */
export function persistCreate(
  ctx: OperationContext,
  next: JsonObject,
  dryRun: boolean,
): Result<PersistOutcome, StatusError> {
  const invalidNext = validationError(ctx, next, undefined);
  if (invalidNext !== undefined) return err(invalidNext);
  const meta = metadataOf(next);
  const name = stringAt(meta, 'name') ?? '';
  const key = storeKey(stringAt(meta, 'namespace') ?? '', name);
  if (ctx.store.get(key) !== undefined) return err(alreadyExists(name, ctx.resource));
  if (dryRun) return ok({ object: next, committed: false });
  const event = ctx.store.commit(key, next);
  return ok({ object: event?.object ?? next, committed: true });
}
