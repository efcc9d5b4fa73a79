/**
 * Paginated LIST (limit/continue) as one async iterable, with an explicit
 * choice of what happens when a continue token expires mid-way.
 */

import { isGone, isKubernetesApiError, UnexpectedResponseError } from '../errors.js';
import { nonEmpty } from './resource-version.js';
import type { QueryValue } from '../query.js';
import { encodeQuery } from '../query.js';
import type { Client } from '../transport.js';

/** The LIST path (e.g. `/apis/coordination.k8s.io/v1/namespaces/ns/leases`) and its selectors. */
export interface WatchTarget {
  /** The collection path, e.g. from the generated `namespacedLeasesPath(namespace)` or `leasesPath`. */
  readonly path: string;
  /** labelSelector, fieldSelector, …; paging and watch parameters are set by the runtime and ignored here. */
  readonly query?: Readonly<Record<string, QueryValue>> | undefined;
}

/** Options of `listAll`: page size, what to do when a continue token expires, and progress callbacks. */
export interface ListAllOptions {
  /** Page size; default 500. `0` sends no limit (one unpaged request). */
  limit?: number | undefined;
  /**
   * What to do when a continue token has expired (410) in the middle of the list:
   * - `'restart'` (default): list again from the first page. The result is a consistent snapshot, but
   *   items already yielded from the abandoned pass are yielded again.
   * - `'continue'`: carry on with the token the 410 Status carries; the rest of the list then comes
   *   from a newer snapshot (objects changed in between may be missing or appear twice), as the
   *   Kubernetes API documents for this token. Falls back to `'restart'` when the Status has no token.
   */
  onExpired?: 'restart' | 'continue' | undefined;
  /** Aborting rejects the iteration with the signal's reason (a list cut short must not look complete). */
  signal?: AbortSignal | undefined;
  /** Called after each page is received, before its items are yielded. */
  onPage?: ((info: { items: number; continue: string | undefined; resourceVersion: string }) => void) | undefined;
  /** Called when a continue token expired, saying which way the list goes on. */
  onExpiredContinue?: ((info: { mode: 'restart' | 'continue'; token?: string }) => void) | undefined;
}

/** The parts of a `*List` response the runtime reads. */
export interface ListResponse<T> {
  /** The list's resourceVersion and, when more pages follow, the `continue` token. */
  metadata?: { resourceVersion?: string; continue?: string; remainingItemCount?: number } | undefined;
  /** The objects of this page. */
  items?: T[] | null | undefined;
}

const DEFAULT_LIMIT = 500;
/** Query keys owned by paging; a caller's values for them would break the protocol. */
const PAGING_KEYS: ReadonlySet<string> = new Set([
  'limit',
  'continue',
  'watch',
  'allowWatchBookmarks',
  'sendInitialEvents',
]);

/**
 * Every item of a (paginated) LIST. Yields page by page as they arrive. On an
 * expired continue token see `ListAllOptions.onExpired`; other errors (and
 * an abort) reject the iteration.
 */
export function listAll<T>(client: Client, target: WatchTarget, options: ListAllOptions = {}): AsyncIterable<T> {
  const limit = pageLimit(options.limit);
  const mode = options.onExpired ?? 'restart';
  if (mode !== 'restart' && mode !== 'continue')
    throw new TypeError(`onExpired must be 'restart' or 'continue', got ${String(mode)}`);
  return {
    [Symbol.asyncIterator]: (): AsyncIterator<T> => runListAll<T>(client, target, options, limit, mode),
  };
}

async function* runListAll<T>(
  client: Client,
  target: WatchTarget,
  options: ListAllOptions,
  limit: number,
  mode: 'restart' | 'continue',
): AsyncGenerator<T, void, undefined> {
  const signal = options.signal;
  let token: string | undefined;
  for (;;) {
    signal?.throwIfAborted();
    let page: ListResponse<T>;
    try {
      page = await fetchListPage<T>(client, target, limit, token, signal);
    } catch (error) {
      if (token === undefined || !isGone(error)) throw error;
      const next = mode === 'continue' ? continueTokenOf(error) : undefined;
      options.onExpiredContinue?.(next === undefined ? { mode: 'restart' } : { mode: 'continue', token: next });
      token = next;
      continue;
    }
    const items = page.items ?? [];
    token = nonEmpty(page.metadata?.continue);
    options.onPage?.({ items: items.length, continue: token, resourceVersion: page.metadata?.resourceVersion ?? '' });
    yield* items;
    if (token === undefined) return;
  }
}

/** One LIST request: the target's query plus `limit` (when > 0) and `continue`. */
export function fetchListPage<T>(
  client: Client,
  target: WatchTarget,
  limit: number,
  token: string | undefined,
  signal: AbortSignal | undefined,
): Promise<ListResponse<T>> {
  const params: Record<string, QueryValue> = {};
  copyQuery(params, target.query, PAGING_KEYS);
  if (token !== undefined) {
    // A continue token already pins the snapshot; the server rejects a resourceVersion alongside it.
    delete params['resourceVersion'];
    delete params['resourceVersionMatch'];
  }
  if (limit > 0) params['limit'] = limit;
  if (token !== undefined) params['continue'] = token;
  const query = encodeQuery(params);
  return client
    .request<unknown>({ method: 'GET', path: target.path, query }, { signal })
    .then((page) => checkList<T>(page, client.baseUrl + target.path + query));
}

/**
 * All items of a consistent LIST (one snapshot, one resourceVersion), for
 * watches and informers. An expired continue token restarts the list once in
 * pages and then falls back to a single unpaged request, which cannot expire.
 */
export async function listConsistent<T>(
  client: Client,
  target: WatchTarget,
  limit: number,
  signal: AbortSignal | undefined,
): Promise<{ items: T[]; resourceVersion: string }> {
  let pageSize = limit;
  for (let pass = 0; ; pass++) {
    const items: T[] = [];
    let resourceVersion = '';
    let token: string | undefined;
    try {
      do {
        const page = await fetchListPage<T>(client, target, pageSize, token, signal);
        if (token === undefined) resourceVersion = page.metadata?.resourceVersion ?? '';
        const pageItems = page.items;
        if (pageItems != null) for (const item of pageItems) items.push(item);
        token = nonEmpty(page.metadata?.continue);
      } while (token !== undefined);
      return { items, resourceVersion };
    } catch (error) {
      if (token === undefined || !isGone(error)) throw error;
      if (pass >= 1) pageSize = 0;
    }
  }
}

export function copyQuery(
  params: Record<string, QueryValue>,
  query: Readonly<Record<string, QueryValue>> | undefined,
  reserved: ReadonlySet<string>,
): void {
  if (query === undefined) return;
  for (const key of Object.keys(query)) {
    if (!reserved.has(key)) params[key] = query[key];
  }
}

export function pageLimit(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_LIMIT;
  if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError(`limit must be an integer >= 0, got ${limit}`);
  return limit;
}

/** The page, or an UnexpectedResponseError naming what came instead of a list. */
function checkList<T>(page: unknown, url: string): ListResponse<T> {
  const received = page === null ? 'null' : Array.isArray(page) ? 'array' : typeof page;
  if (received === 'object') {
    const items: unknown = (page as { items?: unknown }).items;
    if (items == null || Array.isArray(items)) return page as ListResponse<T>;
  }
  throw new UnexpectedResponseError({
    method: 'GET',
    url,
    kind: 'notAList',
    received: received === 'object' ? 'object with non-array items' : received,
  });
}

function continueTokenOf(error: unknown): string | undefined {
  return isKubernetesApiError(error) ? nonEmpty(error.statusObject?.metadata?.continue) : undefined;
}
