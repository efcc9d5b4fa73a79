// Copied by lease-api-generator from templates/runtime/watch/informer.ts. DO NOT EDIT: edit that file and run `npm run generate`.
/**
 * An informer: a local cache of the objects of one LIST path, kept current by
 * `watch()` (list, then watch; reconnect; re-list after 410), with add /
 * update / delete callbacks. After a RESYNC it diffs the new complete state
 * against the cache, so the callbacks describe every change the consumer
 * could not otherwise have seen.
 */

import type { Client } from '../transport.js';
import type { WatchTarget } from './listAll.js';
import { isNewerResourceVersion, keyOf, objectKey } from './resourceVersion.js';
import type { KubeObjectLike } from './resourceVersion.js';
import { watch } from './watch.js';
import type { WatchNotification, WatchOptions, WatchResyncInfo } from './watch.js';

export interface InformerHandlers<T> {
  onAdd?(object: T): void;
  onUpdate?(oldObject: T, newObject: T): void;
  /** Receives the object as the DELETED event carries it (its last state), or the cached one when a RESYNC showed it gone. */
  onDelete?(object: T): void;
  /** After a 410 forced a re-list; called once the diff has been delivered through onAdd/onUpdate/onDelete. */
  onResync?(info: WatchResyncInfo): void;
  /**
   * A non-retriable error stopped the informer (or retries were exhausted); also receives errors
   * thrown by the other handlers, which are caught so that one bad callback cannot stop the cache.
   */
  onError?(error: unknown): void;
}

export interface Informer<T> {
  /**
   * Starts list + watch; resolves once the initial state is in the cache and every onAdd for it
   * was called. Rejects if the informer stops before that (an error, stop(), or the signal). Calling
   * it again returns the same promise.
   */
  start(): Promise<void>;
  /** Stops watching and closes the connection; resolves when nothing is left running. Idempotent. */
  stop(): Promise<void>;
  hasSynced(): boolean;
  /** The cached object; `namespace` undefined or '' for cluster-scoped objects. */
  get(namespace: string | undefined, name: string): T | undefined;
  /** A snapshot of the cache. */
  list(): T[];
  /** The newest resourceVersion seen (events, bookmarks, lists); undefined before the first. */
  readonly lastResourceVersion: string | undefined;
}

/**
 * Creates an informer over `target` (a LIST path plus selectors). `options`
 * are passed to `watch()` (its own `onSynced` and `onResync` are still
 * called); `options.signal` stops the informer like `stop()`. Objects are
 * keyed by `namespace/name`. Disconnects never stop it: only stop(), the
 * signal, or a non-retriable error (reported via onError) do.
 */
export function createInformer<T extends KubeObjectLike>(
  client: Client,
  target: WatchTarget,
  handlers: InformerHandlers<T> = {},
  options: WatchOptions = {},
): Informer<T> {
  const cache = new Map<string, T>();
  const controller = new AbortController();
  let synced = false;
  let lastResourceVersion: string | undefined;
  let started: Promise<void> | undefined;
  let running: Promise<void> | undefined;
  let resolveSync: () => void = noop;
  let rejectSync: (error: unknown) => void = noop;

  const call = <A extends unknown[]>(handler: ((...args: A) => void) | undefined, ...args: A): void => {
    if (handler === undefined) return;
    try {
      handler.apply(handlers, args);
    } catch (error) {
      reportError(error);
    }
  };
  const reportError = (error: unknown): void => {
    try {
      handlers.onError?.(error);
    } catch {
      // An onError that throws has nowhere left to report to.
    }
  };
  const noteVersion = (rv: string | undefined): void => {
    if (rv === undefined || rv === '') return;
    if (lastResourceVersion === undefined || isNewerResourceVersion(rv, lastResourceVersion)) lastResourceVersion = rv;
  };

  const apply = (notification: WatchNotification<T>): void => {
    if (notification.type === 'RESYNC') {
      replace(notification.objects);
      noteVersion(notification.resourceVersion);
      return;
    }
    const object = notification.object;
    noteVersion(object.metadata?.resourceVersion);
    if (notification.type === 'BOOKMARK') return;
    const key = keyOf(object);
    if (key === undefined) return;
    const old = cache.get(key);
    if (notification.type === 'DELETED') {
      cache.delete(key);
      call(handlers.onDelete, object);
    } else {
      cache.set(key, object);
      if (old === undefined) call(handlers.onAdd, object);
      else call(handlers.onUpdate, old, object);
    }
  };

  const replace = (objects: readonly T[]): void => {
    const next = new Map<string, T>();
    for (const object of objects) {
      const key = keyOf(object);
      if (key !== undefined) next.set(key, object);
    }
    for (const [key, old] of cache) {
      if (!next.has(key)) {
        cache.delete(key);
        call(handlers.onDelete, old);
      }
    }
    for (const [key, object] of next) {
      const old = cache.get(key);
      cache.set(key, object);
      if (old === undefined) call(handlers.onAdd, object);
      else if (old.metadata?.resourceVersion !== object.metadata?.resourceVersion) call(handlers.onUpdate, old, object);
    }
  };

  const run = async (): Promise<void> => {
    const outer = options.signal;
    const forward = (): void => controller.abort(outer?.reason);
    if (outer !== undefined) {
      if (outer.aborted) forward();
      else outer.addEventListener('abort', forward, { once: true });
    }
    try {
      const notifications = watch<T>(client, target, {
        ...options,
        signal: controller.signal,
        onSynced: (info) => {
          synced = true;
          noteVersion(info.resourceVersion);
          resolveSync();
          options.onSynced?.(info);
        },
      });
      for await (const notification of notifications) {
        apply(notification);
        if (notification.type === 'RESYNC') {
          call(handlers.onResync, { reason: notification.reason, resourceVersion: notification.resourceVersion, objects: notification.objects.length });
        }
      }
      rejectSync(controller.signal.reason ?? new Error('the informer stopped before it synced'));
    } catch (error) {
      rejectSync(error);
      reportError(error);
    } finally {
      outer?.removeEventListener('abort', forward);
      controller.abort();
    }
  };

  return {
    start(): Promise<void> {
      if (started !== undefined) return started;
      started = new Promise<void>((resolve, reject) => {
        resolveSync = resolve;
        rejectSync = reject;
      });
      // A stop before sync is also reported through the promise; keep it from counting as unhandled when nobody awaits start().
      started.catch(noop);
      running = run();
      return started;
    },
    async stop(): Promise<void> {
      controller.abort(new Error('the informer was stopped'));
      if (started === undefined) {
        started = Promise.reject(new Error('the informer was stopped'));
        started.catch(noop);
      }
      await running;
    },
    hasSynced: (): boolean => synced,
    get: (namespace: string | undefined, name: string): T | undefined => cache.get(objectKey(namespace, name)),
    list: (): T[] => [...cache.values()],
    get lastResourceVersion(): string | undefined {
      return lastResourceVersion;
    },
  };
}

function noop(): void {}
