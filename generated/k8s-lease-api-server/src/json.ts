// JSON value types and the few structural helpers every module needs.
export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | JsonObject;
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
