/**
 * How the elector calls its user's callbacks: nothing a callback does may
 * break the election loop, which must still renew, release and call
 * onStoppedLeading. What a callback throws or rejects with goes to onError.
 */

export interface GuardedCalls {
  /** Tells onError; an onError that throws is ignored. */
  report(error: unknown): void;
  /** Runs a callback; a throw or a rejection is reported, except a rejection with the reason of its own aborted `signal` (work that stopped as asked). */
  invoke(callback: () => void | Promise<void>, signal?: AbortSignal): void;
}

export function guardedCalls(onError: (error: unknown) => void): GuardedCalls {
  const report = (error: unknown): void => {
    try {
      onError(error);
    } catch {
      // An onError that throws has nowhere left to report to.
    }
  };
  const invoke = (callback: () => void | Promise<void>, signal?: AbortSignal): void => {
    try {
      const result = callback();
      if (result instanceof Promise) {
        result.catch((error: unknown) => {
          if (!stoppedAsAsked(error, signal)) report(error);
        });
      }
    } catch (error) {
      report(error);
    }
  };
  return { report, invoke };
}

function stoppedAsAsked(error: unknown, signal: AbortSignal | undefined): boolean {
  return (
    signal?.aborted === true && (error === signal.reason || (error instanceof Error && error.name === 'AbortError'))
  );
}
