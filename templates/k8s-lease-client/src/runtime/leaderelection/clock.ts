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

/** setTimeout's largest delay; longer ones (or NaN) fire after 1 ms in Node and browsers. */
export const MAX_TIMER_MS: number = 2 ** 31 - 1;

const now = (): number => performance.timeOrigin + performance.now();

/** The default ElectionClock: wall-clock time (`performance`) and timers, for production use. */
export const realClock: ElectionClock = {
  now,
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      // A long wait is split into timers of at most MAX_TIMER_MS, each re-armed for what is left.
      const until = now() + (Number.isNaN(ms) ? 0 : Math.max(0, ms));
      let timer: ReturnType<typeof setTimeout> | undefined;
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const arm = (): void => {
        const left = until - now();
        if (left <= 0) {
          signal?.removeEventListener('abort', onAbort);
          resolve();
          return;
        }
        timer = setTimeout(arm, Math.min(left, MAX_TIMER_MS));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      arm();
    }),
};
