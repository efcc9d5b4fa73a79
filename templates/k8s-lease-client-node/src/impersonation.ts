// A kubeconfig user's `as`, `as-uid`, `as-groups` and `as-user-extra` as the Impersonate-* request headers.
// Hand-written: it encodes client-go's transport/round_trippers.go (impersonatingRoundTripper, headerKeyEscape)
// and tools/clientcmd/validation.go (validateAuthInfo's impersonation rule).
import type { Dispatcher } from 'undici';
import { KubeconfigError } from './errors.js';
import type { KubeconfigUser } from './kubeconfig.js';

/** Header name → one value or several lines (Impersonate-Group, Impersonate-Extra-* repeat). Names lower-case. */
export type ImpersonationHeaders = ReadonlyMap<string, string | readonly string[]>;

/**
 * The headers of the user's impersonation settings, undefined when there are none. As validateAuthInfo: uid,
 * groups or extra without `as` is an error ("requesting uid, groups or user-extra for <user> without impersonating
 * a user").
 */
export function impersonationHeaders(
  user: KubeconfigUser,
  userName: string,
  at: string,
): ImpersonationHeaders | undefined {
  const groups = user.impersonateGroups ?? [];
  const extra = user.impersonateUserExtra ?? new Map<string, string[]>();
  const wantsMore = user.impersonateUid !== undefined || groups.length > 0 || extra.size > 0;
  if (user.impersonate === undefined) {
    if (wantsMore)
      throw new KubeconfigError(
        `${at}: requesting uid, groups or user-extra for ${userName} without impersonating a user`,
        user.origin,
      );
    return undefined;
  }
  const headers = new Map<string, string | readonly string[]>([['impersonate-user', wire(user.impersonate)]]);
  if (user.impersonateUid !== undefined) headers.set('impersonate-uid', wire(user.impersonateUid));
  if (groups.length > 0) headers.set('impersonate-group', groups.map(wire));
  for (const [key, values] of extra) {
    if (values.length === 0) continue;
    const name = `impersonate-extra-${headerKeyEscape(key)}`.toLowerCase();
    const previous = headers.get(name);
    // Two keys differing only in case land on one (case-insensitive) header, as Go's Header.Add canonicalises them.
    headers.set(name, [
      ...(previous === undefined ? [] : typeof previous === 'string' ? [previous] : previous),
      ...values.map(wire),
    ]);
  }
  return headers;
}

/**
 * A value as the bytes Go writes (UTF-8), one char per byte: undici writes header strings as Latin-1, which would
 * send "ä" as the single byte E4 and refuse anything past U+00FF.
 */
function wire(value: string): string {
  return Buffer.from(value, 'utf8').toString('latin1');
}

/** RFC 7230 token characters (net/http's isTokenTable), which client-go leaves unescaped, '%' excepted. */
const TOKEN_BYTE = /^[!#$&'*+\-.^_`|~0-9A-Za-z]$/;

/**
 * client-go's headerKeyEscape: every byte of the UTF-8 key that is not a token character, and '%', becomes %XX
 * (upper-case hex), so the API server's url.PathUnescape gives the key back.
 */
export function headerKeyEscape(key: string): string {
  let out = '';
  for (const byte of Buffer.from(key, 'utf8')) {
    const char = String.fromCharCode(byte);
    out += byte < 0x80 && TOKEN_BYTE.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

type DispatchHeaders = Dispatcher.DispatchOptions['headers'];

/**
 * An undici interceptor adding the headers to every request that does not already carry Impersonate-User (client-go
 * uses it as the marker for the rest). At the dispatcher rather than in fetch: fetch's Headers would join a repeated
 * Impersonate-Group into one "a, b" line, which the API server reads as one group named "a, b".
 */
export function impersonationInterceptor(headers: ImpersonationHeaders): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (options, handler) => {
    const pairs = headerPairs(options.headers);
    if (pairs.some(([name]) => name.toLowerCase() === 'impersonate-user')) return dispatch(options, handler);
    const out: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
    for (const [name, value] of pairs) {
      const previous = out[name];
      out[name] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
    }
    for (const [name, value] of headers) out[name] = typeof value === 'string' ? value : [...value];
    return dispatch({ ...options, headers: out }, handler);
  };
}

/** undici accepts headers as a record, a flat [name, value, …] array or an iterable of pairs. */
function headerPairs(headers: DispatchHeaders): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  if (headers === undefined || headers === null) return pairs;
  const add = (name: unknown, value: unknown): void => {
    if (Array.isArray(value)) for (const item of value) pairs.push([String(name), String(item)]);
    else if (value !== undefined) pairs.push([String(name), String(value)]);
  };
  if (Array.isArray(headers)) {
    const flat: unknown[] = headers;
    if (flat.every((item) => Array.isArray(item))) for (const item of flat as unknown[][]) add(item[0], item[1]);
    else for (let i = 0; i + 1 < flat.length; i += 2) add(flat[i], flat[i + 1]);
  } else if (Symbol.iterator in headers) {
    for (const [name, value] of headers as Iterable<[string, string | string[] | undefined]>) add(name, value);
  } else {
    for (const [name, value] of Object.entries(headers)) add(name, value);
  }
  return pairs;
}
