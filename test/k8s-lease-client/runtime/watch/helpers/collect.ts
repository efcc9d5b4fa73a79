import type { WatchNotification } from '../../../../../templates/k8s-lease-client/src/runtime/watch/event-shape.js';
import type { Lease } from './lease-server.js';

/** `TYPE name@rv` for events, `RESYNC@rv[names]` for resyncs: compact and diffable. */
export function show(notification: WatchNotification<Lease>): string {
  if (notification.type === 'RESYNC') {
    return `RESYNC(${notification.reason})@${notification.resourceVersion}[${notification.objects.map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`).join(',')}]`;
  }
  const metadata = notification.object.metadata;
  if (notification.type === 'BOOKMARK') return `BOOKMARK@${metadata.resourceVersion}`;
  return `${notification.type} ${metadata.name}@${metadata.resourceVersion}`;
}

/**
 * Iterates until `until` says stop (checked after each notification), then breaks.
 * `onEach` runs before the check, e.g. to cause the next change.
 */
export async function consume(
  iterable: AsyncIterable<WatchNotification<Lease>>,
  until: (seen: string[]) => boolean,
  onEach?: (notification: WatchNotification<Lease>, seen: string[]) => void | Promise<void>,
): Promise<string[]> {
  const seen: string[] = [];
  if (until(seen)) return seen;
  for await (const notification of iterable) {
    seen.push(show(notification));
    await onEach?.(notification, seen);
    if (until(seen)) break;
  }
  return seen;
}

/** A sleep that records the delays asked for and returns at once (unless aborted before). */
export function recordingSleep(): { sleep: (ms: number, signal?: AbortSignal) => Promise<void>; delays: number[] } {
  const delays: number[] = [];
  return {
    delays,
    sleep: async (ms: number) => {
      delays.push(ms);
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}
