// Server-side apply: merge the applied configuration into the live object (or create it), tracking
// which manager owns which field and refusing to silently take fields other managers own.
import type { JsonObject } from '../json.js';
import { deepEqual, isJsonObject } from '../json.js';
import {
  applyConflicts,
  applyOwnership,
  describeConflicts,
  parseManagedFields,
  touchEntry,
} from '../managed/ownership.js';
import { copyForRemoval, mergeApplyConfig, removeFieldPaths } from '../patch/apply-merge.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { StatusError } from '../status.js';
import { applyConflict, badRequest } from '../status.js';
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

function withoutTypeMeta(obj: JsonObject): JsonObject {
  const { kind: _k, apiVersion: _a, ...rest } = obj;
  return rest;
}

function withoutManagedFields(obj: JsonObject): JsonObject {
  const { managedFields: _m, ...meta } = metadataOf(obj);
  return { ...obj, metadata: meta };
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
  if (!parsed.ok) return parsed;
  const raw = parsed.value.value;
  if (!isJsonObject(raw)) return err(badRequest('error decoding patch: the applied configuration must be an object'));
  if (typeof raw['kind'] !== 'string' || raw['kind'] === '')
    return err(badRequest(`Object 'Kind' is missing in '${bodyText.trim()}'`));
  if (typeof raw['apiVersion'] !== 'string' || raw['apiVersion'] === '')
    return err(badRequest(`Object 'apiVersion' is missing in '${bodyText.trim()}'`));
  const decoded = decodeValue(
    raw,
    parsed.value.duplicates,
    ctx.schema,
    options.fieldValidation,
    undefined,
    ctx.resource,
  );
  if (!decoded.ok) return decoded;
  const bound = bindToRequest(decoded.value.lease, namespace, name);
  if (!bound.ok) return bound;
  const config = withoutTypeMeta(bound.value);
  const now = formatTime(ctx.now());
  const manager = options.fieldManager;
  const existing = ctx.store.get(storeKey(namespace, name));
  if (existing === undefined) {
    const admitted = admitCreate(ctx, namespace);
    if (!admitted.ok) return admitted;
    const built = newLease(
      ctx,
      config,
      () => applyOwnership([], config, manager, force, undefined, now, ctx.resource.groupVersion).entries,
    );
    if (!built.ok) return built;
    const created = persistCreate(ctx, built.value, options.dryRun);
    return created.ok ? ok({ ...created.value, warnings: decoded.value.warnings, created: true }) : created;
  }
  const pre = checkUpdatePreconditions(config, existing, name);
  if (!pre.ok) return pre;
  const entries = parseManagedFields(metadataOf(existing)['managedFields']);
  const conflicts = applyConflicts(entries, existing, config, manager);
  if (conflicts.length > 0 && !force) {
    const report = describeConflicts(conflicts);
    return err(applyConflict(report.message, report.causes, name));
  }
  const ownership = applyOwnership(entries, config, manager, force, existing, now, ctx.resource.groupVersion);
  const merged = copyForRemoval(mergeApplyConfig(withoutManagedFields(existing), config));
  removeFieldPaths(merged, ownership.release);
  if (!deepEqual(merged, withoutManagedFields(existing))) touchEntry(ownership.entries, manager, 'Apply', now);
  const stored = persistUpdate(ctx, existing, carryOver(existing, merged, ownership.entries), options.dryRun);
  return stored.ok ? ok({ ...stored.value, warnings: decoded.value.warnings, created: false }) : stored;
}
