/** Combining a caller's AbortSignal with a per-call timeout. */

import { RequestTimeoutError } from './errors.js';
import type { RequestContext } from './errors.js';

/** A caller's signal and a timeout folded into one signal for fetch, with the cleanup it needs; made by `combineSignals`. */
export interface CombinedSignal {
  /** Pass to fetch; `undefined` when there is neither a caller signal nor a timeout. */
  readonly signal: AbortSignal | undefined;
  /** Clears the timer and detaches from the caller's signal. Idempotent; call once the response is fully consumed. */
  dispose(): void;
  /**
   * Clears only the timer and keeps following the caller's signal: for
   * streams, where the timeout covers the wait for headers but the caller
   * must still be able to stop the body. `dispose()` is still required later.
   */
  stopTimer(): void;
}

/**
 * A signal that aborts when the caller's `signal` aborts (with the caller's
 * reason, as fetch itself would) or when `timeoutMs` elapses (with a
 * `RequestTimeoutError`), whichever comes first.
 *
 * Not built on `AbortSignal.any`/`AbortSignal.timeout`: those leave cleanup to
 * the garbage collector, whereas a long-lived caller signal (a leader
 * election's stop signal, reused for every renewal) must not accumulate one
 * listener per request. For the same reason a caller signal is wrapped even
 * without a timeout: fetch implementations (undici) attach listeners to it
 * that are only removed on GC.
 *
 * `context` names the request in the RequestTimeoutError.
 */
export function combineSignals(
  signal: AbortSignal | undefined,
  timeoutMs: number | undefined,
  context?: RequestContext,
): CombinedSignal {
  if (timeoutMs !== undefined && !(timeoutMs >= 0 && timeoutMs < Infinity)) {
    throw new RangeError(`timeoutMs must be a finite number >= 0, got ${timeoutMs}`);
  }
  // Nothing to combine: no signal for fetch, nothing to clean. A fresh object rather than a shared frozen one: its
  // allocation is nothing beside a fetch, and the shared one's declaration was in every bundle.
  if (!signal && timeoutMs === undefined) return { signal: undefined, dispose() {}, stopTimer() {} };
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stopTimer = (): void => clearTimeout(timer);
  const dispose = (): void => {
    stopTimer();
    signal?.removeEventListener('abort', onAbort);
  };
  // Whichever comes first wins; both leave nothing behind.
  const abort = (reason: unknown): void => {
    dispose();
    controller.abort(reason);
  };
  const onAbort = (): void => abort(signal?.reason);
  // Removed again by dispose(), whichever way this ends.
  signal?.addEventListener('abort', onAbort);
  if (timeoutMs !== undefined) timer = setTimeout(() => abort(new RequestTimeoutError(timeoutMs, context)), timeoutMs);
  // Already aborted: no event will come, so abort now with the caller's reason (fetch then rejects at once); that
  // also clears the timer and the listener just set.
  if (signal?.aborted) onAbort();
  return { signal: controller.signal, dispose, stopTimer };
}
