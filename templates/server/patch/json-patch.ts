// RFC 6902 JSON Patch on the fast-json-patch library, wrapped in what kube-apiserver adds around
// evanphx/json-patch (v4): the operation cap, the accumulated copy size cap, negative array indices,
// Go's map semantics (a key is present only as own data, so "__proto__" and "constructor" are just
// missing keys), and evanphx's error wording, which clients see verbatim. The wrapper resolves every
// path itself and hands fast-json-patch a concrete, own-property path; fast-json-patch still runs
// with banPrototypeModifications as a second line of defence.
import jsonpatch from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import type { JsonObject, JsonValue } from '../json.js';
import { MAX_NESTING_DEPTH, cloneJson, deepEqual, isJsonObject, nestingDepth, ownValue } from '../json.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { PatchError } from './patch-error.js';
import { patchBadRequest, patchTooLarge, patchUnprocessable } from './patch-error.js';

/** k8s.io/apiserver/pkg/endpoints/handlers/patch.go: maxJSONPatchOperations. */
export const MAX_JSON_PATCH_OPERATIONS = 10_000;

/**
 * evanphx/json-patch's AccumulatedCopySizeLimit, which kube-apiserver sets from its JSONPatchMaxCopyBytes
 * (k8s.io/apiserver/pkg/server/config.go: 3 MiB, twice etcd's recommended 1.5 MB request size).
 */
export const MAX_JSON_PATCH_COPY_BYTES: number = 3 * 1024 * 1024;

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

function formatPointer(tokens: string[]): string {
  return tokens.map((t) => `/${t.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

type Container = JsonObject | JsonValue[];

function isContainer(value: JsonValue | undefined): value is Container {
  return Array.isArray(value) || isJsonObject(value);
}

/**
 * An array index as evanphx v4 reads it with SupportNegativeIndices (its default, kept by Kubernetes):
 * -1 is the last element. `size` is the length the index may address (length + 1 when inserting).
 */
function arrayIndex(token: string, size: number): number {
  if (!/^-?\d+$/.test(token))
    throw new OpFailure(
      `value was not a proper array index: '${token}': strconv.Atoi: parsing ${JSON.stringify(token)}: invalid syntax`,
    );
  const index = Number(token);
  if (index >= size || index < -size)
    throw new OpFailure(`Unable to access invalid index: ${index}: invalid index referenced`);
  return index < 0 ? index + size : index;
}

/** Child of a container by one token, own data only (Go's map lookup); undefined when missing. */
function childOf(node: JsonValue | undefined, token: string): JsonValue | undefined {
  if (Array.isArray(node)) {
    if (!/^-?\d+$/.test(token)) return undefined;
    const index = Number(token);
    if (index >= node.length || index < -node.length) return undefined;
    return node[index < 0 ? index + node.length : index];
  }
  return isJsonObject(node) ? ownValue(node, token) : undefined;
}

/** The parent container of a pointer's last token, walking own data only; undefined when missing. */
function parentOf(doc: JsonValue, tokens: string[]): Container | undefined {
  let node: JsonValue | undefined = doc;
  for (const token of tokens.slice(0, -1)) node = childOf(node, token);
  return isContainer(node) ? node : undefined;
}

/** Rewrites a pointer into concrete own tokens (negative indices made positive) for fast-json-patch. */
interface Target {
  parent: Container;
  tokens: string[];
  last: string;
}

function concretePath(doc: JsonValue, tokens: string[]): string[] {
  const out: string[] = [];
  let node: JsonValue | undefined = doc;
  for (const token of tokens) {
    if (Array.isArray(node) && /^-\d+$/.test(token)) out.push(String(Number(token) + node.length));
    else out.push(token);
    node = childOf(node, token);
  }
  return out;
}

function resolveTarget(doc: JsonValue, pointer: string, missing: string): Target {
  const tokens = parsePointer(pointer);
  const last = tokens[tokens.length - 1];
  const parent = last === undefined ? undefined : parentOf(doc, tokens);
  if (parent === undefined || last === undefined) throw new OpFailure(missing);
  return { parent, tokens: concretePath(doc, tokens), last };
}

function valueAt(doc: JsonValue, pointer: string): JsonValue | undefined {
  let node: JsonValue | undefined = doc;
  for (const token of parsePointer(pointer)) node = childOf(node, token);
  return node;
}

interface PatchState {
  doc: JsonValue;
  copied: number;
}

function field(op: JsonObject, name: string, opName: string): string {
  const value = ownValue(op, name);
  if (typeof value !== 'string') throw new OpFailure(`${opName} operation missing ${name} field`);
  return value;
}

function opValue(op: JsonObject): JsonValue {
  if (!Object.hasOwn(op, 'value')) throw new OpFailure('missing value');
  return ownValue(op, 'value') ?? null;
}

/** Runs one already-validated operation through fast-json-patch on a concrete own path. */
function run(state: PatchState, operation: Operation): void {
  const result = jsonpatch.applyOperation<JsonValue>(state.doc, operation, false, true, true);
  state.doc = result.newDocument;
}

function add(state: PatchState, pointer: string, value: JsonValue, op: string): void {
  if (pointer === '') {
    state.doc = value;
    return;
  }
  const target = resolveTarget(
    state.doc,
    pointer,
    `${op} operation does not apply: doc is missing path: ${JSON.stringify(pointer)}: missing value`,
  );
  const tokens = [...target.tokens];
  if (Array.isArray(target.parent) && target.last !== '-')
    tokens[tokens.length - 1] = String(arrayIndex(target.last, target.parent.length + 1));
  run(state, { op: 'add', path: formatPointer(tokens), value });
}

function remove(state: PatchState, pointer: string, op: string): JsonValue {
  const target = resolveTarget(
    state.doc,
    pointer,
    `${op} operation does not apply: doc is missing path: ${JSON.stringify(pointer)}: missing value`,
  );
  const tokens = [...target.tokens];
  let old: JsonValue | undefined;
  if (Array.isArray(target.parent)) {
    const index = arrayIndex(target.last, target.parent.length);
    tokens[tokens.length - 1] = String(index);
    old = target.parent[index];
  } else {
    old = ownValue(target.parent, target.last);
    if (old === undefined) throw new OpFailure(`Unable to remove nonexistent key: ${target.last}: missing value`);
  }
  run(state, { op: 'remove', path: formatPointer(tokens) });
  return old ?? null;
}

function replace(state: PatchState, pointer: string, value: JsonValue): void {
  if (pointer === '') {
    state.doc = value;
    return;
  }
  const missing = `replace operation does not apply: doc is missing key: ${pointer}: missing value`;
  const target = resolveTarget(state.doc, pointer, missing);
  const tokens = [...target.tokens];
  if (Array.isArray(target.parent)) tokens[tokens.length - 1] = String(arrayIndex(target.last, target.parent.length));
  else if (!Object.hasOwn(target.parent, target.last)) throw new OpFailure(missing);
  run(state, { op: 'replace', path: formatPointer(tokens), value });
}

/** evanphx measures a copy by the JSON it marshals; here the size is measured before anything is copied. */
function chargeCopy(state: PatchState, value: JsonValue): void {
  state.copied += Buffer.byteLength(JSON.stringify(value), 'utf8');
  if (state.copied > MAX_JSON_PATCH_COPY_BYTES) {
    throw new OpFailure(
      `Unable to complete the copy, the accumulated size increase of copy is ${state.copied}, exceeding the limit ${MAX_JSON_PATCH_COPY_BYTES}`,
    );
  }
}

/** evanphx v4's test: a missing value equals only a null or absent expected value. */
function test(state: PatchState, op: JsonObject): void {
  const path = field(op, 'path', 'test');
  const actual = valueAt(state.doc, path);
  const expected = ownValue(op, 'value');
  const equal =
    actual === undefined || actual === null
      ? expected === null || expected === undefined
      : deepEqual(actual, expected ?? null);
  if (!equal) throw new OpFailure(`testing value ${path} failed: test failed`);
}

function applyOp(state: PatchState, op: JsonObject): void {
  const kind = ownValue(op, 'op');
  switch (kind) {
    case 'add':
      return add(state, field(op, 'path', 'add'), opValue(op), 'add');
    case 'remove':
      remove(state, field(op, 'path', 'remove'), 'remove');
      return;
    case 'replace':
      return replace(state, field(op, 'path', 'replace'), opValue(op));
    case 'move': {
      const from = field(op, 'from', 'move');
      const path = field(op, 'path', 'move');
      if (valueAt(state.doc, from) === undefined)
        throw new OpFailure(`move operation does not apply: doc is missing from path: ${from}: missing value`);
      return add(state, path, remove(state, from, 'move'), 'move');
    }
    case 'copy': {
      const from = field(op, 'from', 'copy');
      const path = field(op, 'path', 'copy');
      const value = valueAt(state.doc, from);
      if (value === undefined)
        throw new OpFailure(`copy operation does not apply: doc is missing from path: ${from}: missing value`);
      // A copy into its own subtree doubles the depth with each operation, long before the copy budget runs out:
      // refuse one that would end too deep before anything recursive (stringify, clone) walks it.
      if (path.split('/').length - 1 + nestingDepth(value) > MAX_NESTING_DEPTH)
        throw new OpFailure(`exceeded max depth of ${MAX_NESTING_DEPTH}`);
      chargeCopy(state, value);
      return add(state, path, cloneJson(value), 'copy');
    }
    case 'test':
      return test(state, op);
    default:
      throw new OpFailure(`Unexpected kind: ${String(kind)}`);
  }
}

export function applyJsonPatch(document: JsonValue, patch: JsonValue): Result<JsonValue, PatchError> {
  if (!Array.isArray(patch) || !patch.every(isJsonObject)) {
    const shown = Array.isArray(patch) ? 'array element' : isJsonObject(patch) ? 'object' : typeof patch;
    return err(patchBadRequest(`json: cannot unmarshal ${shown} into Go value of type jsonpatch.Patch`));
  }
  if (patch.length > MAX_JSON_PATCH_OPERATIONS) {
    return err(
      patchTooLarge(
        `The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${patch.length}`,
      ),
    );
  }
  // Operation values are inserted as they are, so the caller's patch must not end up aliased in the result.
  const state: PatchState = { doc: cloneJson(document), copied: 0 };
  try {
    for (const op of patch) if (isJsonObject(op)) applyOp(state, cloneJson(op));
  } catch (e) {
    if (e instanceof OpFailure) return err(patchUnprocessable(e.message));
    // fast-json-patch's own refusals (prototype paths) are bad operations, never server faults.
    if (e instanceof Error && e.name === 'TypeError' && /JSON-Patch/.test(e.message))
      return err(patchUnprocessable(e.message));
    if (e instanceof jsonpatch.JsonPatchError) return err(patchUnprocessable(e.message));
    throw e;
  }
  // Moves and adds can still deepen the result a little: as kube-apiserver answers a patched object it cannot
  // decode (patch.go: field.Invalid(field.NewPath("patch"), …)), a result too deep is 422, not 400.
  if (nestingDepth(state.doc) > MAX_NESTING_DEPTH)
    return err(patchUnprocessable(`exceeded max depth of ${MAX_NESTING_DEPTH}`));
  return ok(state.doc);
}
