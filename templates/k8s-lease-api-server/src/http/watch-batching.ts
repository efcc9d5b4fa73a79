// What watch streams share when batching is on (LeaseApiServerOptions.watchBatching): one encoding of
// an event per (object, event type, encoding) for every watcher that sees it so, and one setImmediate
// that flushes every stream with something queued, each as one write of everything it got since.
// kube-apiserver shares encodings the same way (k8s.io/apiserver/pkg/storage/cacher/caching_object.go
// cachingObject.CacheEncode: an event's serialization cached per encoder for all its watchers).

/** The encoded frames of the event being dispatched: the store calls its listeners synchronously, one event at a time. */
export class SharedFrames {
  private object: object | undefined;
  private readonly frames = new Map<string, Buffer>();

  /** The frame `key` of `object`, made once while that object is the one being dispatched. */
  frame(object: object, key: string, make: () => Buffer): Buffer {
    if (object !== this.object) {
      this.object = object;
      this.frames.clear();
    }
    let frame = this.frames.get(key);
    if (frame === undefined) {
      frame = make();
      this.frames.set(key, frame);
    }
    return frame;
  }
}

/**
 * How close together two flushes may run. A flush right after a quiet spell runs at once (next
 * setImmediate); one within this window of the previous waits for the window's end, so events
 * arriving one per request (each in its own turn of the event loop) are written several per socket
 * write: a busy stream pays one write syscall per window instead of one per event, at most this much
 * later than without batching.
 */
export const FLUSH_WINDOW_MS = 2;

/** Runs every queued flush together (so in arrival order), at most once per FLUSH_WINDOW_MS. */
export class FlushScheduler {
  private queue: (() => void)[] = [];
  private scheduled = false;
  private lastRun = -Infinity;

  constructor(private readonly windowMs: number = FLUSH_WINDOW_MS) {}

  add(flush: () => void): void {
    this.queue.push(flush);
    if (this.scheduled) return;
    this.scheduled = true;
    const wait = this.lastRun + this.windowMs - performance.now();
    if (wait < 1) setImmediate(this.run);
    else setTimeout(this.run, wait);
  }

  private readonly run = (): void => {
    this.scheduled = false;
    this.lastRun = performance.now();
    const queue = this.queue;
    this.queue = [];
    for (const flush of queue) flush();
  };
}

export interface WatchBatching {
  frames: SharedFrames;
  flusher: FlushScheduler;
}

export function watchBatching(): WatchBatching {
  return { frames: new SharedFrames(), flusher: new FlushScheduler() };
}
