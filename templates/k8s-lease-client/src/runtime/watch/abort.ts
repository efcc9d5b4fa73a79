/** How the watch reads its AbortSignal, and the sleep between its retries that an abort cuts short. */

/** A function, not `signal?.aborted`, so control-flow narrowing does not assume it cannot change across awaits. */
export function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

/** setTimeout as a promise that settles early (resolves) when `signal` aborts, leaving no timer or listener behind. */
export function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (isAborted(signal)) {
      resolve();
      return;
    }
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
