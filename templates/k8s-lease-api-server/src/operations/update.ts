// PUT, and the shared tail of non-apply patches: replace an existing Lease's user-owned fields.
import type { JsonObject } from '../json.js';
import { stringAt } from '../json.js';
import { managedFieldsAfterUpdate } from '../managed/field-manager.js';
import { fieldManagerFor } from '../managed/resource-field-manager.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { StatusError } from '../status.js';
import { invalid } from '../status.js';
import { storeKey } from '../store/lease-store.js';
import { formatTime } from '../time.js';
import type { OperationContext, WriteOptions } from './context.js';
import { admitCreate, newLease } from './create.js';
import type { UidCheck } from './identity.js';
import { bindToRequest, checkStoragePreconditions, checkUpdatePreconditions, metadataOf } from './identity.js';
import type { PersistOutcome } from './persist.js';
import { carryOver, persistCreate, persistUpdate } from './persist.js';

/**
 * Store.Update with AllowUnconditionalUpdate() false (the Lease and LeaseCandidate strategies): an
 * update must carry the resourceVersion it read. The Invalid names the resource, not the kind
 * (GroupKind{Group, Kind: "leases"}); the value is the uint64 zero (`0x0` up to 1.33, `0` from 1.34).
 */
function resourceVersionRequired(ctx: OperationContext, name: string): StatusError {
  return invalid(
    name,
    [
      {
        type: 'Invalid',
        field: 'metadata.resourceVersion',
        value: { style: ctx.valueStyle, goType: 'uint64', value: 0 },
        detail: 'must be specified for an update',
      },
    ],
    ctx.resource.qualifiedResource,
  );
}

/**
 * Replaces `existing` with the decoded `incoming` (already bound to the URL) on behalf of
 * options.fieldManager: PUT (its uid a precondition), and the tail of non-apply patches (a uid they
 * change is a validation error).
 */
export function replaceExisting(
  ctx: OperationContext,
  existing: JsonObject,
  bound: JsonObject,
  name: string,
  options: WriteOptions,
  uidCheck: UidCheck,
): Result<PersistOutcome, StatusError> {
  const pre = checkUpdatePreconditions(bound, existing, name, ctx.resource, uidCheck);
  if (!pre.ok) return pre;
  if ((stringAt(metadataOf(bound), 'resourceVersion') ?? '') === '') return err(resourceVersionRequired(ctx, name));
  const fm = fieldManagerFor(ctx.schema, ctx.resource, formatTime(ctx.now()), ctx.emptiedContainers);
  const managedFields = managedFieldsAfterUpdate(fm, existing, bound, options.fieldManager);
  return persistUpdate(ctx, existing, carryOver(existing, bound, managedFields), {
    dryRun: options.dryRun,
    mayDropManagedFields: true,
  });
}

export interface UpdateOutcome extends PersistOutcome {
  /** The PUT created the object (AllowCreateOnUpdate): answered 201. */
  created: boolean;
}

/**
 * PUT of a name that does not exist creates it (AllowCreateOnUpdate() true): Store.Update checks the
 * body's uid as a precondition against the empty object, wipes and refills the system metadata
 * (a resourceVersion in the body is no precondition then) and runs the create path.
 */
function createOnUpdate(
  ctx: OperationContext,
  namespace: string,
  name: string,
  bound: JsonObject,
  options: WriteOptions,
): Result<UpdateOutcome, StatusError> {
  const uid = stringAt(metadataOf(bound), 'uid') ?? '';
  const pre = checkStoragePreconditions(undefined, uid === '' ? {} : { uid }, ctx.resource, namespace, name);
  if (!pre.ok) return pre;
  const admitted = admitCreate(ctx, namespace, name);
  if (!admitted.ok) return admitted;
  const { resourceVersion: _rv, ...meta } = metadataOf(bound);
  const sent = meta['managedFields'];
  const fm = fieldManagerFor(ctx.schema, ctx.resource, formatTime(ctx.now()), ctx.emptiedContainers);
  // As createLease: the managedFields the client sent are used when they decode.
  const built = newLease(ctx, { ...bound, metadata: meta }, (draft) => {
    const withSent = sent === undefined ? draft : { ...draft, metadata: { ...metadataOf(draft), managedFields: sent } };
    return managedFieldsAfterUpdate(fm, undefined, withSent, options.fieldManager);
  });
  if (!built.ok) return built;
  const created = persistCreate(ctx, built.value, { dryRun: options.dryRun, mayDropManagedFields: true });
  return created.ok ? ok({ ...created.value, created: true }) : created;
}

export function updateLease(
  ctx: OperationContext,
  namespace: string,
  name: string,
  body: JsonObject,
  options: WriteOptions,
): Result<UpdateOutcome, StatusError> {
  const bound = bindToRequest(body, namespace, name);
  if (!bound.ok) return bound;
  const existing = ctx.store.get(storeKey(namespace, name));
  if (existing === undefined) return createOnUpdate(ctx, namespace, name, bound.value, options);
  const replaced = replaceExisting(ctx, existing, bound.value, name, options, 'precondition');
  return replaced.ok ? ok({ ...replaced.value, created: false }) : replaced;
}
