// Keeps secrets out of everything that turns a config into text: util.inspect, JSON.stringify, String().

const INSPECT = Symbol.for('nodejs.util.inspect.custom');
export const REDACTED = '[REDACTED]';

/** Keys whose values are credentials wherever they appear (compared case-insensitively). */
const SECRET_KEYS: ReadonlySet<string> = new Set(['token', 'password', 'clientkeydata', 'key', 'authorization', 'value']);

/** A copy of `value` with credentials replaced; functions (token providers, fetch) become a marker. */
export function redactedCopy(value: unknown, seen: WeakSet<object> = new WeakSet()): unknown {
  if (typeof value === 'function') return '[Function]';
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[Circular]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => redactedCopy(item, seen));
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [String(k), redactedCopy(v, seen)]));
  // A null prototype, so a `__proto__` name from a kubeconfig stays a plain key.
  const out: Record<string, unknown> = Object.create(null);
  for (const [key, item] of Object.entries(value)) {
    out[key] = SECRET_KEYS.has(key.toLowerCase()) && item !== undefined && item !== '' ? REDACTED : redactedCopy(item, seen);
  }
  return out;
}

/**
 * Gives `target` non-enumerable inspect/toJSON/toString that show the redacted copy. Non-enumerable,
 * so spreading the object (as createClient does with its options) copies only the data.
 */
export function redactable<T extends object>(target: T): T {
  const view = (): unknown => redactedCopy({ ...target });
  Object.defineProperties(target, {
    [INSPECT]: { value: view, enumerable: false },
    toJSON: { value: view, enumerable: false },
    toString: { value: (): string => JSON.stringify(view()), enumerable: false },
  });
  return target;
}
