/**
 * The elector's notion of time, injectable so tests can drive elections
 * deterministically (as client-go's LeaderElector takes a clock.Clock).
 */

export interface ElectionClock {
  /** Milliseconds since the epoch; may be fractional. */
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason once `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const realClock: ElectionClock = {
  now: () => performance.timeOrigin + performance.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, Math.max(0, ms));
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};
