/**
 * An informer: a local cache of the objects of one LIST path, kept current by
 * `watch()` (list, then watch; reconnect; re-list after 410), with add /
 * update / delete callbacks. After a RESYNC it diffs the new complete state
 * against the cache, so the callbacks describe every change the consumer
 * could not otherwise have seen.
 */

import type { Client } from '../transport.js';
import type { WatchTarget } from './list-all.js';
import { isNewerResourceVersion } from './resource-version.js';
import type { KubeObjectLike } from './resource-version.js';
import type { WatchNotification } from './event-shape.js';
import { Batch } from './batch.js';
import { watchBatches } from './watch.js';
import type { WatchOptions, WatchResyncInfo } from './watch-options.js';

/** Callbacks of `createInformer`, each optional; errors they throw go to `onError` and do not stop the informer. */
export interface InformerHandlers<T> {
  /** An object entered the cache: from the initial list, a watch ADDED, or a RESYNC that showed it new. */
  onAdd?: ((object: T) => void) | undefined;
  /** A cached object changed (a newer resourceVersion): the cached state and the new one. */
  onUpdate?: ((oldObject: T, newObject: T) => void) | undefined;
  /** Receives the object as the DELETED event carries it (its last state), or the cached one when a RESYNC showed it gone. */
  onDelete?: ((object: T) => void) | undefined;
  /** After a 410 forced a re-list; called once the diff has been delivered through onAdd/onUpdate/onDelete. */
  onResync?: ((info: WatchResyncInfo) => void) | undefined;
  /**
   * A non-retriable error stopped the informer (or retries were exhausted); also receives errors
   * thrown by the other handlers, which are caught so that one bad callback cannot stop the cache.
   */
  onError?: ((error: unknown) => void) | undefined;
}

/** A running (or startable) informer, made by `createInformer`: a local cache of one LIST path kept current by a watch. */
export interface Informer<T> {
  /**
   * Starts list + watch; resolves once the initial state is in the cache and every onAdd for it
   * was called. Rejects if the informer stops before that (an error, stop(), or the signal). Calling
   * it again returns the same promise.
   */
  start(): Promise<void>;
  /** Stops watching and closes the connection; resolves when nothing is left running. Idempotent. */
  stop(): Promise<void>;
  /** Whether the initial state is in the cache (the promise of `start()` resolved), as client-go's `HasSynced`. */
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
  const cache = new ObjectCache<T>();
  const controller = new AbortController();
  let synced = false;
  let lastResourceVersion: string | undefined;
  let started: Promise<void> | undefined;
  let running: Promise<void> | undefined;
  let resolveSync: () => void = noop;
  let rejectSync: (error: unknown) => void = noop;

  // One function per arity rather than rest parameters: called per event, an arguments array each time shows in a large sync.
  const call1 = (handler: ((object: T) => void) | undefined, object: T): void => {
    if (handler === undefined) return;
    try {
      handler.call(handlers, object);
    } catch (error) {
      reportError(error);
    }
  };
  const call2 = (handler: ((oldObject: T, newObject: T) => void) | undefined, oldObject: T, newObject: T): void => {
    if (handler === undefined) return;
    try {
      handler.call(handlers, oldObject, newObject);
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
    if (rv === undefined || rv === '' || rv === lastResourceVersion) return;
    if (lastResourceVersion === undefined || isNewerResourceVersion(rv, lastResourceVersion)) lastResourceVersion = rv;
  };

  const apply = (notification: WatchNotification<T>): void => {
    if (notification.type === 'RESYNC') {
      replace(notification.objects);
      noteVersion(notification.resourceVersion);
      return;
    }
    const object = notification.object;
    const metadata = object.metadata;
    noteVersion(metadata?.resourceVersion);
    if (notification.type === 'BOOKMARK') return;
    const name = metadata?.name;
    if (name === undefined) return;
    if (notification.type === 'DELETED') {
      cache.delete(metadata?.namespace, name);
      call1(handlers.onDelete, object);
      return;
    }
    const old = cache.set(metadata?.namespace, name, object);
    if (old === undefined) call1(handlers.onAdd, object);
    else call2(handlers.onUpdate, old, object);
  };

  const replace = (objects: readonly T[]): void => {
    const next = new ObjectCache<T>();
    for (const object of objects) {
      const name = object.metadata?.name;
      if (name !== undefined) next.set(object.metadata?.namespace, name, object);
    }
    for (const old of cache.values()) {
      // Only named objects enter the cache.
      const name = old.metadata!.name!;
      if (next.get(old.metadata?.namespace, name) === undefined) {
        cache.delete(old.metadata?.namespace, name);
        call1(handlers.onDelete, old);
      }
    }
    for (const object of next.values()) {
      const old = cache.set(object.metadata?.namespace, object.metadata!.name!, object);
      if (old === undefined) call1(handlers.onAdd, object);
      else if (old.metadata?.resourceVersion !== object.metadata?.resourceVersion)
        call2(handlers.onUpdate, old, object);
    }
  };

  const take = (notification: WatchNotification<T>): void => {
    apply(notification);
    if (notification.type !== 'RESYNC') return;
    const onResync = handlers.onResync;
    if (onResync === undefined) return;
    try {
      onResync.call(handlers, {
        reason: notification.reason,
        resourceVersion: notification.resourceVersion,
        objects: notification.objects.length,
      });
    } catch (error) {
      reportError(error);
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
      const notifications = watchBatches<T>(client, target, {
        ...options,
        signal: controller.signal,
        onSynced: (info) => {
          synced = true;
          noteVersion(info.resourceVersion);
          resolveSync();
          options.onSynced?.(info);
        },
      });
      const iterator = notifications[Symbol.asyncIterator]();
      const signal = controller.signal;
      // One call per item, so that no frame of this long-lived loop keeps the last batch (the whole initial state
      // after a sync) reachable while the watch waits for the next chunk.
      const takeNext = async (): Promise<boolean> => {
        const result = await iterator.next();
        if (result.done === true) return false;
        const item = result.value;
        if (!(item instanceof Batch)) {
          take(item);
          return true;
        }
        // A batch is taken synchronously, event by event, until a handler stops the informer.
        const events = item.events;
        for (let i = 0; i < events.length && !signal.aborted; i++) take(events[i]!);
        return true;
      };
      while (await takeNext());
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
    get: (namespace: string | undefined, name: string): T | undefined => cache.get(namespace, name),
    list: (): T[] => [...cache.values()],
    get lastResourceVersion(): string | undefined {
      return lastResourceVersion;
    },
  };
}

function noop(): void {}

/**
 * Objects by namespace, then name ('' for cluster-scoped), as client-go's `MetaNamespaceKeyFunc` keys them, but
 * without joining the two into one `namespace/name` string per object: the strings are the object's own, so a
 * cached object costs no key of its own and an event no concatenation.
 */
class ObjectCache<T> {
  private readonly namespaces = new Map<string, Map<string, T>>();

  get(namespace: string | undefined, name: string): T | undefined {
    return this.namespaces.get(namespace ?? '')?.get(name);
  }

  /** Stores `object`; returns the one it replaced. */
  set(namespace: string | undefined, name: string, object: T): T | undefined {
    const ns = namespace ?? '';
    let names = this.namespaces.get(ns);
    if (names === undefined) {
      names = new Map();
      this.namespaces.set(ns, names);
    }
    const old = names.get(name);
    names.set(name, object);
    return old;
  }

  delete(namespace: string | undefined, name: string): void {
    const ns = namespace ?? '';
    const names = this.namespaces.get(ns);
    if (names === undefined) return;
    names.delete(name);
    if (names.size === 0) this.namespaces.delete(ns);
  }

  *values(): IterableIterator<T> {
    for (const names of this.namespaces.values()) yield* names.values();
  }
}
