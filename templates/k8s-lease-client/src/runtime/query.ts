/** Query-string encoding for the hot path of every generated call. */

export type QueryValue = string | number | boolean | undefined | null;

/**
 * `''` when nothing is set, else `'?a=1&b=true'`. Keys keep the order given,
 * so generated code produces stable URLs (useful in logs and test fixtures).
 * Plain string concatenation rather than URLSearchParams: this runs on
 * every request and URLSearchParams costs an object plus a serialisation pass.
 */
export function encodeQuery(params: Readonly<Record<string, QueryValue>> | undefined): string {
  let out = '';
  for (const key in params) {
    const value = params[key];
    if (value === undefined || value === null) continue;
    // Beyond 2^53 String() switches to exponent notation and loses digits; Kubernetes wants plain decimal integers.
    // Other types are only reachable from untyped callers.
    if (!(Number.isSafeInteger(value) || typeof value === 'string' || typeof value === 'boolean')) {
      throw new TypeError(`Invalid ${key}=${String(value)}: not a string, boolean or safe integer`);
    }
    // encodeURIComponent writes booleans as true/false and safe integers in plain decimal.
    out += `${out ? '&' : '?'}${encodeURIComponent(key)}=${encodeURIComponent(value)}`;
  }
  return out;
}
