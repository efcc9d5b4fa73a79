// structured-merge-diff's Updater (merge/update.go): how an update or an apply changes who manages
// which fields, when an apply conflicts, and which fields an apply removes because their last applier
// stopped applying them and nobody else manages them. Kubernetes behaviour, re-implemented.
import type { JsonObject } from '../json.js';
import { deepEqual } from '../json.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { FieldPath, FieldSet } from './field-set.js';
import { EMPTY_SET, difference, ensureNamedFieldsAreMembers, intersection, sortedPaths, union } from './field-set.js';
import type { SmdType } from './smd-type.js';
import type { Comparison } from './typed-value.js';
import type { EmptiedContainer } from './typed-value.js';
import { compareValues, mergeValues, removeItems, toFieldSet } from './typed-value.js';

export interface VersionedSet {
  set: FieldSet;
  apiVersion: string;
  /** True for an Apply entry. */
  applied: boolean;
}

/** Field sets by manager identifier (the JSON identifier the API server builds for each entry). */
export type ManagedFields = Map<string, VersionedSet>;

export interface Conflict {
  manager: string;
  path: FieldPath;
}

export interface UpdaterSchema {
  type: SmdType;
  /**
   * Whether objects convert to this group version. The versions of one resource share their fields,
   * so conversion is the identity; a manager recorded at a version that is not served is dropped, as
   * SMD drops managers whose version the converter reports missing.
   */
  convertible(apiVersion: string): boolean;
  /** What pruning leaves under the key of a map or list it empties, per the release's structured-merge-diff. */
  emptied: EmptiedContainer;
}

function conflictList(conflicts: ManagedFields): Conflict[] {
  const out: Conflict[] = [];
  for (const manager of [...conflicts.keys()].sort()) {
    for (const path of sortedPaths(conflicts.get(manager)?.set ?? EMPTY_SET)) out.push({ manager, path });
  }
  return out;
}

function update(
  schema: UpdaterSchema,
  oldObject: JsonObject,
  newObject: JsonObject,
  managers: ManagedFields,
  workflow: string,
  force: boolean,
): Result<{ managers: ManagedFields; compare: Comparison }, Conflict[]> {
  const compare = compareValues(oldObject, newObject, schema.type);
  const changed = union(compare.modified, compare.added);
  const conflicts: ManagedFields = new Map();
  const next: ManagedFields = new Map(managers);
  for (const [manager, versioned] of managers) {
    if (manager === workflow) continue;
    if (!schema.convertible(versioned.apiVersion)) {
      next.delete(manager);
      continue;
    }
    const conflict = intersection(versioned.set, changed);
    if (conflict.size > 0) conflicts.set(manager, { ...versioned, set: conflict });
  }
  if (!force && conflicts.size > 0) return err(conflictList(conflicts));
  for (const [manager, versioned] of next) {
    if (manager === workflow) {
      if (versioned.set.size === 0) next.delete(manager);
      continue;
    }
    const taken = conflicts.get(manager)?.set ?? EMPTY_SET;
    const set = difference(difference(versioned.set, taken), compare.removed);
    if (set.size === 0) next.delete(manager);
    else if (set !== versioned.set) next.set(manager, { ...versioned, set });
  }
  return ok({ managers: next, compare });
}

/** Ownership after a non-apply write of `newObject` by `manager` (SMD's Updater.Update). */
export function updaterUpdate(
  schema: UpdaterSchema,
  liveObject: JsonObject,
  newObject: JsonObject,
  version: string,
  managers: ManagedFields,
  manager: string,
): ManagedFields {
  const updated = update(schema, liveObject, newObject, managers, manager, true);
  if (!updated.ok) return managers;
  const { compare } = updated.value;
  const next = updated.value.managers;
  const previous = next.get(manager)?.set ?? EMPTY_SET;
  const set = union(union(difference(previous, compare.removed), compare.modified), compare.added);
  if (set.size === 0) next.delete(manager);
  else next.set(manager, { set, apiVersion: version, applied: false });
  return next;
}

function ensured(schema: UpdaterSchema, set: FieldSet): FieldSet {
  return ensureNamedFieldsAreMembers(set, schema.type);
}

/** Removes from `pruned` nothing that some manager still owns (SMD's addBackOwnedItems). */
function addBackOwnedItems(
  schema: UpdaterSchema,
  merged: JsonObject,
  pruned: JsonObject,
  managers: ManagedFields,
): JsonObject {
  let managed: FieldSet = EMPTY_SET;
  for (const versioned of managers.values()) {
    if (schema.convertible(versioned.apiVersion)) managed = union(managed, versioned.set);
  }
  const mergedSet = ensured(schema, toFieldSet(merged, schema.type));
  const prunedSet = ensured(schema, toFieldSet(pruned, schema.type));
  const keep = union(prunedSet, ensured(schema, managed));
  return removeItems(merged, difference(mergedSet, keep), schema.type, schema.emptied);
}

/** Removes what the last apply set and nothing holds any more (SMD's addBackDanglingItems). */
function addBackDanglingItems(
  schema: UpdaterSchema,
  merged: JsonObject,
  pruned: JsonObject,
  lastSet: FieldSet,
): JsonObject {
  const prunedSet = ensured(schema, toFieldSet(pruned, schema.type));
  const mergedSet = ensured(schema, toFieldSet(merged, schema.type));
  const dangling = intersection(difference(mergedSet, prunedSet), ensured(schema, lastSet));
  return removeItems(merged, dangling, schema.type, schema.emptied);
}

function prune(
  schema: UpdaterSchema,
  merged: JsonObject,
  managers: ManagedFields,
  lastSet: VersionedSet | undefined,
): JsonObject {
  if (lastSet === undefined || lastSet.set.size === 0 || !schema.convertible(lastSet.apiVersion)) return merged;
  const pruned = removeItems(merged, ensured(schema, lastSet.set), schema.type, schema.emptied);
  const ownedBack = addBackOwnedItems(schema, merged, pruned, managers);
  return addBackDanglingItems(schema, merged, ownedBack, lastSet.set);
}

export interface ApplyResult {
  /** The new object, or undefined when the apply leaves the live object as it is. */
  object: JsonObject | undefined;
  managers: ManagedFields;
}

/** Ownership and object after `manager` applies `config` (SMD's Updater.Apply). */
export function updaterApply(
  schema: UpdaterSchema,
  liveObject: JsonObject,
  config: JsonObject,
  version: string,
  managers: ManagedFields,
  manager: string,
  force: boolean,
): Result<ApplyResult, Conflict[]> {
  const merged = mergeValues(liveObject, config, schema.type);
  const lastSet = managers.get(manager);
  const withApplier: ManagedFields = new Map(managers);
  withApplier.set(manager, { set: toFieldSet(config, schema.type), apiVersion: version, applied: true });
  const newObject = prune(schema, merged, withApplier, lastSet);
  const updated = update(schema, liveObject, newObject, withApplier, manager, force);
  if (!updated.ok) return updated;
  return ok({
    object: deepEqual(liveObject, newObject) ? undefined : newObject,
    managers: updated.value.managers,
  });
}
