// Sets of field paths in structured-merge-diff's model and their FieldsV1 encoding. A path is its
// FieldsV1 keys ("f:spec", "k:{\"uid\":\"…\"}", "v:\"…\"") joined by newlines, which no valid field
// name, key or set value holds.
import type { JsonObject, JsonValue } from '../json.js';
import { isJsonObject, setOwn } from '../json.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { SmdType } from './smd-type.js';
import { childType, hasNamedField, resolveType } from './smd-type.js';
import { compareGoStrings } from '../go-strings.js';
import { sortByBytes } from '../byte-order.js';

export type FieldPath = string;
export type FieldSet = ReadonlySet<FieldPath>;

const SEP = '\n';
export const EMPTY_SET: FieldSet = new Set();

export function joinPath(parent: FieldPath, element: string): FieldPath {
  return parent === '' ? element : `${parent}${SEP}${element}`;
}

export function pathElements(path: FieldPath): string[] {
  return path === '' ? [] : path.split(SEP);
}

export function union(a: FieldSet, b: FieldSet): FieldSet {
  if (b.size === 0) return a;
  if (a.size === 0) return b;
  const out = new Set(a);
  for (const p of b) out.add(p);
  return out;
}

export function difference(a: FieldSet, b: FieldSet): FieldSet {
  if (a.size === 0 || b.size === 0) return a;
  const out = new Set<FieldPath>();
  for (const p of a) if (!b.has(p)) out.add(p);
  return out;
}

export function intersection(a: FieldSet, b: FieldSet): FieldSet {
  const out = new Set<FieldPath>();
  for (const p of a) if (b.has(p)) out.add(p);
  return out;
}

export function setsEqual(a: FieldSet, b: FieldSet): boolean {
  return a.size === b.size && [...a].every((p) => b.has(p));
}

export interface SplitSet {
  /** Paths of one element. */
  exact: ReadonlySet<string>;
  /** The paths below each first element, relative to it. */
  below: ReadonlyMap<string, FieldSet>;
}

/** The set split by first element, so a walk finds each child's paths in one look-up (bounded time on long lists). */
export function splitByHead(set: FieldSet): SplitSet {
  const exact = new Set<string>();
  const below = new Map<string, Set<FieldPath>>();
  for (const path of set) {
    const cut = path.indexOf(SEP);
    if (cut < 0) {
      exact.add(path);
      continue;
    }
    const head = path.slice(0, cut);
    let rest = below.get(head);
    if (rest === undefined) {
      rest = new Set();
      below.set(head, rest);
    }
    rest.add(path.slice(cut + 1));
  }
  return { exact, below };
}

/** Parent paths of members whose last element names a field of a struct are made members (SMD's EnsureNamedFieldsAreMembers). */
export function ensureNamedFieldsAreMembers(set: FieldSet, root: SmdType): FieldSet {
  const out = new Set(set);
  for (const path of set) {
    const elements = pathElements(path);
    let type = root;
    let prefix = '';
    for (let i = 0; i < elements.length - 1; i++) {
      const element = elements[i] ?? '';
      const resolved = resolveType(type, undefined);
      prefix = joinPath(prefix, element);
      if (element.startsWith('f:')) {
        const name = element.slice(2);
        if (hasNamedField(resolved, name)) out.add(prefix);
        type = childType(resolved, name);
      } else type = resolved.kind === 'list' ? resolved.items : { kind: 'deduced' };
    }
  }
  return out;
}

interface TrieNode {
  member: boolean;
  children: Map<string, TrieNode>;
}

function elementRank(element: string): number {
  return element.startsWith('f:') ? 0 : element.startsWith('k:') ? 1 : element.startsWith('v:') ? 2 : 3;
}

/** The JSON body of a k:, v: or i: element (canonical, so it parses). */
function body(element: string): JsonValue {
  return JSON.parse(element.slice(2)) as JsonValue;
}

/**
 * structured-merge-diff's PathElement.Compare (fieldpath/element.go): field names, then keys, then values, then
 * indexes; names by strings.Compare, keys as FieldLists (sorted by name; shorter first, then name and value pair by
 * pair: value/fields.go FieldList.Compare), values by value.Compare, indexes as numbers. Sets iterate, and FieldsV1
 * serializes, in this order: comparing the serialized keys as strings put `v:10` before `v:9`.
 */
export function compareElements(a: string, b: string): number {
  const rank = elementRank(a);
  if (rank !== elementRank(b)) return rank - elementRank(b);
  if (rank === 0) return compareGoStrings(a.slice(2), b.slice(2));
  if (rank === 3) return Math.sign(Number(a.slice(2)) - Number(b.slice(2)));
  const left = body(a);
  const right = body(b);
  if (rank === 2) return compareValues(left, right);
  const fields = (value: JsonValue): Array<[string, JsonValue]> =>
    isJsonObject(value) ? Object.entries(value).sort(([x], [y]) => compareGoStrings(x, y)) : [];
  const lf = fields(left);
  const rf = fields(right);
  for (let i = 0; ; i++) {
    if (i >= lf.length && i >= rf.length) return 0;
    if (i >= lf.length) return -1;
    if (i >= rf.length) return 1;
    const c = compareGoStrings(lf[i]![0], rf[i]![0]) || compareValues(lf[i]![1], rf[i]![1]);
    if (c !== 0) return c;
  }
}

/** value.Compare's order of kinds (value/value.go CompareUsing): numbers, strings, booleans, lists, maps, null. */
function valueKind(value: JsonValue): number {
  if (typeof value === 'number') return 0;
  if (typeof value === 'string') return 1;
  if (typeof value === 'boolean') return 2;
  if (Array.isArray(value)) return 3;
  return value === null ? 5 : 4;
}

/** structured-merge-diff's value.Compare: by kind, then numerically, by strings.Compare, false before true, element by element (shorter first), and maps key by key in lexical order (MapCompareUsing). */
function compareValues(a: JsonValue, b: JsonValue): number {
  const kind = valueKind(a);
  if (kind !== valueKind(b)) return kind - valueKind(b);
  if (typeof a === 'number' && typeof b === 'number') return Math.sign(a - b);
  if (typeof a === 'string' && typeof b === 'string') return compareGoStrings(a, b);
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; ; i++) {
      if (i >= a.length && i >= b.length) return 0;
      if (i >= a.length) return -1;
      if (i >= b.length) return 1;
      const c = compareValues(a[i]!, b[i]!);
      if (c !== 0) return c;
    }
  }
  if (isJsonObject(a) && isJsonObject(b)) return compareMaps(a, b);
  return 0;
}

/** MapCompareUsing: over the union of keys in lexical order, the i-th key decides once either map runs out. */
function compareMaps(a: JsonObject, b: JsonObject): number {
  const left = Object.keys(a).length;
  const right = Object.keys(b).length;
  if (left === 0 && right === 0) return 0;
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort(compareGoStrings);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const inA = Object.hasOwn(a, key);
    const inB = Object.hasOwn(b, key);
    let c: number;
    if (i === left) c = -1;
    else if (i === right) c = 1;
    else if (!inA) c = 1;
    else if (!inB) c = -1;
    else c = compareValues(a[key] ?? null, b[key] ?? null);
    if (c !== 0) return c;
  }
  return 0;
}

/**
 * Children in compareElements' order. Field names alone (the common case, and a forged entry's 60,000 labels)
 * order as their bytes: sorted by prepared keys rather than by encoding both names on every comparison.
 */
function sortedElements(elements: string[]): string[] {
  return elements.every((e) => e.startsWith('f:')) ? sortByBytes(elements) : elements.sort(compareElements);
}

function trieToJson(node: TrieNode): JsonObject {
  const out: JsonObject = {};
  if (node.member && node.children.size > 0) out['.'] = {};
  for (const key of sortedElements([...node.children.keys()])) {
    const child = node.children.get(key);
    if (child !== undefined) out[key] = trieToJson(child);
  }
  return out;
}

// Sets are never mutated once built, and encodings are never mutated once stored, so a set a write leaves as it
// was (every manager but the writer, usually) keeps its encoding: no re-sort of a large set on every write, and
// the stored managedFields compare equal by identity.
const encodings = new WeakMap<FieldSet, JsonObject>();

/** FieldsV1 JSON of a set, keys in SMD's order (compareElements). */
export function toFieldsV1(paths: FieldSet): JsonObject {
  const known = encodings.get(paths);
  if (known !== undefined) return known;
  const encoded = encodeSet(paths);
  encodings.set(paths, encoded);
  return encoded;
}

function encodeSet(paths: FieldSet): JsonObject {
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

function sortedKeys(value: JsonValue): JsonValue {
  if (!isJsonObject(value)) return value;
  const out: JsonObject = {};
  for (const key of Object.keys(value).sort()) setOwn(out, key, value[key] ?? null);
  return out;
}

/** The canonical form of a FieldsV1 key, or undefined when SMD could not parse it. */
function canonicalElement(key: string): string | undefined {
  const prefix = key.slice(0, 2);
  if (prefix === 'f:') return key;
  if (prefix === 'i:') return /^i:(0|[1-9][0-9]*)$/.test(key) ? key : undefined;
  if (prefix !== 'k:' && prefix !== 'v:') return undefined;
  let parsed: JsonValue;
  try {
    parsed = JSON.parse(key.slice(2)) as JsonValue;
  } catch {
    return undefined;
  }
  if (prefix === 'k:') return isJsonObject(parsed) ? `k:${JSON.stringify(sortedKeys(parsed))}` : undefined;
  return `v:${JSON.stringify(parsed)}`;
}

const MAX_FIELDS_DEPTH = 64;

function decodeInto(fields: JsonObject, parent: FieldPath, out: Set<FieldPath>, depth: number): string | undefined {
  if (depth > MAX_FIELDS_DEPTH) return 'fieldsV1 nested too deeply';
  for (const [key, child] of Object.entries(fields)) {
    if (!isJsonObject(child)) return `expected an object for ${JSON.stringify(key)}`;
    if (key === '.') {
      if (parent !== '') out.add(parent);
      continue;
    }
    const element = canonicalElement(key);
    if (element === undefined) return `parsing JSON: unrecognized path element ${JSON.stringify(key)}`;
    const path = joinPath(parent, element);
    if (Object.keys(child).length === 0) out.add(path);
    else {
      const failure = decodeInto(child, path, out, depth + 1);
      if (failure !== undefined) return failure;
    }
  }
  return undefined;
}

/** Decodes FieldsV1 JSON (SMD's Set.FromJSON); a malformed document is an error, as upstream. */
export function fromFieldsV1(fields: JsonValue | undefined): Result<FieldSet, string> {
  if (fields === undefined) return ok(EMPTY_SET);
  if (!isJsonObject(fields)) return err('expected an object');
  const out = new Set<FieldPath>();
  const failure = decodeInto(fields, '', out, 0);
  return failure === undefined ? ok(out) : err(failure);
}

function elementToString(element: string): string {
  const body = element.slice(2);
  if (element.startsWith('f:')) return `.${body}`;
  if (element.startsWith('i:')) return `[${body}]`;
  const parsed = JSON.parse(body) as JsonValue;
  if (element.startsWith('v:')) return `[=${JSON.stringify(parsed)}]`;
  const entries = isJsonObject(parsed) ? Object.entries(parsed) : [];
  return `[${entries.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(',')}]`;
}

/** A path as structured-merge-diff prints it: .spec.holderIdentity, .metadata.finalizers[="a"]. */
export function pathToString(path: FieldPath): string {
  return pathElements(path).map(elementToString).join('');
}

/** Paths in SMD's iteration order (sorted element by element), for deterministic conflict lists. */
export function sortedPaths(set: FieldSet): FieldPath[] {
  return [...set].sort((a, b) => {
    const ea = pathElements(a);
    const eb = pathElements(b);
    for (let i = 0; i < Math.min(ea.length, eb.length); i++) {
      const c = compareElements(ea[i] ?? '', eb[i] ?? '');
      if (c !== 0) return c;
    }
    return ea.length - eb.length;
  });
}
