// RFC 6902 JSON Patch as kube-apiserver applies it: with evanphx/json-patch v4 (gopkg.in/evanphx/json-patch.v4,
// patch.go), whose semantics differ from the RFC in ways clients can see, so they are hand-written here:
// - a replace of a missing object key adds it (partialDoc.get never fails), a copy or move from a missing
//   key copies null or fails in remove, an add without a value adds null;
// - negative array indices count from the end (SupportNegativeIndices, kept by Kubernetes);
// - the root path "" is no container for add, remove, move or copy (findObject), only replace and test take it;
// - the operation cap and the accumulated copy size cap kube-apiserver sets (patch.go, server/config.go).
// Keys are read and written as own data only (Go maps have no prototype), so "__proto__" and "constructor"
// are just missing keys. Messages are evanphx's; kube-apiserver hides them behind a generic 422
// (see operations/patch.ts) but they say what failed.
import type { JsonObject, JsonValue } from '../json.js';
import { MAX_NESTING_DEPTH, cloneJson, deepEqual, isJsonObject, nestingDepth, ownValue, setOwn } from '../json.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { PatchError } from './patch-error.js';
import { patchBadRequest, patchTooLarge, patchUndecodable, patchUnprocessable } from './patch-error.js';

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

/** The RFC 6901 decoding of one reference token (evanphx decodePatchKey: one pass, ~1 then ~0). */
function decodeKey(token: string): string {
  return token.replace(/~[01]/g, (m) => (m === '~1' ? '/' : '~'));
}

const INT64_MAX = 2n ** 63n - 1n;

/** Go's strconv.Atoi: an optional sign and decimal digits within int64; its error text otherwise. */
function atoi(token: string): Result<number, string> {
  if (!/^[+-]?\d+$/.test(token)) return err(`strconv.Atoi: parsing ${JSON.stringify(token)}: invalid syntax`);
  const big = BigInt(token);
  if (big > INT64_MAX || big < -INT64_MAX - 1n)
    return err(`strconv.Atoi: parsing ${JSON.stringify(token)}: value out of range`);
  return ok(Number(big));
}

function invalidIndex(index: number): OpFailure {
  return new OpFailure(`Unable to access invalid index: ${index}: invalid index referenced`);
}

/** A container and the key of the pointer's last token in it (evanphx findObject). */
type Target = { kind: 'object'; node: JsonObject; key: string } | { kind: 'array'; node: JsonValue[]; key: string };

/** partialArray.get's index rule: negative counts from the end; undefined-safe. */
function arrayIndex(node: JsonValue[], key: string): number {
  const parsed = atoi(key);
  if (!parsed.ok) throw new OpFailure(parsed.error);
  let index = parsed.value;
  if (index < 0) {
    if (index < -node.length) throw invalidIndex(index);
    index += node.length;
  }
  if (index >= node.length) throw invalidIndex(index);
  return index;
}

/** A child by one decoded token, or undefined where evanphx finds no (non-null) node. */
function child(node: JsonValue, token: string): JsonValue | undefined {
  if (Array.isArray(node)) {
    const parsed = atoi(token);
    if (!parsed.ok) return undefined;
    const index = parsed.value < 0 ? parsed.value + node.length : parsed.value;
    return index < 0 || index >= node.length ? undefined : node[index];
  }
  return isJsonObject(node) ? ownValue(node, token) : undefined;
}

function findObject(doc: JsonValue, path: string): Target | undefined {
  const split = path.split('/');
  if (split.length < 2) return undefined;
  let node: JsonValue | undefined = doc;
  for (const part of split.slice(1, -1)) {
    node = node === undefined ? undefined : child(node, decodeKey(part));
    // A null value is no container either (lazyNode.raw == nil).
    if (node === undefined || node === null || typeof node !== 'object') return undefined;
  }
  const key = decodeKey(split[split.length - 1] ?? '');
  if (Array.isArray(node)) return { kind: 'array', node, key };
  return isJsonObject(node) ? { kind: 'object', node, key } : undefined;
}

/** container.get: an object's missing key is undefined (no error); an array's bad index throws. */
function get(target: Target): JsonValue | undefined {
  if (target.kind === 'object') return ownValue(target.node, target.key);
  return target.node[arrayIndex(target.node, target.key)];
}

function addTo(target: Target, value: JsonValue): void {
  if (target.kind === 'object') return setOwn(target.node, target.key, value);
  if (target.key === '-') {
    target.node.push(value);
    return;
  }
  const parsed = atoi(target.key);
  if (!parsed.ok) throw new OpFailure(`value was not a proper array index: '${target.key}': ${parsed.error}`);
  const size = target.node.length + 1;
  let index = parsed.value;
  if (index >= size || index < -size) throw invalidIndex(index);
  if (index < 0) index += size;
  target.node.splice(index, 0, value);
}

function removeFrom(target: Target): void {
  if (target.kind === 'object') {
    if (!Object.hasOwn(target.node, target.key))
      throw new OpFailure(`Unable to remove nonexistent key: ${target.key}: missing value`);
    delete target.node[target.key];
    return;
  }
  const parsed = atoi(target.key);
  if (!parsed.ok) throw new OpFailure(parsed.error);
  let index = parsed.value;
  if (index >= target.node.length || index < -target.node.length) throw invalidIndex(index);
  if (index < 0) index += target.node.length;
  target.node.splice(index, 1);
}

/** Runs `step`, prefixing its evanphx failure as the operation does ("error in add for path: '…': …"). */
function wrapped<T>(prefix: string, step: () => T): T {
  try {
    return step();
  } catch (e) {
    if (e instanceof OpFailure) throw new OpFailure(`${prefix}: ${e.message}`);
    throw e;
  }
}

/** The JSON kind Go's decoder names in an UnmarshalTypeError. */
export function goKindName(value: JsonValue): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  return typeof value === 'object' ? 'object' : typeof value;
}

/** Operation.Path/From: a missing or null field is ErrMissing; a non-string one fails to decode. */
function stringField(op: JsonObject, name: 'path' | 'from'): Result<string, string> {
  const value = ownValue(op, name);
  if (value === undefined || value === null)
    return err(
      name === 'path' ? 'operation missing path field: missing value' : 'operation, missing from field: missing value',
    );
  if (typeof value !== 'string') return err(`json: cannot unmarshal ${goKindName(value)} into Go value of type string`);
  return ok(value);
}

/** Operation.value(): an absent value is a nil node, which marshals as null. */
function opValue(op: JsonObject): JsonValue | undefined {
  return ownValue(op, 'value');
}

interface PatchState {
  doc: JsonValue;
  copied: number;
}

function add(state: PatchState, op: JsonObject): void {
  const path = stringField(op, 'path');
  if (!path.ok) throw new OpFailure('add operation failed to decode path: missing value');
  const target = findObject(state.doc, path.value);
  if (target === undefined)
    throw new OpFailure(`add operation does not apply: doc is missing path: "${path.value}": missing value`);
  wrapped(`error in add for path: '${path.value}'`, () => addTo(target, opValue(op) ?? null));
}

function remove(state: PatchState, op: JsonObject): void {
  const path = stringField(op, 'path');
  if (!path.ok) throw new OpFailure('remove operation failed to decode path: missing value');
  const target = findObject(state.doc, path.value);
  if (target === undefined)
    throw new OpFailure(`remove operation does not apply: doc is missing path: "${path.value}": missing value`);
  wrapped(`error in remove for path: '${path.value}'`, () => removeFrom(target));
}

function replace(state: PatchState, op: JsonObject): void {
  const path = stringField(op, 'path');
  if (!path.ok) throw new OpFailure(`replace operation failed to decode path: ${path.error}`);
  const value = opValue(op) ?? null;
  if (path.value === '') {
    // Go formats the nil error it wraps here as %!w(<nil>).
    if (typeof value !== 'object' || value === null)
      throw new OpFailure('replace operation value must be object or array: %!w(<nil>)');
    state.doc = value;
    return;
  }
  const target = findObject(state.doc, path.value);
  if (target === undefined)
    throw new OpFailure(`replace operation does not apply: doc is missing path: ${path.value}: missing value`);
  if (target.kind === 'object') return setOwn(target.node, target.key, value);
  let index: number;
  try {
    index = arrayIndex(target.node, target.key);
  } catch {
    throw new OpFailure(`replace operation does not apply: doc is missing key: ${path.value}: missing value`);
  }
  target.node[index] = value;
}

function move(state: PatchState, op: JsonObject): void {
  const from = stringField(op, 'from');
  if (!from.ok) throw new OpFailure(`move operation failed to decode from: ${from.error}`);
  const source = findObject(state.doc, from.value);
  if (source === undefined)
    throw new OpFailure(`move operation does not apply: doc is missing from path: ${from.value}: missing value`);
  const value = wrapped(`error in move for path: '${source.key}'`, () => get(source));
  wrapped(`error in move for path: '${source.key}'`, () => removeFrom(source));
  const path = stringField(op, 'path');
  if (!path.ok) throw new OpFailure(`move operation failed to decode path: ${path.error}`);
  const target = findObject(state.doc, path.value);
  if (target === undefined)
    throw new OpFailure(`move operation does not apply: doc is missing destination path: ${path.value}: missing value`);
  wrapped(`error in move for path: '${path.value}'`, () => addTo(target, value ?? null));
}

/** evanphx measures a copy by the JSON it marshals; here the size is measured before anything is copied. */
function chargeCopy(state: PatchState, value: JsonValue | undefined): void {
  state.copied += value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value), 'utf8');
  if (state.copied > MAX_JSON_PATCH_COPY_BYTES) {
    throw new OpFailure(
      `Unable to complete the copy, the accumulated size increase of copy is ${state.copied}, exceeding the limit ${MAX_JSON_PATCH_COPY_BYTES}`,
    );
  }
}

function copy(state: PatchState, op: JsonObject): void {
  const from = stringField(op, 'from');
  if (!from.ok) throw new OpFailure(`copy operation failed to decode from: ${from.error}`);
  const source = findObject(state.doc, from.value);
  if (source === undefined)
    throw new OpFailure(`copy operation does not apply: doc is missing from path: ${from.value}: missing value`);
  const value = wrapped(`error in copy for from: '${from.value}'`, () => get(source));
  const path = stringField(op, 'path');
  if (!path.ok) throw new OpFailure('copy operation failed to decode path: missing value');
  const target = findObject(state.doc, path.value);
  if (target === undefined)
    throw new OpFailure(`copy operation does not apply: doc is missing destination path: ${path.value}: missing value`);
  // A copy into its own subtree doubles the depth with each operation, long before the copy budget runs out:
  // refuse one that would end too deep before anything recursive (stringify, clone) walks it. (This server's
  // guard: Go's recursion has no such limit to hit.)
  if (value !== undefined && path.value.split('/').length - 1 + nestingDepth(value) > MAX_NESTING_DEPTH)
    throw new OpFailure(`exceeded max depth of ${MAX_NESTING_DEPTH}`);
  chargeCopy(state, value);
  const duplicate = value === undefined ? null : cloneJson(value);
  wrapped('error while adding value during copy', () => addTo(target, duplicate));
}

/** evanphx v4's test: a missing (or null) value equals only a null or absent expected value. */
function test(state: PatchState, op: JsonObject): void {
  const path = stringField(op, 'path');
  if (!path.ok) throw new OpFailure(`test operation failed to decode path: ${path.error}`);
  const expected = opValue(op);
  const failed = new OpFailure(`testing value ${path.value} failed: test failed`);
  if (path.value === '') {
    if (!deepEqual(state.doc, expected ?? null)) throw failed;
    return;
  }
  const target = findObject(state.doc, path.value);
  if (target === undefined)
    throw new OpFailure(`test operation does not apply: is missing path: ${path.value}: missing value`);
  const actual = wrapped(`error in test for path: '${path.value}'`, () => get(target));
  if (actual === undefined || actual === null) {
    if (expected === undefined || expected === null) return;
    throw failed;
  }
  if (expected === undefined || !deepEqual(actual, expected)) throw failed;
}

/** Operation.Kind: a missing or non-string op is "unknown". */
function kindOf(op: JsonObject): string {
  const kind = ownValue(op, 'op');
  return typeof kind === 'string' ? kind : 'unknown';
}

function applyOp(state: PatchState, op: JsonObject): void {
  const kind = kindOf(op);
  switch (kind) {
    case 'add':
      return add(state, op);
    case 'remove':
      return remove(state, op);
    case 'replace':
      return replace(state, op);
    case 'move':
      return move(state, op);
    case 'copy':
      return copy(state, op);
    case 'test':
      return test(state, op);
    default:
      throw new OpFailure(`Unexpected kind: ${kind}`);
  }
}

/** DecodePatch: json.Unmarshal into []map[string]*json.RawMessage (a null element is an empty operation). */
function decodePatch(patch: JsonValue): Result<JsonObject[], string> {
  if (patch === null) return ok([]);
  if (!Array.isArray(patch))
    return err(`json: cannot unmarshal ${goKindName(patch)} into Go value of type jsonpatch.Patch`);
  const ops: JsonObject[] = [];
  for (const op of patch) {
    if (op === null) ops.push({});
    else if (isJsonObject(op)) ops.push(op);
    else return err(`json: cannot unmarshal ${goKindName(op)} into Go value of type jsonpatch.Operation`);
  }
  return ok(ops);
}

export function applyJsonPatch(document: JsonValue, patch: JsonValue): Result<JsonValue, PatchError> {
  const decoded = decodePatch(patch);
  if (!decoded.ok) return err(patchBadRequest(decoded.error));
  const ops = decoded.value;
  if (ops.length > MAX_JSON_PATCH_OPERATIONS) {
    return err(
      patchTooLarge(
        `The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${ops.length}`,
      ),
    );
  }
  // Operation values are inserted as they are, so the caller's patch must not end up aliased in the result.
  const state: PatchState = { doc: cloneJson(document), copied: 0 };
  try {
    for (const op of ops) applyOp(state, cloneJson(op));
  } catch (e) {
    if (e instanceof OpFailure) return err(patchUnprocessable(e.message));
    throw e;
  }
  // Moves and adds can still deepen the result a little: as kube-apiserver answers a patched object it cannot
  // decode (patch.go: field.Invalid(field.NewPath("patch"), …)), a result too deep is 422, not 400.
  if (nestingDepth(state.doc) > MAX_NESTING_DEPTH)
    return err(patchUndecodable(`exceeded max depth of ${MAX_NESTING_DEPTH}`));
  return ok(state.doc);
}
