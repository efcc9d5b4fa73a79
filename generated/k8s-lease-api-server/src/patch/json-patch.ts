// RFC 6902 JSON Patch (add, remove, replace, move, copy, test) with evanphx/json-patch's error wording.
import type { JsonObject, JsonValue } from '../json.js';
import { cloneJson, deepEqual, isJsonObject } from '../json.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { PatchError } from './patch-error.js';
import { patchBadRequest, patchUnprocessable } from './patch-error.js';

class OpFailure {
  constructor(readonly message: string) {}
}

function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new OpFailure(`JSON pointer must be empty or start with a "/": ${pointer}`);
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

type Container = JsonObject | JsonValue[];

function isContainer(value: JsonValue | undefined): value is Container {
  return Array.isArray(value) || isJsonObject(value);
}

/** Resolves the parent container of a pointer; undefined when some ancestor is missing. */
function parentOf(doc: JsonValue, tokens: string[]): Container | undefined {
  let node: JsonValue | undefined = doc;
  for (const token of tokens.slice(0, -1)) {
    if (Array.isArray(node)) node = /^\d+$/.test(token) ? node[Number(token)] : undefined;
    else if (isJsonObject(node)) node = node[token];
    else return undefined;
  }
  return isContainer(node) ? node : undefined;
}

function arrayIndex(token: string, length: number, allowEnd: boolean): number {
  if (allowEnd && token === '-') return length;
  if (!/^\d+$/.test(token)) throw new OpFailure(`Unable to access invalid index: ${token}: invalid index referenced`);
  const index = Number(token);
  if (index > length || (!allowEnd && index === length)) {
    throw new OpFailure(`Unable to access invalid index: ${index}: invalid index referenced`);
  }
  return index;
}

function getAt(doc: JsonValue, pointer: string): JsonValue | undefined {
  let node: JsonValue | undefined = doc;
  for (const token of parsePointer(pointer)) {
    if (Array.isArray(node)) node = /^\d+$/.test(token) ? node[Number(token)] : undefined;
    else if (isJsonObject(node)) node = Object.hasOwn(node, token) ? node[token] : undefined;
    else return undefined;
  }
  return node;
}

interface Doc {
  root: JsonValue;
}

function add(doc: Doc, pointer: string, value: JsonValue): void {
  const tokens = parsePointer(pointer);
  const last = tokens[tokens.length - 1];
  if (last === undefined) {
    doc.root = value;
    return;
  }
  const parent = parentOf(doc.root, tokens);
  if (parent === undefined) throw new OpFailure(`add operation does not apply: doc is missing path: ${JSON.stringify(pointer)}: missing value`);
  if (Array.isArray(parent)) parent.splice(arrayIndex(last, parent.length, true), 0, value);
  else parent[last] = value;
}

function remove(doc: Doc, pointer: string, op: string): JsonValue {
  const tokens = parsePointer(pointer);
  const last = tokens[tokens.length - 1];
  const parent = last === undefined ? undefined : parentOf(doc.root, tokens);
  if (parent === undefined || last === undefined) {
    throw new OpFailure(`${op} operation does not apply: doc is missing path: ${JSON.stringify(pointer)}: missing value`);
  }
  if (Array.isArray(parent)) {
    const index = arrayIndex(last, parent.length, false);
    return parent.splice(index, 1)[0] ?? null;
  }
  if (!Object.hasOwn(parent, last)) throw new OpFailure(`Unable to remove nonexistent key: ${last}: missing value`);
  const old = parent[last] ?? null;
  delete parent[last];
  return old;
}

function replace(doc: Doc, pointer: string, value: JsonValue): void {
  const tokens = parsePointer(pointer);
  const last = tokens[tokens.length - 1];
  if (last === undefined) {
    doc.root = value;
    return;
  }
  const parent = parentOf(doc.root, tokens);
  const missing = (): never => {
    throw new OpFailure(`replace operation does not apply: doc is missing key: ${pointer}: missing value`);
  };
  if (parent === undefined) missing();
  else if (Array.isArray(parent)) parent[arrayIndex(last, parent.length, false)] = value;
  else if (!Object.hasOwn(parent, last)) missing();
  else parent[last] = value;
}

function field(op: JsonObject, name: string, opName: string): string {
  const value = op[name];
  if (typeof value !== 'string') throw new OpFailure(`${opName} operation missing ${name} field`);
  return value;
}

function valueOf(op: JsonObject): JsonValue {
  if (!Object.hasOwn(op, 'value')) throw new OpFailure('missing value');
  return op['value'] ?? null;
}

function applyOp(doc: Doc, op: JsonObject): void {
  const kind = op['op'];
  switch (kind) {
    case 'add':
      return add(doc, field(op, 'path', 'add'), cloneJson(valueOf(op)));
    case 'remove':
      remove(doc, field(op, 'path', 'remove'), 'remove');
      return;
    case 'replace':
      return replace(doc, field(op, 'path', 'replace'), cloneJson(valueOf(op)));
    case 'move': {
      const from = field(op, 'from', 'move');
      if (getAt(doc.root, from) === undefined) throw new OpFailure(`move operation does not apply: doc is missing from path: ${from}: missing value`);
      const value = remove(doc, from, 'move');
      return add(doc, field(op, 'path', 'move'), value);
    }
    case 'copy': {
      const from = field(op, 'from', 'copy');
      const value = getAt(doc.root, from);
      if (value === undefined) throw new OpFailure(`copy operation does not apply: doc is missing from path: ${from}: missing value`);
      return add(doc, field(op, 'path', 'copy'), cloneJson(value));
    }
    case 'test': {
      const path = field(op, 'path', 'test');
      const actual = getAt(doc.root, path);
      const expected = op['value'];
      const equal = actual === undefined ? expected === null || expected === undefined : deepEqual(actual, expected ?? null);
      if (!equal) throw new OpFailure(`testing value ${path} failed: test failed`);
      return;
    }
    default:
      throw new OpFailure(`Unexpected kind: ${String(kind)}`);
  }
}

export const MAX_JSON_PATCH_OPERATIONS = 10_000;

export function applyJsonPatch(document: JsonValue, patch: JsonValue): Result<JsonValue, PatchError> {
  if (!Array.isArray(patch) || !patch.every(isJsonObject)) {
    const shown = Array.isArray(patch) ? 'array element' : isJsonObject(patch) ? 'object' : typeof patch;
    return err(patchBadRequest(`json: cannot unmarshal ${shown} into Go value of type jsonpatch.Patch`));
  }
  if (patch.length > MAX_JSON_PATCH_OPERATIONS) {
    return err(patchBadRequest(`The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${patch.length}`));
  }
  const doc: Doc = { root: cloneJson(document) };
  try {
    for (const op of patch) if (isJsonObject(op)) applyOp(doc, op);
  } catch (e) {
    if (e instanceof OpFailure) return err(patchUnprocessable(e.message));
    throw e;
  }
  return ok(doc.root);
}
