// RFC 7386 JSON Merge Patch.
import type { JsonObject, JsonValue } from '../json.js';
import { cloneJson, isJsonObject } from '../json.js';

export function applyMergePatch(target: JsonValue | undefined, patch: JsonValue): JsonValue {
  if (!isJsonObject(patch)) return cloneJson(patch);
  const out: JsonObject = target !== undefined && isJsonObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = applyMergePatch(out[key], value);
  }
  return out;
}
