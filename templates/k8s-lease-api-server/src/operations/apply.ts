// Server-side apply (PATCH application/apply-patch+yaml): the field manager merges the applied
// configuration into the live object (or a new one) and records ownership; the result is stored like
// any other write. Order of checks as the API server's applyPatcher and FieldManager.Apply.
import type { JsonObject } from '../json.js';
import { isJsonObject, stringAt } from '../json.js';
import { describeConflicts } from '../managed/conflict-error.js';
import type { ApplyFailure } from '../managed/field-manager.js';
import { applyConfiguration, applyTypeError } from '../managed/field-manager.js';
import { fieldManagerFor } from '../managed/resource-field-manager.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { StatusError } from '../status.js';
import { badRequest, conflict, internalError } from '../status.js';
import { storeKey } from '../store/lease-store.js';
import { formatTime } from '../time.js';
import type { OperationContext, WriteOptions } from './context.js';
import { admitCreate, newLease } from './create.js';
import { decodeValue } from './decode-body.js';
import { bindToRequest, checkUpdatePreconditions, metadataOf } from './identity.js';
import type { PersistOutcome } from './persist.js';
import { carryOver, persistCreate, persistUpdate } from './persist.js';
import type { ApplyConfig } from './apply-body.js';
import { parseApplyBody } from './apply-body.js';

export interface ApplyOutcome extends PersistOutcome {
  warnings: string[];
  created: boolean;
}

function failureStatus(failure: ApplyFailure): StatusError {
  switch (failure.kind) {
    case 'badRequest':
      return badRequest(failure.message);
    case 'internal':
      return internalError(failure.message);
    case 'unclassified':
      // responsewriters ErrorToAPIStatus: an error that is no Status is a 500 with no reason.
      return { code: 500, reason: '', message: failure.message };
    case 'conflict': {
      // errors.NewApplyConflict: the details carry the causes only.
      const report = describeConflicts(failure.conflicts);
      return { code: 409, reason: 'Conflict', message: report.message, details: { causes: report.causes } };
    }
  }
}

/** Parses the body and runs the checks that precede decoding it into the resource's type. */
function readConfiguration(
  ctx: OperationContext,
  parsed: ApplyConfig,
  now: string,
): Result<{ raw: JsonObject; duplicates: string[] }, StatusError> {
  if (!parsed.ok) return parsed;
  const value = parsed.value.value;
  // applyPatcher unmarshals the body into a map: null leaves it empty, anything else but an object fails.
  if (value !== null && !isJsonObject(value)) {
    const type = Array.isArray(value) ? 'array' : typeof value === 'boolean' ? 'bool' : typeof value;
    return err(
      badRequest(`error decoding patch: json: cannot unmarshal ${type} into Go value of type map[string]interface {}`),
    );
  }
  const raw: JsonObject = value ?? {};
  // A missing kind or apiVersion is the version check's "invalid object type" (versioncheck.go).
  const typeError = applyTypeError(fieldManagerFor(ctx.schema, ctx.resource, now, ctx.emptiedContainers), raw);
  return typeError === undefined ? ok({ raw, duplicates: parsed.value.duplicates }) : err(failureStatus(typeError));
}

export function applyLease(
  ctx: OperationContext,
  namespace: string,
  name: string,
  bodyText: string,
  force: boolean,
  options: WriteOptions,
  parsed: ApplyConfig = parseApplyBody(bodyText),
): Result<ApplyOutcome, StatusError> {
  const now = formatTime(ctx.now());
  const read = readConfiguration(ctx, parsed, now);
  if (!read.ok) return read;
  const { raw, duplicates } = read.value;
  const decoded = decodeValue(raw, duplicates, ctx.schema, options.fieldValidation, undefined, ctx.resource);
  if (!decoded.ok) return decoded;
  const bound = bindToRequest(decoded.value.lease, namespace, name);
  if (!bound.ok) return bound;
  const config: JsonObject = { ...bound.value, apiVersion: ctx.resource.groupVersion, kind: ctx.resource.kind };
  const fm = fieldManagerFor(ctx.schema, ctx.resource, now, ctx.emptiedContainers);
  const manager = options.fieldManager;
  const existing = ctx.store.get(storeKey(namespace, name));
  if (existing === undefined) {
    const admitted = admitCreate(ctx, namespace, name);
    if (!admitted.ok) return admitted;
    const applied = applyConfiguration(fm, undefined, config, manager, force, raw);
    if (!applied.ok) return err(failureStatus(applied.error));
    const uid = stringAt(metadataOf(applied.value.object), 'uid') ?? '';
    if (uid !== '') {
      const why = `uid mismatch: the provided object specified uid ${uid}, and no existing object was found`;
      return err(conflict(name, why, ctx.resource));
    }
    const built = newLease(ctx, applied.value.object, () => applied.value.managedFields);
    if (!built.ok) return built;
    const created = persistCreate(ctx, built.value, options.dryRun);
    return created.ok ? ok({ ...created.value, warnings: decoded.value.warnings, created: true }) : created;
  }
  // An apply, like any patch, carries no uid precondition (patch.go): a uid it changes fails validation.
  const pre = checkUpdatePreconditions(config, existing, name, ctx.resource, 'validation');
  if (!pre.ok) return pre;
  const applied = applyConfiguration(fm, existing, config, manager, force, raw);
  if (!applied.ok) return err(failureStatus(applied.error));
  const next = carryOver(existing, applied.value.object, applied.value.managedFields);
  const stored = persistUpdate(ctx, existing, next, options.dryRun);
  return stored.ok ? ok({ ...stored.value, warnings: decoded.value.warnings, created: false }) : stored;
}
