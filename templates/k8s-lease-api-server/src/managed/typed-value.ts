// structured-merge-diff's operations on typed values, re-implemented over plain JSON: the field set a
// value sets (typed/tofieldset.go), the comparison of two values (typed/compare.go), the merge of an
// applied configuration into a live object (typed/merge.go) and the removal of paths (typed/remove.go).
// The rules below (when an empty map is a leaf, how list orders merge, what a removal leaves) are
// Kubernetes behaviour and follow those files.
import type { JsonObject, JsonValue } from '../json.js';
import { deepEqual, isJsonObject, ownValue, setOwn } from '../json.js';
import type { FieldPath, FieldSet } from './field-set.js';
import { joinPath, splitByHead } from './field-set.js';
import type { ResolvedType, SmdType } from './smd-type.js';
import { childType, hasNamedField, listItemElement, resolveType } from './smd-type.js';

type ListType = Extract<ResolvedType, { kind: 'list' }>;

function isEmptyContainer(value: JsonValue | undefined): boolean {
  if (value === undefined || value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  return isJsonObject(value) && Object.keys(value).length === 0;
}

function asList(value: JsonValue | undefined): JsonValue[] {
  return Array.isArray(value) ? value : [];
}

function asMap(value: JsonValue | undefined): JsonObject {
  return isJsonObject(value) ? value : {};
}

// ---- ToFieldSet -----------------------------------------------------------------------------

function collect(value: JsonValue, type: SmdType, path: FieldPath, out: Set<FieldPath>): void {
  const t = resolveType(type, value);
  if (t.kind === 'scalar' || (t.kind === 'list' && t.relation === 'atomic') || (t.kind === 'map' && t.atomic)) {
    out.add(path);
    return;
  }
  if (t.kind === 'list') {
    if (!Array.isArray(value)) return;
    const seen = new Set<string>();
    const duplicates = new Set<string>();
    for (const item of value) {
      const element = listItemElement(t, item);
      if (seen.has(element) && !duplicates.has(element)) {
        out.add(joinPath(path, element));
        duplicates.add(element);
      }
      seen.add(element);
    }
    for (const item of value) {
      const element = listItemElement(t, item);
      if (duplicates.has(element)) continue;
      const child = joinPath(path, element);
      collect(item, t.items, child, out);
      out.add(child);
    }
    return;
  }
  if (!isJsonObject(value)) return;
  for (const [key, child] of Object.entries(value)) {
    const childPath = joinPath(path, `f:${key}`);
    collect(child, childType(t, key), childPath, out);
    if (child === null || (isJsonObject(child) && Object.keys(child).length === 0) || !hasNamedField(t, key))
      out.add(childPath);
  }
}

/** The paths a value sets (SMD's TypedValue.ToFieldSet). */
export function toFieldSet(value: JsonObject, type: SmdType): FieldSet {
  const out = new Set<FieldPath>();
  collect(value, type, '', out);
  return out;
}

// ---- Compare --------------------------------------------------------------------------------

export interface Comparison {
  added: Set<FieldPath>;
  modified: Set<FieldPath>;
  removed: Set<FieldPath>;
}

function isLeaf(t: ResolvedType, lhs: JsonValue | undefined, rhs: JsonValue | undefined): boolean {
  if (t.kind === 'scalar') return true;
  if (t.kind === 'list') {
    if (lhs !== undefined && lhs !== null && !Array.isArray(lhs)) return true;
    if (rhs !== undefined && rhs !== null && !Array.isArray(rhs)) return true;
    return t.relation === 'atomic' || (isEmptyContainer(lhs) && isEmptyContainer(rhs));
  }
  if (lhs !== undefined && lhs !== null && !isJsonObject(lhs)) return true;
  if (rhs !== undefined && rhs !== null && !isJsonObject(rhs)) return true;
  return t.atomic || (isEmptyContainer(lhs) && isEmptyContainer(rhs));
}

/** Items of a granular list grouped by path element, in first-seen order. */
function indexItems(t: ListType, list: JsonValue[]): Map<string, JsonValue[]> {
  const out = new Map<string, JsonValue[]>();
  for (const item of list) {
    const element = listItemElement(t, item);
    const group = out.get(element);
    if (group === undefined) out.set(element, [item]);
    else group.push(item);
  }
  return out;
}

function compareList(t: ListType, lhs: JsonValue[], rhs: JsonValue[], path: FieldPath, cmp: Comparison): void {
  const left = indexItems(t, lhs);
  const right = indexItems(t, rhs);
  const elements = [...left.keys(), ...[...right.keys()].filter((e) => !left.has(e))];
  for (const element of elements) {
    const l = left.get(element) ?? [];
    const r = right.get(element) ?? [];
    const child = joinPath(path, element);
    if (l.length <= 1 && r.length <= 1) compareNode(l[0], r[0], t.items, child, cmp);
    else if (l.length >= 2 && r.length >= 2) {
      if (!deepEqual(l, r)) cmp.modified.add(child);
    } else if (l.length >= 2) {
      if (r[0] !== undefined) compareNode(undefined, r[0], t.items, child, cmp);
      cmp.removed.add(child);
    } else {
      if (l[0] !== undefined) compareNode(l[0], undefined, t.items, child, cmp);
      cmp.added.add(child);
    }
  }
}

function compareNode(
  lhs: JsonValue | undefined,
  rhs: JsonValue | undefined,
  type: SmdType,
  path: FieldPath,
  cmp: Comparison,
): void {
  const t = resolveType(type, rhs ?? lhs);
  if (isLeaf(t, lhs, rhs)) {
    if (lhs === undefined) cmp.added.add(path);
    else if (rhs === undefined) cmp.removed.add(path);
    else if (!deepEqual(lhs, rhs)) cmp.modified.add(path);
    return;
  }
  if (t.kind === 'list') compareList(t, asList(lhs), asList(rhs), path, cmp);
  else if (t.kind === 'map') {
    const l = asMap(lhs);
    const r = asMap(rhs);
    const keys = new Set([...Object.keys(l), ...Object.keys(r)]);
    for (const key of keys) {
      compareNode(ownValue(l, key), ownValue(r, key), childType(t, key), joinPath(path, `f:${key}`), cmp);
    }
  }
  if (lhs === undefined) cmp.added.add(path);
  else if (rhs === undefined) cmp.removed.add(path);
}

/** What changed from `lhs` to `rhs` (SMD's TypedValue.Compare). */
export function compareValues(lhs: JsonObject, rhs: JsonObject, type: SmdType): Comparison {
  const cmp: Comparison = { added: new Set(), modified: new Set(), removed: new Set() };
  const t = resolveType(type, rhs);
  if (t.kind !== 'map') return cmp;
  for (const key of new Set([...Object.keys(lhs), ...Object.keys(rhs)])) {
    compareNode(ownValue(lhs, key), ownValue(rhs, key), childType(t, key), `f:${key}`, cmp);
  }
  return cmp;
}

// ---- Merge ----------------------------------------------------------------------------------

/**
 * Merges two granular lists the way SMD orders them: items only in the live list keep their place,
 * applied items follow the applied order, and shared items move to where the configuration puts them.
 */
function mergeList(t: ListType, lhs: JsonValue[], rhs: JsonValue[]): JsonValue[] {
  const rhsElements = rhs.map((item) => listItemElement(t, item));
  const lhsElements = lhs.map((item) => listItemElement(t, item));
  const rhsIndex = new Map<string, JsonValue>();
  rhsElements.forEach((e, i) => {
    if (!rhsIndex.has(e)) rhsIndex.set(e, rhs[i] ?? null);
  });
  const lhsIndex = new Map<string, JsonValue | undefined>();
  lhsElements.forEach((e, i) => {
    lhsIndex.set(e, lhsIndex.has(e) ? undefined : lhs[i]);
  });
  const shared = rhsElements.filter((e) => lhsIndex.has(e));
  let sharedAt = 0;
  // The next shared element in the configuration's order (an index, not shift(): long lists stay linear).
  const takeShared = (): string | undefined => shared[sharedAt++];
  let nextShared = takeShared();
  const merged = new Set<string>();
  const out: JsonValue[] = [];
  const emit = (value: JsonValue | undefined) => {
    if (value !== undefined) out.push(value);
  };
  let li = 0;
  let ri = 0;
  while (li < lhsElements.length || ri < rhsElements.length) {
    const le = lhsElements[li];
    const re = rhsElements[ri];
    if (le !== undefined && re !== undefined) {
      if (le === re) {
        merged.add(le);
        emit(mergeValue(lhsIndex.get(le), rhsIndex.get(re), t.items));
        li++;
        ri++;
        nextShared = takeShared();
        continue;
      }
      if (rhsIndex.has(le) && nextShared !== undefined && nextShared !== le) {
        li++;
        continue;
      }
    }
    if (le !== undefined) {
      if (!rhsIndex.has(le)) {
        emit(mergeValue(lhs[li], undefined, t.items));
        li++;
        continue;
      }
      if (merged.has(le)) li++;
    }
    if (re !== undefined) {
      merged.add(re);
      emit(mergeValue(lhsIndex.get(re), rhsIndex.get(re), t.items));
      ri++;
      if (nextShared !== undefined && nextShared === re) nextShared = takeShared();
    }
  }
  return out;
}

function mergeValue(lhs: JsonValue | undefined, rhs: JsonValue | undefined, type: SmdType): JsonValue | undefined {
  const t = resolveType(type, rhs ?? lhs);
  if (isLeaf(t, lhs, rhs)) return rhs !== undefined ? rhs : lhs;
  if (t.kind === 'list') {
    const out = mergeList(t, asList(lhs), asList(rhs));
    return out.length > 0 ? out : undefined;
  }
  if (t.kind !== 'map') return rhs !== undefined ? rhs : lhs;
  const l = asMap(lhs);
  const r = asMap(rhs);
  const out: JsonObject = {};
  for (const key of new Set([...Object.keys(l), ...Object.keys(r)])) {
    const child = mergeValue(ownValue(l, key), ownValue(r, key), childType(t, key));
    if (child !== undefined) setOwn(out, key, child);
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The live object with the configuration merged in (SMD's TypedValue.Merge: the right side wins). */
export function mergeValues(live: JsonObject, config: JsonObject, type: SmdType): JsonObject {
  const merged = mergeValue(live, config, type);
  return isJsonObject(merged) ? merged : {};
}

// ---- RemoveItems ----------------------------------------------------------------------------

/**
 * What RemoveItems leaves under the key of a map or list it empties by removing paths inside it (not the key
 * itself): `null` up to structured-merge-diff v6.3.0, the empty container from v6.3.1 (commit 9c093d1 "RemoveItems
 * should preserve empty list and map"). Either way the key stays, so its owner keeps owning it.
 */
export type EmptiedContainer = 'null' | 'empty';

/** The structured-merge-diff a release vendors: v6.3.0 through 1.35, v6.3.2 from 1.36 (k8s.io/apiserver go.mod). */
export function emptiedContainerOf(minor: number): EmptiedContainer {
  return minor >= 36 ? 'empty' : 'null';
}

/** typed/remove.go: what a prefix match leaves in place of `before` when the removal emptied it (nil). */
function emptiedValue(before: JsonValue, emptied: EmptiedContainer): JsonValue {
  if (emptied === 'null') return null;
  if (Array.isArray(before)) return [];
  return isJsonObject(before) ? {} : null;
}

function removeFrom(
  value: JsonValue,
  toRemove: FieldSet,
  type: SmdType,
  emptied: EmptiedContainer,
): JsonValue | undefined {
  const t = resolveType(type, value);
  if (t.kind === 'scalar') return value;
  const { exact, below } = splitByHead(toRemove);
  const inside = (child: JsonValue, under: FieldSet, childType: SmdType): JsonValue =>
    removeFrom(child, under, childType, emptied) ?? emptiedValue(child, emptied);
  if (t.kind === 'list') {
    if (!Array.isArray(value) || value.length === 0 || t.relation === 'atomic') return undefined;
    const out: JsonValue[] = [];
    let matched = false;
    for (const item of value) {
      const element = listItemElement(t, item);
      if (exact.has(element)) continue;
      const under = below.get(element);
      matched ||= under !== undefined;
      out.push(under === undefined ? item : inside(item, under, t.items));
    }
    return out.length > 0 || (matched && emptied === 'empty') ? out : undefined;
  }
  if (!isJsonObject(value) || Object.keys(value).length === 0 || t.atomic) return undefined;
  const out: JsonObject = {};
  let matched = false;
  for (const [key, child] of Object.entries(value)) {
    const element = `f:${key}`;
    if (exact.has(element)) continue;
    const under = below.get(element);
    matched ||= under !== undefined;
    // A container emptied by the removal stays under its key (doMap sets newMap[k] whatever it became).
    setOwn(out, key, under === undefined ? child : inside(child, under, childType(t, key)));
  }
  return Object.keys(out).length > 0 || (matched && emptied === 'empty') ? out : undefined;
}

/** A copy of `value` without the given paths (SMD's TypedValue.RemoveItems). */
export function removeItems(
  value: JsonObject,
  toRemove: FieldSet,
  type: SmdType,
  emptied: EmptiedContainer,
): JsonObject {
  if (toRemove.size === 0) return value;
  const out = removeFrom(value, toRemove, type, emptied);
  return isJsonObject(out) ? out : {};
}
