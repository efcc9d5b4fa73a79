/**
 * A complete state as what the watch yields for it, the one path for every sync (LIST or initial events, at
 * the start or after a 410), whichever driver met it (./watch.ts after a LIST, ./connection-reader.ts at the
 * initial-events-end bookmark).
 */

import { Batch } from './batch.js';
import type { Deduplicator } from './deduplicator.js';
import type { ResyncEvent, WatchNotification } from './event-shape.js';
import { isOrderedFrom } from './line-decision.js';
import type { KubeObjectLike } from './resource-version.js';
import type { WatchEffect } from './state.js';
import type { WatchOptions } from './watch-options.js';

/** The machine's answer to a complete state: hand it out (./state.ts). */
export type DeliverEffect<T> = Extract<WatchEffect<T>, { kind: 'deliver' }>;

/**
 * The deduplication state is replaced, then one batch of ADDED (the caller calls onSynced once it was taken),
 * or onResync and the RESYNC. `watermarked`: the next events are read from a new connection at
 * `resourceVersion`. `options` is the caller's, so a callback is called as its method, as everywhere else.
 */
export function handOut<T extends KubeObjectLike>(
  { objects, resourceVersion, reason }: DeliverEffect<T>,
  watermarked: boolean,
  seen: Deduplicator,
  options: WatchOptions,
): Batch<T> | ResyncEvent<T> {
  seen.replace(objects, watermarked && isOrderedFrom(resourceVersion));
  if (reason !== undefined) {
    options.onResync?.({ reason, resourceVersion, objects: objects.length });
    return { type: 'RESYNC', objects, resourceVersion, reason };
  }
  // One batch rather than a yield per object: a generator resume per object is most of a large sync's own cost.
  const events = new Array<WatchNotification<T>>(objects.length);
  for (let i = 0; i < objects.length; i++) events[i] = { type: 'ADDED', object: objects[i]! };
  return new Batch(events);
}
