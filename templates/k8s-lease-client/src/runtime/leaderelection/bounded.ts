/** A signal for one step of the election: follows the caller's cancel signal and aborts at a deadline on the election's clock. */

import type { ElectionClock } from './clock.js';

export interface Bounded {
  readonly signal: AbortSignal;
  dispose(): void;
}

export class DeadlineExceededError extends Error {
  override name = 'DeadlineExceededError';
}

export function bounded(clock: ElectionClock, cancel: AbortSignal | undefined, deadline: number): Bounded {
  const controller = new AbortController();
  const timer = new AbortController();
  const onCancel = (): void => controller.abort(cancel?.reason);
  const dispose = (): void => {
    timer.abort();
    cancel?.removeEventListener('abort', onCancel);
  };
  if (cancel?.aborted) onCancel();
  else cancel?.addEventListener('abort', onCancel, { once: true });
  clock.sleep(deadline - clock.now(), timer.signal).then(
    () => controller.abort(new DeadlineExceededError('leader election deadline passed')),
    () => {},
  );
  return { signal: controller.signal, dispose };
}
