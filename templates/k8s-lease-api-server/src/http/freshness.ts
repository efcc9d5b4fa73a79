// Waiting for the store to reach a resourceVersion a client asked for, as the watch cache's
// waitUntilFreshLocked does (k8s.io/apiserver/pkg/storage/cacher/watch_cache.go): a read or a
// sendInitialEvents watch from a resourceVersion newer than the cache's blocks until the cache catches
// up, or for blockTimeout (3 s), after which it fails with storage.NewTooLargeResourceVersionError.
import type { LeaseStore } from '../store/lease-store.js';

/** watch_cache.go's blockTimeout. */
export const BLOCK_TIMEOUT_MS = 3000;

/**
 * Resolves true as soon as the store's resourceVersion reaches `rv`, false after `timeoutMs` or when
 * `closed` fires first (the client went away); nothing is left subscribed or scheduled afterwards.
 */
export function waitUntilFresh(
  store: LeaseStore,
  rv: number,
  timeoutMs: number,
  closed: { once(event: 'close', listener: () => void): unknown; off(event: 'close', listener: () => void): unknown },
): Promise<boolean> {
  if (store.resourceVersion >= rv) return Promise.resolve(true);
  return new Promise((resolve) => {
    let unsubscribe: () => void = () => undefined;
    const settle = (fresh: boolean): void => {
      clearTimeout(timer);
      unsubscribe();
      closed.off('close', onClose);
      resolve(fresh);
    };
    const onClose = (): void => settle(false);
    const timer = setTimeout(() => settle(store.resourceVersion >= rv), timeoutMs);
    timer.unref();
    unsubscribe = store.subscribe(() => {
      if (store.resourceVersion >= rv) settle(true);
    });
    closed.once('close', onClose);
  });
}
