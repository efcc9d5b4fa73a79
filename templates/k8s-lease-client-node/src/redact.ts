// Keeps secrets out of everything that turns a config into text: util.inspect, JSON.stringify, String().

const INSPECT = Symbol.for('nodejs.util.inspect.custom');
export const REDACTED = '[REDACTED]';

/**
 * Keys whose values are credentials wherever they appear (compared case-insensitively). An exec stanza's `args` and
 * `env` are redacted whole, as client-go's ExecConfig.String prints `--- REDACTED ---` for both.
 */
const SECRET_KEYS: ReadonlySet<string> = new Set([
  'token',
  'password',
  'clientkeydata',
  'key',
  'authorization',
  'value',
  'args',
  'env',
  // An auth-provider's config is free-form and holds its credentials (id-token, refresh-token, client-secret, access-token).
  'config',
]);

/** Keys holding a URL whose user-info (`http://user:pass@proxy`) or query (`?token=…`) may be a credential. */
const URL_KEYS: ReadonlySet<string> = new Set(['proxyurl', 'proxy-url', 'server', 'baseurl']);

/**
 * The URL with its user-info and its query replaced (`https://h/?token=…` is how some gateways take a credential);
 * text that does not parse as a URL is redacted whole.
 */
export function redactUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return REDACTED;
  }
  if (url.username === '' && url.password === '' && url.search === '') return text;
  const userInfo = url.username !== '' || url.password !== '' ? `${REDACTED}@` : '';
  const query = url.search !== '' ? `?${REDACTED}` : '';
  return `${url.protocol}//${userInfo}${url.host}${url.pathname}${query}`;
}

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
    const name = key.toLowerCase();
    if (SECRET_KEYS.has(name) && item !== undefined && item !== '') out[key] = REDACTED;
    else if (URL_KEYS.has(name) && typeof item === 'string') out[key] = redactUrl(item);
    else out[key] = redactedCopy(item, seen);
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
