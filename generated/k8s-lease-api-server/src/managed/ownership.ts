// Copied by lease-api-generator from templates/server/managed/ownership.ts. DO NOT EDIT: edit that file and run `npm run generate`.
// Field ownership per manager (metadata.managedFields), updated the way the API server's field manager
// does: Update operations take what they change, Apply operations claim what they send and conflict
// with other owners whose values they would change.
import type { JsonObject, JsonValue } from '../json.js';
import { isJsonObject, stringAt } from '../json.js';
import { GROUP_VERSION } from '../lease-meta.js';
import type { FieldLeaves, FieldPath } from './field-set.js';
import { fieldLeaves, fromFieldsV1, pathToString, toFieldsV1 } from './field-set.js';

export type ManagedOperation = 'Update' | 'Apply';

export interface ManagerEntry {
  manager: string;
  operation: ManagedOperation;
  apiVersion: string;
  time: string;
  fields: Set<FieldPath>;
  subresource?: string;
}

export interface FieldConflict {
  manager: ManagerEntry;
  path: FieldPath;
}

// Stored objects are immutable, so a managedFields array is parsed once however often it is updated.
const parsedCache = new WeakMap<JsonValue[], ManagerEntry[]>();

/** Entries of a managedFields array; callers must treat the result as read-only (it may be shared). */
export function parseManagedFields(value: JsonValue | undefined): ManagerEntry[] {
  if (!Array.isArray(value)) return [];
  const cached = parsedCache.get(value);
  if (cached !== undefined) return cached;
  const entries: ManagerEntry[] = [];
  for (const item of value) {
    if (!isJsonObject(item)) continue;
    const operation = stringAt(item, 'operation');
    if (operation !== 'Update' && operation !== 'Apply') continue;
    const entry: ManagerEntry = {
      manager: stringAt(item, 'manager') ?? '',
      operation,
      apiVersion: stringAt(item, 'apiVersion') ?? GROUP_VERSION,
      time: stringAt(item, 'time') ?? '',
      fields: fromFieldsV1(item['fieldsV1']),
    };
    const subresource = stringAt(item, 'subresource');
    if (subresource !== undefined) entry.subresource = subresource;
    entries.push(entry);
  }
  parsedCache.set(value, entries);
  return entries;
}

export function renderManagedFields(entries: ManagerEntry[]): JsonObject[] {
  const kept = entries.filter((entry) => entry.fields.size > 0);
  const rendered = kept.map((entry) => {
    const out: JsonObject = {
      manager: entry.manager,
      operation: entry.operation,
      apiVersion: entry.apiVersion,
      time: entry.time,
      fieldsType: 'FieldsV1',
      fieldsV1: toFieldsV1(entry.fields),
    };
    if (entry.subresource !== undefined) out['subresource'] = entry.subresource;
    return out;
  });
  parsedCache.set(rendered, kept);
  return rendered;
}

function findEntry(entries: ManagerEntry[], manager: string, operation: ManagedOperation): ManagerEntry | undefined {
  return entries.find((e) => e.manager === manager && e.operation === operation && e.subresource === undefined);
}

function cloneEntries(entries: ManagerEntry[]): ManagerEntry[] {
  return entries.map((e) => ({ ...e, fields: new Set(e.fields) }));
}

function changedPaths(before: FieldLeaves, after: FieldLeaves): FieldPath[] {
  const changed: FieldPath[] = [];
  for (const [path, value] of after) {
    if (!before.has(path) || before.get(path) !== value) changed.push(path);
  }
  return changed;
}

function removedPaths(before: FieldLeaves, after: FieldLeaves): FieldPath[] {
  return [...before.keys()].filter((path) => !after.has(path));
}

/** Ownership after a create/update/non-apply patch by `manager`. */
export function updateOwnership(
  entries: ManagerEntry[],
  before: JsonObject | undefined,
  after: JsonObject,
  manager: string,
  now: string,
  /** The group version of the request, which managedFields records (LeaseCandidate is served in several). */
  apiVersion: string = GROUP_VERSION,
): ManagerEntry[] {
  const next = cloneEntries(entries);
  const beforeLeaves = before === undefined ? new Map<FieldPath, string | undefined>() : fieldLeaves(before, 'update');
  const afterLeaves = fieldLeaves(after, 'update');
  const changed = changedPaths(beforeLeaves, afterLeaves);
  const removed = removedPaths(beforeLeaves, afterLeaves);
  if (isOwnershipNoop(entries, changed, removed, manager, now)) return entries;
  let own = findEntry(next, manager, 'Update');
  for (const entry of next) {
    for (const path of removed) entry.fields.delete(path);
    if (entry !== own) for (const path of changed) entry.fields.delete(path);
  }
  if (changed.length > 0) {
    if (own === undefined) {
      own = { manager, operation: 'Update', apiVersion, time: now, fields: new Set() };
      next.push(own);
    }
    for (const path of changed) own.fields.add(path);
    own.time = now;
  }
  return next.filter((entry) => entry.fields.size > 0);
}

/** True when an update leaves every entry as it was: the manager already solely owns what changed. */
function isOwnershipNoop(
  entries: ManagerEntry[],
  changed: FieldPath[],
  removed: FieldPath[],
  manager: string,
  now: string,
): boolean {
  if (removed.length > 0) return false;
  if (changed.length === 0) return true;
  const own = findEntry(entries, manager, 'Update');
  if (own === undefined || own.time !== now) return false;
  return changed.every((path) => own.fields.has(path) && entries.every((e) => e === own || !e.fields.has(path)));
}

export interface ApplyOwnership {
  entries: ManagerEntry[];
  /** Paths the manager applied before but no longer does, owned by nobody else: remove them from the object. */
  release: FieldPath[];
}

/** Conflicts an apply of `config` by `manager` would cause against the live object's other owners. */
export function applyConflicts(
  entries: ManagerEntry[],
  live: JsonObject | undefined,
  config: JsonObject,
  manager: string,
): FieldConflict[] {
  if (live === undefined) return [];
  const applied = fieldLeaves(config, 'apply');
  const liveLeaves = fieldLeaves(live, 'update');
  const conflicts: FieldConflict[] = [];
  for (const entry of entries) {
    if (entry.manager === manager && entry.operation === 'Apply') continue;
    for (const [path, value] of applied) {
      if (value === undefined || !entry.fields.has(path)) continue;
      if (liveLeaves.get(path) !== value) conflicts.push({ manager: entry, path });
    }
  }
  return conflicts;
}

/** Ownership after an apply (conflicts already checked, or forced). */
export function applyOwnership(
  entries: ManagerEntry[],
  config: JsonObject,
  manager: string,
  force: boolean,
  live: JsonObject | undefined,
  now: string,
  apiVersion: string = GROUP_VERSION,
): ApplyOwnership {
  const next = cloneEntries(entries);
  const applied = fieldLeaves(config, 'apply');
  const forced = force ? applyConflicts(entries, live, config, manager) : [];
  for (const conflict of forced) {
    const owner = next.find(
      (e) => e.manager === conflict.manager.manager && e.operation === conflict.manager.operation,
    );
    owner?.fields.delete(conflict.path);
  }
  let own = findEntry(next, manager, 'Apply');
  const previous = own?.fields ?? new Set<FieldPath>();
  const release = [...previous].filter(
    (path) => !applied.has(path) && !next.some((e) => e !== own && e.fields.has(path)),
  );
  const sameFields =
    own !== undefined && previous.size === applied.size && [...applied.keys()].every((p) => previous.has(p));
  if (own === undefined) {
    own = { manager, operation: 'Apply', apiVersion, time: now, fields: new Set() };
    next.push(own);
  }
  own.fields = new Set(applied.keys());
  if (!sameFields || forced.length > 0) own.time = now;
  return { entries: next.filter((entry) => entry.fields.size > 0), release };
}

/** Marks the apply entry as touched when the apply changed the object without changing its field set. */
export function touchEntry(entries: ManagerEntry[], manager: string, operation: ManagedOperation, now: string): void {
  const entry = findEntry(entries, manager, operation);
  if (entry !== undefined) entry.time = now;
}

function printManager(entry: ManagerEntry): string {
  const name = JSON.stringify(entry.manager);
  return entry.operation === 'Update' ? `${name} using ${entry.apiVersion}` : name;
}

export interface ConflictReport {
  message: string;
  causes: { reason: string; message: string; field: string }[];
}

/** Message and causes as the API server's NewConflictError renders them. */
export function describeConflicts(conflicts: FieldConflict[]): ConflictReport {
  const causes = conflicts.map((c) => ({
    reason: 'FieldManagerConflict',
    message: `conflict with ${printManager(c.manager)}`,
    field: pathToString(c.path),
  }));
  const first = conflicts[0];
  if (conflicts.length === 1 && first !== undefined) {
    return {
      message: `Apply failed with 1 conflict: conflict with ${printManager(first.manager)}: ${pathToString(first.path)}`,
      causes,
    };
  }
  const byManager = new Map<string, string[]>();
  for (const c of conflicts) {
    const key = printManager(c.manager);
    byManager.set(key, [...(byManager.get(key) ?? []), pathToString(c.path)]);
  }
  const lines: string[] = [];
  for (const key of [...byManager.keys()].sort()) {
    lines.push(`conflicts with ${key}:`);
    for (const path of byManager.get(key) ?? []) lines.push(`- ${path}`);
  }
  return { message: `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`, causes };
}
