// Strategic merge patch for Lease: a merge patch where metadata.ownerReferences merge by uid and
// metadata.finalizers merge as a set, honouring the $patch, $retainKeys and $deleteFromPrimitiveList directives.
import type { JsonObject, JsonValue } from '../json.js';
import { cloneJson, deepEqual, isJsonObject, ownValue, setOwn } from '../json.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import { FINALIZERS_PATH, OWNER_MERGE_KEY, OWNER_REFERENCES_PATH, childPath } from './list-strategies.js';
import type { PatchError } from './patch-error.js';
import { patchBadRequest } from './patch-error.js';

class DirectiveFailure {
  constructor(readonly message: string) {}
}

const DELETE_FROM_PRIMITIVE = '$deleteFromPrimitiveList/';
const SET_ELEMENT_ORDER = '$setElementOrder/';

function stripObject(value: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [key, child] of Object.entries(value)) {
    if (!key.startsWith('$')) setOwn(out, key, stripDirectives(child));
  }
  return out;
}

function stripDirectives(value: JsonValue): JsonValue {
  if (Array.isArray(value))
    return value.filter((item) => !(isJsonObject(item) && item['$patch'] !== undefined)).map(stripDirectives);
  return isJsonObject(value) ? stripObject(value) : value;
}

function mergeOwnerReferences(original: JsonValue | undefined, patch: JsonValue[]): JsonValue[] {
  if (patch.some((item) => isJsonObject(item) && item['$patch'] === 'replace')) {
    return patch.filter((item) => !(isJsonObject(item) && item['$patch'] === 'replace')).map(stripDirectives);
  }
  const out: JsonValue[] = Array.isArray(original) ? [...original] : [];
  for (const item of patch) {
    if (!isJsonObject(item)) throw new DirectiveFailure('ownerReferences items must be objects');
    const key = item[OWNER_MERGE_KEY];
    const index = out.findIndex((o) => isJsonObject(o) && o[OWNER_MERGE_KEY] === key);
    if (item['$patch'] === 'delete') {
      if (index >= 0) out.splice(index, 1);
      continue;
    }
    const existing = index >= 0 ? out[index] : undefined;
    const merged = mergeObject(existing !== undefined && isJsonObject(existing) ? existing : {}, item, '');
    if (index >= 0) out[index] = merged;
    else out.push(merged);
  }
  return out;
}

function mergeFinalizers(original: JsonValue | undefined, patch: JsonValue[]): JsonValue[] {
  const out: JsonValue[] = Array.isArray(original) ? [...original] : [];
  for (const item of patch) if (!out.some((o) => deepEqual(o, item))) out.push(item);
  return out;
}

function mergeValue(original: JsonValue | undefined, patch: JsonValue, path: string): JsonValue | undefined {
  if (Array.isArray(patch)) {
    if (path === OWNER_REFERENCES_PATH) return mergeOwnerReferences(original, patch);
    if (path === FINALIZERS_PATH) return mergeFinalizers(original, patch);
    return stripDirectives(patch);
  }
  if (isJsonObject(patch)) {
    const base = original !== undefined && isJsonObject(original) ? original : {};
    return mergeObject(base, patch, path);
  }
  return patch;
}

function mergeObject(original: JsonObject, patch: JsonObject, path: string): JsonObject {
  const directive = ownValue(patch, '$patch');
  if (directive === 'replace') return stripObject(patch);
  if (directive !== undefined && directive !== 'merge')
    throw new DirectiveFailure(`Unknown patch type: ${String(directive)} in map: ${JSON.stringify(patch)}`);
  let out: JsonObject = { ...original };
  const retain = ownValue(patch, '$retainKeys');
  if (Array.isArray(retain)) {
    const keep = new Set(retain.filter((k): k is string => typeof k === 'string'));
    out = Object.fromEntries(Object.entries(out).filter(([k]) => keep.has(k)));
  }
  for (const [key, value] of Object.entries(patch)) {
    if (key.startsWith(DELETE_FROM_PRIMITIVE)) {
      const target = key.slice(DELETE_FROM_PRIMITIVE.length);
      const current = ownValue(out, target);
      if (Array.isArray(current) && Array.isArray(value))
        setOwn(
          out,
          target,
          current.filter((item) => !value.some((v) => deepEqual(v, item))),
        );
      continue;
    }
    if (key.startsWith('$') || key.startsWith(SET_ELEMENT_ORDER)) continue;
    if (value === null) {
      delete out[key];
      continue;
    }
    if (isJsonObject(value) && ownValue(value, '$patch') === 'delete') {
      delete out[key];
      continue;
    }
    const merged = mergeValue(ownValue(out, key), value, childPath(path, key));
    if (merged === undefined) delete out[key];
    else setOwn(out, key, merged);
  }
  return out;
}

export function applyStrategicMergePatch(original: JsonObject, patch: JsonValue): Result<JsonObject, PatchError> {
  if (!isJsonObject(patch))
    return err(
      patchBadRequest(
        `json: cannot unmarshal ${Array.isArray(patch) ? 'array' : typeof patch} into Go value of type map[string]interface {}`,
      ),
    );
  try {
    return ok(mergeObject(cloneJson(original), patch, ''));
  } catch (e) {
    if (e instanceof DirectiveFailure) return err(patchBadRequest(e.message));
    throw e;
  }
}
