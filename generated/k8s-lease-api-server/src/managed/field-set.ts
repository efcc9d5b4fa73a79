// Copied by lease-api-generator from templates/server/managed/field-set.ts. DO NOT EDIT: edit that file and run `npm run generate`.
// Field sets in structured-merge-diff's model for a Lease: which paths an object (or an applied
// configuration) sets, and their FieldsV1 encoding. Paths are FieldsV1 keys joined by newlines.
import type { JsonObject, JsonValue } from '../json.js';
import { isJsonObject, parseJson } from '../json.js';

export type FieldPath = string;
/** Path → JSON of the leaf value (undefined for container members such as "." and list items). */
export type FieldLeaves = Map<FieldPath, string | undefined>;
export type SetMode = 'update' | 'apply';

const SEP = '\n';
// Server-owned metadata never appears in managedFields (fieldmanager's stripMeta).
const STRIPPED_META = new Set([
  'name',
  'namespace',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'selfLink',
  'managedFields',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
]);
const GRANULAR_MAPS = new Set(['labels', 'annotations']);

export function joinPath(parent: FieldPath, element: string): FieldPath {
  return parent === '' ? element : `${parent}${SEP}${element}`;
}

export function pathElements(path: FieldPath): string[] {
  return path === '' ? [] : path.split(SEP);
}

function addMember(out: FieldLeaves, path: FieldPath): void {
  if (!out.has(path)) out.set(path, undefined);
}

function walkMap(map: JsonObject, path: FieldPath, mode: SetMode, out: FieldLeaves): void {
  const keys = Object.keys(map);
  if (keys.length === 0 || mode === 'update') addMember(out, path);
  for (const key of keys) out.set(joinPath(path, `f:${key}`), JSON.stringify(map[key]));
}

function walkList(
  list: JsonValue[],
  path: FieldPath,
  mode: SetMode,
  out: FieldLeaves,
  keyOf: (item: JsonValue) => string,
): void {
  if (list.length === 0 || mode === 'update') addMember(out, path);
  // Associative and set list items are atomic here (OwnerReference is x-kubernetes-map-type: atomic).
  for (const item of list) out.set(joinPath(path, keyOf(item)), JSON.stringify(item));
}

function ownerKey(item: JsonValue): string {
  const uid = isJsonObject(item) ? item['uid'] : undefined;
  return `k:${JSON.stringify({ uid: typeof uid === 'string' ? uid : '' })}`;
}

function walkStruct(obj: JsonObject, path: FieldPath, mode: SetMode, out: FieldLeaves, isMeta: boolean): void {
  const keys = Object.keys(obj);
  if (keys.length === 0 && mode === 'apply' && path !== '') addMember(out, path);
  for (const key of keys) {
    const value = obj[key];
    if (value === undefined || value === null) continue;
    if (isMeta && STRIPPED_META.has(key)) continue;
    const child = joinPath(path, `f:${key}`);
    if (isMeta && GRANULAR_MAPS.has(key) && isJsonObject(value)) walkMap(value, child, mode, out);
    else if (isMeta && key === 'ownerReferences' && Array.isArray(value)) walkList(value, child, mode, out, ownerKey);
    else if (isMeta && key === 'finalizers' && Array.isArray(value))
      walkList(value, child, mode, out, (v) => `v:${JSON.stringify(v)}`);
    else if ((key === 'metadata' || key === 'spec') && path === '' && isJsonObject(value)) {
      walkStruct(value, child, mode, out, key === 'metadata');
    } else out.set(child, JSON.stringify(value));
  }
}

/** The fields an object sets; in 'apply' mode, exactly as an applied configuration claims them. */
export function fieldLeaves(obj: JsonObject, mode: SetMode): FieldLeaves {
  const out: FieldLeaves = new Map();
  const { apiVersion: _a, kind: _k, ...rest } = obj;
  walkStruct(rest, '', mode, out, false);
  return out;
}

interface TrieNode {
  member: boolean;
  children: Map<string, TrieNode>;
}

function elementRank(element: string): number {
  return element.startsWith('f:') ? 0 : element.startsWith('k:') ? 1 : element.startsWith('v:') ? 2 : 3;
}

function compareElements(a: string, b: string): number {
  return elementRank(a) - elementRank(b) || (a < b ? -1 : a > b ? 1 : 0);
}

function trieToJson(node: TrieNode): JsonObject {
  const out: JsonObject = {};
  if (node.member && node.children.size > 0) out['.'] = {};
  for (const key of [...node.children.keys()].sort(compareElements)) {
    const child = node.children.get(key);
    if (child !== undefined) out[key] = trieToJson(child);
  }
  return out;
}

export function toFieldsV1(paths: Iterable<FieldPath>): JsonObject {
  const root: TrieNode = { member: false, children: new Map() };
  for (const path of paths) {
    let node = root;
    for (const element of pathElements(path)) {
      let next = node.children.get(element);
      if (next === undefined) {
        next = { member: false, children: new Map() };
        node.children.set(element, next);
      }
      node = next;
    }
    node.member = true;
  }
  return trieToJson(root);
}

export function fromFieldsV1(
  fields: JsonValue | undefined,
  parent: FieldPath = '',
  out: Set<FieldPath> = new Set(),
): Set<FieldPath> {
  if (!isJsonObject(fields)) return out;
  for (const [key, child] of Object.entries(fields)) {
    if (key === '.') {
      if (parent !== '') out.add(parent);
      continue;
    }
    const path = joinPath(parent, key);
    if (isJsonObject(child) && Object.keys(child).length > 0) fromFieldsV1(child, path, out);
    else out.add(path);
  }
  return out;
}

/** Renders a path the way structured-merge-diff prints it in conflict messages: .spec.holderIdentity */
export function pathToString(path: FieldPath): string {
  return pathElements(path)
    .map((element) => {
      if (element.startsWith('f:')) return `.${element.slice(2)}`;
      if (element.startsWith('v:')) return `[=${element.slice(2)}]`;
      if (element.startsWith('k:')) {
        const parsed = parseJson(element.slice(2));
        const entries = isJsonObject(parsed) ? Object.entries(parsed) : [];
        return `[${entries.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(',')}]`;
      }
      return element;
    })
    .join('');
}
