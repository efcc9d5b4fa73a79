/** Query-string encoding for the hot path of every generated call. */

export type QueryValue = string | number | boolean | undefined | null;

/**
 * `''` when nothing is set, else `'?a=1&b=true'`. Keys keep the order given,
 * so generated code produces stable URLs (useful in logs and test fixtures).
 * Plain string concatenation rather than URLSearchParams: this runs on
 * every request and URLSearchParams costs an object plus a serialisation pass.
 */
export function encodeQuery(params: Readonly<Record<string, QueryValue>> | undefined): string {
  if (params === undefined) return '';
  let out = '';
  for (const key of Object.keys(params)) {
    const value = params[key];
    if (value === undefined || value === null) continue;
    out += `${out === '' ? '?' : '&'}${encodeURIComponent(key)}=${encodeValue(key, value)}`;
  }
  return out;
}

function encodeValue(key: string, value: string | number | boolean): string {
  switch (typeof value) {
    case 'string':
      return encodeURIComponent(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      // Beyond 2^53 String() switches to exponent notation and loses digits; Kubernetes wants plain decimal integers.
      if (!Number.isSafeInteger(value)) {
        throw new TypeError(`Query parameter "${key}" must be a safe integer, got ${String(value)}`);
      }
      return String(value);
    default:
      // Only reachable from untyped callers.
      throw new TypeError(`Query parameter "${key}" has unsupported type ${typeof value}`);
  }
}
