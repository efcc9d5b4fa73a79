// JSON value types and the few structural helpers every module needs.
/** A JSON scalar. */
export type JsonPrimitive = string | number | boolean | null;
/** Any JSON value, as `JSON.parse` returns it. */
export type JsonValue = JsonPrimitive | JsonValue[] | JsonObject;
/** A JSON object, e.g. a `Status` body from `statusObject`. */
export type JsonObject = { [key: string]: JsonValue };

export function isJsonObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function objectAt(obj: JsonObject, key: string): JsonObject | undefined {
  const value = obj[key];
  return isJsonObject(value) ? value : undefined;
}

export function stringAt(obj: JsonObject | undefined, key: string): string | undefined {
  const value = obj?.[key];
  return typeof value === 'string' ? value : undefined;
}

export function numberAt(obj: JsonObject | undefined, key: string): number | undefined {
  const value = obj?.[key];
  return typeof value === 'number' ? value : undefined;
}

export function stringMapAt(obj: JsonObject | undefined, key: string): Record<string, string> {
  const value = obj?.[key];
  const out: Record<string, string> = {};
  if (!isJsonObject(value)) return out;
  for (const [k, v] of Object.entries(value)) if (typeof v === 'string') out[k] = v;
  return out;
}

export function cloneJson<T extends JsonValue>(value: T): T {
  return structuredClone(value);
}

export function deepEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === null || b === null) return false;
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => deepEqual(item, b[i]));
  }
  if (Array.isArray(b)) return false;
  const aKeys = Object.keys(a);
  if (aKeys.length !== Object.keys(b).length) return false;
  return aKeys.every((key) => Object.hasOwn(b, key) && deepEqual(a[key], b[key]));
}

/** Narrows JSON.parse output (typed `any` by lib.d.ts) to the JSON value type. */
export function parseJson(text: string): JsonValue {
  const parsed: unknown = JSON.parse(text);
  return parsed as JsonValue;
}

/**
 * The deepest nesting any body, patch or patched document may have. Go's encoding/json (and so
 * kube-apiserver) stops at 10000 with "exceeded max depth"; this server's merge, decode and
 * ownership code recurses once per level, and 10000 levels overflow Node's default stack, so the
 * limit sits at 1000: far above any Lease (its deepest field is ~6 levels) and far below the stack.
 */
export const MAX_NESTING_DEPTH = 1000;

/**
 * Sets an own data property. Plain assignment of "__proto__" would call Object.prototype's setter and
 * replace the object's prototype; Go (and so kube-apiserver) sees that key as ordinary data.
 */
export function setOwn(obj: JsonObject, key: string, value: JsonValue): void {
  if (key === '__proto__')
    Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  else obj[key] = value;
}

/** Reads an own property only, so "constructor" or "__proto__" never reach Object.prototype. */
export function ownValue(obj: JsonObject, key: string): JsonValue | undefined {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/** Nesting depth of a value (a scalar is 0), walked without recursion so any input is safe to measure. */
export function nestingDepth(value: JsonValue): number {
  let deepest = 0;
  const stack: [JsonValue, number][] = [[value, 0]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [node, depth] = top;
    if (typeof node !== 'object' || node === null) continue;
    const level = depth + 1;
    if (level > deepest) deepest = level;
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, level]);
  }
  return deepest;
}
