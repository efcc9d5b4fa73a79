// The garbage collector's timer driver: store events go to `observe` as they happen (synchronously, O(the
// object's ownerReferences) plus the keys it queues), and the queue is worked off in slices between requests
// (setImmediate), each ending after SLICE_MS or SLICE_ITEMS keys, so no request waits on a deletion's
// dependents. As upstream, the collector runs beside the API, not inside a DELETE.
import { performance } from 'node:perf_hooks';
import type { OperationContext } from './context.js';
import type { GcState } from './garbage-collector.js';
import { adopt, newGcState, observe, step } from './garbage-collector.js';

/** The longest one slice runs before requests get their turn. */
const SLICE_MS = 4;
/** At most this many queued keys per slice, however fast they go. */
const SLICE_ITEMS = 512;

export interface GarbageCollector {
  /** How many keys wait in the queue (0: nothing left to collect). */
  readonly pending: number;
  /** Stops listening to the store and cancels the next slice. */
  stop(): void;
}

/** Starts collecting the garbage of ctx's store; objects already stored join the graph at once. */
export function startGarbageCollector(ctx: OperationContext): GarbageCollector {
  const state: GcState = newGcState();
  ctx.store.current().forEach((key, obj) => {
    adopt(state, key, obj);
  });
  let timer: NodeJS.Immediate | undefined;
  let stopped = false;
  const schedule = (): void => {
    if (timer === undefined && !stopped && state.queue.size > 0) timer = setImmediate(slice);
  };
  const slice = (): void => {
    timer = undefined;
    const deadline = performance.now() + SLICE_MS;
    for (let i = 0; i < SLICE_ITEMS && performance.now() < deadline && step(ctx, state); i++);
    schedule();
  };
  const unsubscribe = ctx.store.subscribe((event) => {
    observe(ctx, state, event);
    schedule();
  });
  schedule();
  return {
    get pending(): number {
      return state.queue.size;
    },
    stop(): void {
      stopped = true;
      unsubscribe();
      if (timer !== undefined) clearImmediate(timer);
      timer = undefined;
    },
  };
}
