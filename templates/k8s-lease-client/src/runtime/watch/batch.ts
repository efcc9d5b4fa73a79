/**
 * How the driver hands a chunk's events to the consumer: as one Batch, which watch()'s iterator hands out
 * one event at a time, or which the informer takes whole.
 */

import type { WatchNotification } from './event-shape.js';

/**
 * A chunk's events, handed over at once: the driver's generator yields one
 * batch per chunk read and flattenBatches hands the events out one by one
 * without resuming the generator for each, which a busy watch (hundreds of
 * thousands of events) notices. The generator resumes only once the consumer
 * has taken the whole batch, so everything it does after a yield still
 * happens after the consumer saw the events.
 */
export class Batch<T> {
  constructor(readonly events: ReadonlyArray<WatchNotification<T>>) {}
}

/**
 * The iterator `watch()` returns: the events of each Batch one by one, other notifications as they come;
 * aborting `signal` ends it between two events of a batch as between batches.
 */
export function flattenBatches<T>(
  inner: AsyncGenerator<WatchNotification<T> | Batch<T>, void, undefined>,
  signal: AbortSignal | undefined,
): AsyncIterator<WatchNotification<T>> {
  let buffered: ReadonlyArray<WatchNotification<T>> = [];
  let next = 0;
  const pull = async (): Promise<IteratorResult<WatchNotification<T>>> => {
    for (;;) {
      const result = await inner.next();
      if (result.done === true) return { value: undefined, done: true };
      if (!(result.value instanceof Batch)) return { value: result.value, done: false };
      if (result.value.events.length === 0) continue;
      buffered = result.value.events;
      next = 1;
      return { value: buffered[0]!, done: false };
    }
  };
  return {
    next: (): Promise<IteratorResult<WatchNotification<T>>> => {
      if (next < buffered.length) {
        // Aborting ends the iteration at once, as it does between batches.
        if (signal?.aborted === true) {
          buffered = [];
          return inner.return(undefined).then(() => ({ value: undefined, done: true }));
        }
        return Promise.resolve({ value: buffered[next++]!, done: false });
      }
      buffered = [];
      return pull();
    },
    return: (): Promise<IteratorResult<WatchNotification<T>>> => {
      buffered = [];
      return inner.return(undefined).then(() => ({ value: undefined, done: true }));
    },
  };
}
