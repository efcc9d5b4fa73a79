/** A Lease as a lock for one-off work: acquire, run, release (built on the elector, releaseOnCancel). */

import { createLeaderElector } from './elector.js';
import type { LeaderElectorOptions } from './options.js';

/** Options of `withLeaseLock`: a LeaderElectorOptions without the callbacks, which the lock supplies itself. */
export type LeaseLockOptions = Omit<
  LeaderElectorOptions,
  'onStartedLeading' | 'onStoppedLeading' | 'onNewLeader' | 'releaseOnCancel'
>;

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * Waits until the Lease is acquired, runs `work` with a signal that aborts if
 * the lease is lost (or `options.signal` aborts), then releases the Lease.
 * Resolves with work's result; rejects with the signal's reason when the
 * lease was lost (or the caller cancelled) before work finished.
 */
export async function withLeaseLock<T>(
  options: LeaseLockOptions,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const stop = new AbortController();
  const onCancel = (): void => stop.abort(options.signal?.reason);
  if (options.signal?.aborted) onCancel();
  else options.signal?.addEventListener('abort', onCancel, { once: true });
  let running: Promise<Settled<T>> | undefined;
  const guarded = async (signal: AbortSignal): Promise<Settled<T>> => {
    try {
      const value = await work(signal);
      // Finished, but after the lease was lost: the caller must not trust the result as exclusive.
      return signal.aborted ? { ok: false, error: signal.reason } : { ok: true, value };
    } catch (error) {
      return { ok: false, error };
    } finally {
      stop.abort();
    }
  };
  const elector = createLeaderElector({
    ...options,
    signal: stop.signal,
    releaseOnCancel: true,
    onStartedLeading: (signal) => {
      running = guarded(signal);
    },
    onStoppedLeading: () => {},
  });
  try {
    await elector.run();
  } finally {
    options.signal?.removeEventListener('abort', onCancel);
  }
  if (running === undefined) throw options.signal?.reason ?? new Error('lease lock was not acquired');
  const settled = await running;
  if (settled.ok) return settled.value;
  throw settled.error;
}
