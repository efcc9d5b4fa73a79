// The API server's field manager around structured-merge-diff (apimachinery managedfields/internal):
// which managedFields a write starts from (fieldmanager.go decodeLiveOrNew, the [] / [{}] reset),
// skipnonapplied.go (no tracking once reset; "before-first-apply" on the first apply), versioncheck.go,
// buildmanagerinfo.go (manager identifiers), capmanagers.go (at most 10 Update managers),
// managedfieldsupdater.go (per-manager times), stripmeta.go and structuredmerge.go. Kubernetes
// behaviour, re-implemented.
import type { JsonObject, JsonValue } from '../json.js';
import { isJsonObject, setOwn, stringAt } from '../json.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { FieldSet } from './field-set.js';
import { difference, union } from './field-set.js';
import type { Managed } from './managed-fields.js';
import {
  decodeManagedFields,
  emptyManaged,
  encodeManagedFields,
  isResetManagedFields,
  managerIdentifier,
} from './managed-fields.js';
import type { Conflict, ManagedFields, UpdaterSchema } from './updater.js';
import { updaterApply, updaterUpdate } from './updater.js';
import { KUBECTL, allowedConflictsFromLastApplied, withLastApplied } from './last-applied.js';
import { undeclaredFieldsError } from './undeclared-fields.js';

export const BEFORE_FIRST_APPLY = 'before-first-apply';
export const ANCIENT_CHANGES = 'ancient-changes';
export const MAX_UPDATE_MANAGERS = 10;
const CURRENT_OPERATION = 'current-operation';

/** stripmeta.go: fields no manager is recorded for. */
const STRIP_SET: FieldSet = new Set([
  'f:apiVersion',
  'f:kind',
  'f:metadata',
  'f:metadata\nf:name',
  'f:metadata\nf:namespace',
  'f:metadata\nf:creationTimestamp',
  'f:metadata\nf:selfLink',
  'f:metadata\nf:uid',
  'f:metadata\nf:clusterName',
  'f:metadata\nf:generation',
  'f:metadata\nf:managedFields',
  'f:metadata\nf:resourceVersion',
]);

export interface FieldManager {
  schema: UpdaterSchema;
  /** The request's group version, e.g. coordination.k8s.io/v1. */
  groupVersion: string;
  kind: string;
  /** The time recorded for managers this write touches (RFC 3339, seconds). */
  now: string;
}

function metadataOf(obj: JsonObject): JsonObject {
  const meta = obj['metadata'];
  return isJsonObject(meta) ? meta : {};
}

/** The applied configuration without type meta and managedFields, as its field set is computed. */
function configForTracking(obj: JsonObject): JsonObject {
  const { apiVersion: _a, kind: _k, ...rest } = obj;
  const { managedFields: _m, ...meta } = metadataOf(obj);
  return { ...rest, metadata: meta };
}

function isEmptyValue(value: JsonValue | undefined): boolean {
  if (value === null || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  return isJsonObject(value) && Object.keys(value).length === 0;
}

/**
 * A stored or written object as the typed value the API server compares: ObjectMeta's fields are all
 * omitempty, so an empty string, list or map is absent from it (runtime.DefaultUnstructuredConverter).
 */
function forTracking(obj: JsonObject): JsonObject {
  const tracked = configForTracking(obj);
  const meta: JsonObject = {};
  for (const [key, value] of Object.entries(metadataOf(tracked))) {
    if (key === 'creationTimestamp' || !isEmptyValue(value)) setOwn(meta, key, value);
  }
  return { ...tracked, metadata: meta };
}

/** The typed zero object a create or a first apply starts from (objectCreater.New, as unstructured). */
const EMPTY_OBJECT: JsonObject = { metadata: { creationTimestamp: null }, spec: {} };

function stripMeta(fields: ManagedFields, manager: string): void {
  const versioned = fields.get(manager);
  if (versioned === undefined) return;
  const set = difference(versioned.set, STRIP_SET);
  if (set.size === 0) fields.delete(manager);
  else fields.set(manager, { ...versioned, set });
}

/** managedfieldsupdater.go Update over stripmeta.go and structuredmerge.go. */
function recordUpdate(
  fm: FieldManager,
  live: JsonObject,
  next: JsonObject,
  managed: Managed,
  manager: string,
): Managed {
  const fields = updaterUpdate(fm.schema, live, next, fm.groupVersion, managed.fields, CURRENT_OPERATION);
  stripMeta(fields, CURRENT_OPERATION);
  const times = new Map(managed.times);
  const current = fields.get(CURRENT_OPERATION);
  if (current !== undefined) {
    fields.delete(CURRENT_OPERATION);
    const previous = fields.get(manager);
    fields.set(manager, { ...current, set: previous === undefined ? current.set : union(current.set, previous.set) });
    times.set(manager, fm.now);
  }
  return { fields, times };
}

function seconds(time: string | undefined): number {
  const ms = time === undefined ? Number.NaN : Date.parse(time);
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
}

/** capmanagers.go: the oldest Update managers beyond ten fold into "ancient-changes", one per version. */
function capUpdateManagers(managed: Managed): Managed {
  const updaters = [...managed.fields].filter(([, v]) => !v.applied).map(([id]) => id);
  if (updaters.length <= MAX_UPDATE_MANAGERS) return managed;
  updaters.sort(
    (a, b) => seconds(managed.times.get(a)) - seconds(managed.times.get(b)) || (a < b ? -1 : a > b ? 1 : 0),
  );
  const fields = new Map(managed.fields);
  const times = new Map(managed.times);
  const firstByVersion = new Map<string, string>();
  let length = updaters.length;
  for (const id of updaters) {
    if (length <= MAX_UPDATE_MANAGERS) break;
    const versioned = fields.get(id);
    if (versioned === undefined) continue;
    const version = versioned.apiVersion;
    const bucket = managerIdentifier({ manager: ANCIENT_CHANGES, operation: 'Update', apiVersion: version });
    const first = firstByVersion.get(version);
    if (first === undefined) {
      firstByVersion.set(version, id);
      continue;
    }
    if (!fields.has(bucket)) {
      const firstSet = fields.get(first);
      fields.delete(first);
      if (firstSet !== undefined) fields.set(bucket, firstSet);
    }
    const bucketSet = fields.get(bucket)?.set ?? new Set();
    fields.set(bucket, { ...versioned, set: union(versioned.set, bucketSet) });
    fields.delete(id);
    length--;
    const time = times.get(id);
    if (time === undefined) times.delete(bucket);
    else times.set(bucket, time);
  }
  return { fields, times };
}

/** Update through buildmanagerinfo.go and capmanagers.go. */
function trackedUpdate(fm: FieldManager, live: JsonObject, next: JsonObject, managed: Managed, manager: string) {
  const id = managerIdentifier({
    manager: manager === '' ? 'unknown' : manager,
    operation: 'Update',
    apiVersion: fm.groupVersion,
  });
  return capUpdateManagers(recordUpdate(fm, live, next, managed, id));
}

/** fieldmanager.go decodeLiveOrNew: a reset, else the request's decodable non-empty list, else the live one. */
function decodeLiveOrNew(live: JsonObject | undefined, next: JsonObject): Managed {
  const sent = metadataOf(next)['managedFields'];
  if (isResetManagedFields(sent)) return emptyManaged();
  const fromRequest = decodeManagedFields(sent);
  if (fromRequest.ok && fromRequest.value.fields.size > 0) return fromRequest.value;
  const fromLive = decodeManagedFields(live === undefined ? undefined : metadataOf(live)['managedFields']);
  return fromLive.ok ? fromLive.value : emptyManaged();
}

/**
 * managedFields after a create (live undefined), update or non-apply patch by `manager` (FieldManager
 * UpdateNoErrors). Undefined means the object records none: once reset, an existing object is no
 * longer tracked (skipnonapplied.go) until its next apply.
 */
export function managedFieldsAfterUpdate(
  fm: FieldManager,
  live: JsonObject | undefined,
  next: JsonObject,
  manager: string,
): JsonObject[] | undefined {
  const managed = decodeLiveOrNew(live, next);
  const liveHasUid = live !== undefined && (stringAt(metadataOf(live), 'uid') ?? '') !== '';
  if (managed.fields.size === 0 && liveHasUid) return undefined;
  const base = live === undefined ? EMPTY_OBJECT : forTracking(live);
  return encodeManagedFields(trackedUpdate(fm, base, forTracking(next), managed, manager));
}

export type ApplyFailure =
  | { kind: 'badRequest'; message: string }
  | { kind: 'internal'; message: string }
  /** A plain Go error the API server answers as a 500 without a reason. */
  | { kind: 'unclassified'; message: string }
  | { kind: 'conflict'; conflicts: Conflict[] };

export interface ApplyOutcome {
  /** The object after the apply (the live object when the apply changes nothing), without managedFields. */
  object: JsonObject;
  managedFields: JsonObject[] | undefined;
}

/** How Go prints a GroupVersionKind parsed from an object's apiVersion and kind. */
function printGvk(apiVersion: string, kind: string): string {
  const parts = apiVersion.split('/');
  if (parts.length > 2) return '/, Kind=';
  const [group, version] = parts.length === 2 ? parts : ['', parts[0] ?? ''];
  return `${group}/${version}, Kind=${kind}`;
}

/**
 * The checks on an applied configuration itself: its group version and kind (versioncheck.go), no
 * managedFields (structuredmerge.go), each a 400, and no undeclared field (a 500, as upstream).
 */
export function applyTypeError(fm: FieldManager, config: JsonObject): ApplyFailure | undefined {
  const apiVersion = typeof config['apiVersion'] === 'string' ? config['apiVersion'] : '';
  const kind = typeof config['kind'] === 'string' ? config['kind'] : '';
  if (apiVersion !== fm.groupVersion || kind !== fm.kind)
    return { kind: 'badRequest', message: `invalid object type: ${printGvk(apiVersion, kind)}` };
  const managedFields = metadataOf(config)['managedFields'];
  if (managedFields !== undefined && managedFields !== null)
    return { kind: 'badRequest', message: 'metadata.managedFields must be nil' };
  const undeclared = undeclaredFieldsError(config, fm.schema.type);
  if (undeclared !== undefined) {
    // structuredmerge.go objectGVKNN: the namespace and name as the body gives them.
    const meta = metadataOf(config);
    const where = `${stringAt(meta, 'namespace') ?? ''}/${stringAt(meta, 'name') ?? ''}; ${printGvk(apiVersion, kind)}`;
    return { kind: 'unclassified', message: `failed to create typed patch object (${where}): ${undeclared}` };
  }
  return undefined;
}

/** skipnonapplied.go Apply and the managers below it, for one attempt. */
function applyOnce(
  fm: FieldManager,
  live: JsonObject,
  config: JsonObject,
  start: Managed,
  manager: string,
  force: boolean,
): Result<ApplyOutcome, Conflict[]> {
  let managed = start;
  let base = live;
  if (managed.fields.size === 0) {
    // skipnonapplied.go: whatever the object holds is owned by "before-first-apply" before the apply.
    managed = trackedUpdate(fm, EMPTY_OBJECT, base, managed, BEFORE_FIRST_APPLY);
  }
  const id = managerIdentifier({ manager: manager === '' ? 'unknown' : manager, operation: 'Apply' });
  const applied = updaterApply(fm.schema, base, configForTracking(config), fm.groupVersion, managed.fields, id, force);
  if (!applied.ok) return applied;
  const fields = applied.value.managers;
  stripMeta(fields, id);
  const times = new Map(managed.times);
  if (applied.value.object !== undefined) {
    times.set(id, fm.now);
    base = applied.value.object;
  }
  return ok({ object: base, managedFields: encodeManagedFields({ fields, times }) });
}

/**
 * Applies `config` (the decoded apply body, type meta included) for `manager` to `live` (undefined
 * when the apply creates the object): FieldManager.Apply and the managers it wraps. `raw` is the body
 * as sent, which kubectl's last-applied annotation records.
 */
export function applyConfiguration(
  fm: FieldManager,
  live: JsonObject | undefined,
  config: JsonObject,
  manager: string,
  force: boolean,
  raw: JsonObject = config,
): Result<ApplyOutcome, ApplyFailure> {
  const decoded = decodeManagedFields(live === undefined ? undefined : metadataOf(live)['managedFields']);
  if (!decoded.ok) return err({ kind: 'internal', message: `failed to decode managed fields: ${decoded.error}` });
  const typeError = applyTypeError(fm, config);
  if (typeError !== undefined) return err(typeError);
  const base = live === undefined ? EMPTY_OBJECT : forTracking(live);
  let applied = applyOnce(fm, base, config, decoded.value, manager, force);
  if (!applied.ok && manager === KUBECTL) {
    // lastappliedmanager.go: kubectl moving from client-side to server-side apply may take the fields
    // its last-applied configuration still holds as they are live.
    const allowed = allowedConflictsFromLastApplied(fm.schema, fm.groupVersion, base);
    if (allowed !== undefined) {
      const remaining = applied.error.filter((c) => !allowed.has(c.path));
      applied = remaining.length > 0 ? err(remaining) : applyOnce(fm, base, config, decoded.value, manager, true);
    }
  }
  if (!applied.ok) return err({ kind: 'conflict', conflicts: applied.error });
  // lastappliedupdater.go: kubectl's server-side applies keep an existing annotation current.
  const object = manager === KUBECTL ? withLastApplied(applied.value.object, raw) : applied.value.object;
  return ok({ ...applied.value, object });
}
