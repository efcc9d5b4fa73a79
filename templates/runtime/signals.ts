/** Combining a caller's AbortSignal with a per-call timeout. */

import { RequestTimeoutError } from './errors.js';

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

const noop = (): void => {};
const NONE: CombinedSignal = Object.freeze({ signal: undefined, dispose: noop, stopTimer: noop });

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
 */
export function combineSignals(signal: AbortSignal | undefined, timeoutMs: number | undefined): CombinedSignal {
  if (timeoutMs === undefined) {
    if (signal === undefined) return NONE;
  } else if (!(timeoutMs >= 0) || timeoutMs === Number.POSITIVE_INFINITY) {
    throw new RangeError(`timeoutMs must be a finite number >= 0, got ${timeoutMs}`);
  }
  // Already aborted: fetch rejects at once with the caller's reason, nothing to wire up or clean.
  if (signal?.aborted === true) return { signal, dispose: noop, stopTimer: noop };
  return new LinkedSignal(signal, timeoutMs);
}

class LinkedSignal implements CombinedSignal {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private readonly parent: AbortSignal | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(parent: AbortSignal | undefined, timeoutMs: number | undefined) {
    this.signal = this.controller.signal;
    this.parent = parent;
    if (parent !== undefined) parent.addEventListener('abort', this, { once: true });
    if (timeoutMs !== undefined) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.detach();
        this.controller.abort(new RequestTimeoutError(timeoutMs));
      }, timeoutMs);
    }
  }

  /** EventListener object form: avoids allocating a bound closure per request. */
  handleEvent(): void {
    this.stopTimer();
    this.controller.abort(this.parent?.reason);
  }

  stopTimer(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
  }

  dispose(): void {
    this.stopTimer();
    this.detach();
  }

  private detach(): void {
    this.parent?.removeEventListener('abort', this);
  }
}
