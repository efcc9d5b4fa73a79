// RFC 7386 JSON Merge Patch. Keys are read and written as own data only (Go maps have no prototype),
// so "__proto__" or "constructor" in a patch are ordinary (unknown) fields. Recursion follows the
// patch's nesting, which the body parser bounds (MAX_NESTING_DEPTH).
import type { JsonObject, JsonValue } from '../json.js';
import { cloneJson, isJsonObject, ownValue, setOwn } from '../json.js';

export function applyMergePatch(target: JsonValue | undefined, patch: JsonValue): JsonValue {
  if (!isJsonObject(patch)) return cloneJson(patch);
  const out: JsonObject = target !== undefined && isJsonObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else setOwn(out, key, applyMergePatch(ownValue(out, key), value));
  }
  return out;
}
