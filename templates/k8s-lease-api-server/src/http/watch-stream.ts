// One open watch response: newline-delimited JSON events (or length-prefixed protobuf frames), batched per tick for throughput, with
// back-pressure, a bounded buffer (blocked watchers are terminated), bookmarks, a timeout, and
// injected faults (cut, clean end, in-stream ERROR, per-event delay).
import type { ServerResponse } from 'node:http';
import type { StreamFault } from './faults.js';
import type { FlushScheduler } from './watch-batching.js';

const MAX_TIMER_MS = 2 ** 31 - 1;

export interface WatchStreamOptions {
  /** Called when the stream ends for any reason; used to unsubscribe from the store. */
  onClose: () => void;
  timeoutMs: number | undefined;
  /** Bytes this watcher may have queued (ours plus Node's socket buffer) before it counts as blocked. */
  bufferBytes: number;
  /** How long a watcher may stay blocked before it is terminated. */
  blockedTimeoutMs: number;
  fault: StreamFault | undefined;
  /** The response's Content-Type; JSON unless the watch negotiated protobuf frames. */
  contentType?: string | undefined;
  /** With watch batching: flushes this stream together with the others; without, each stream has its own setImmediate. */
  flusher?: FlushScheduler | undefined;
}

type Finale = (lastChunk: Buffer) => void;

const NOTHING = Buffer.alloc(0);

/** The bytes of an event: a JSON line gets its newline, a protobuf frame is complete already. */
export function toFrame(line: string | Buffer): Buffer {
  return typeof line === 'string' ? Buffer.from(`${line}\n`) : line;
}

export class WatchStream {
  /** Encoded frames: a JSON line with its newline, or a protobuf frame as it is. */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private scheduled = false;
  private blocked = false;
  private closed = false;
  private sent = 0;
  /** Set once a fault decided how the stream ends: nothing more is queued, and it runs after the last write. */
  private finale: Finale | undefined;
  private blockedTimer: NodeJS.Timeout | undefined;
  /** Undefined while the initial events are queued: they are never a reason to terminate. */
  private limit: number | undefined;
  private delayTimer: NodeJS.Timeout | undefined;
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly res: ServerResponse,
    private readonly options: WatchStreamOptions,
  ) {
    res.writeHead(200, {
      'Content-Type': options.contentType ?? 'application/json',
      'Cache-Control': 'no-cache, private',
      'Transfer-Encoding': 'chunked',
    });
    res.flushHeaders();
    res.on('close', () => this.finish());
    res.on('drain', () => {
      this.blocked = false;
      this.checkBuffer();
      this.schedule();
    });
    if (options.timeoutMs !== undefined) this.every(options.timeoutMs, () => this.end(), true);
    this.afterCount();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** True once the stream takes no more events (closed, or a fault is ending it). */
  get isFinishing(): boolean {
    return this.closed || this.finale !== undefined;
  }

  /**
   * Marks the end of the initial events (state or history): from now on a watcher that cannot keep
   * up is terminated. kube-apiserver sends initial events outside the bounded input channel too; a
   * replay larger than the buffer raises this watcher's bound to its size, so it can still drain.
   */
  goLive(): void {
    this.limit = Math.max(this.options.bufferBytes, this.pendingBytes + this.res.writableLength);
  }

  /** Runs fn periodically (or once) for as long as the stream is open. */
  every(ms: number, fn: () => void, once = false): void {
    // setTimeout turns anything above 2^31-1 ms into 1 ms, so a long one-shot delay is chained.
    const step = Math.min(ms, MAX_TIMER_MS);
    const timer = once ? setTimeout(step < ms ? () => this.every(ms - step, fn, true) : fn, step) : setInterval(fn, ms);
    timer.unref();
    this.timers.push(timer);
  }

  /**
   * Queues one event: a line (a complete JSON object without the trailing newline) or a binary frame.
   * Object events count towards a fault's `afterEvents`; bookmarks and errors pass with `counts` false.
   */
  send(line: string | Buffer, counts = true): void {
    if (this.isFinishing) return;
    this.sendFrame(toFrame(line), typeof line === 'string', counts);
  }

  /** Queues an encoded frame as toFrame makes it (never modified: watchers may share it); `line` when it ends in a newline. */
  sendFrame(frame: Buffer, line: boolean, counts = true): void {
    if (this.isFinishing) return;
    const cut = this.options.fault?.cut;
    if (counts) {
      this.sent++;
      if (cut?.midLine && this.sent > cut.afterEvents) {
        const half = Math.max(1, Math.floor((frame.length - (line ? 1 : 0)) / 2));
        this.finishWith((chunk) => this.destroyAfter(Buffer.concat([chunk, frame.subarray(0, half)])));
        return;
      }
    }
    this.pending.push(frame);
    this.pendingBytes += frame.length;
    if (counts) this.afterCount();
    if (!this.checkBuffer()) return;
    this.schedule();
  }

  /** Sends what is queued, then ends the response cleanly (terminating chunk). */
  end(): void {
    if (this.closed) return;
    this.blocked = false;
    const chunk = this.takePending(this.pending.length);
    if (chunk.length > 0) this.res.write(chunk);
    this.finish();
    this.res.end();
  }

  /** Applies a fault whose trigger is the number of events queued so far. */
  private afterCount(): void {
    const fault = this.options.fault;
    if (fault === undefined) return;
    const reached = (spec: { afterEvents: number } | undefined): boolean =>
      spec !== undefined && this.sent >= spec.afterEvents;
    if (fault.cut !== undefined && !fault.cut.midLine && reached(fault.cut)) {
      this.finishWith((chunk) => this.destroyAfter(chunk));
    } else if (reached(fault.end)) {
      this.finishWith((chunk) => this.endWith(chunk));
    } else if (fault.error !== undefined && reached(fault.error)) {
      const line = fault.error.line;
      this.finishWith((chunk) => this.endWith(Buffer.concat([chunk, Buffer.from(`${line}\n`)])));
    }
  }

  private finishWith(finale: Finale): void {
    if (this.finale !== undefined) return;
    this.finale = (chunk) => {
      this.options.fault?.onEffect();
      finale(chunk);
    };
    this.schedule();
  }

  private readonly runFlush = (): void => {
    this.scheduled = false;
    this.delayTimer = undefined;
    this.flush();
  };

  private schedule(): void {
    if (this.scheduled || this.closed) return;
    this.scheduled = true;
    const delay = this.options.fault?.eventDelayMs ?? 0;
    if (delay > 0 && this.pending.length > 0) {
      this.delayTimer = setTimeout(this.runFlush, delay);
      this.delayTimer.unref();
    } else if (this.options.flusher !== undefined) {
      this.options.flusher.add(this.runFlush);
    } else {
      setImmediate(this.runFlush);
    }
  }

  private flush(): void {
    if (this.closed || this.blocked) return;
    const perEvent = (this.options.fault?.eventDelayMs ?? 0) > 0;
    const chunk = this.takePending(perEvent ? 1 : this.pending.length);
    if (this.pending.length === 0 && this.finale !== undefined) {
      this.finale(chunk);
      return;
    }
    if (chunk.length > 0 && !this.res.write(chunk)) this.blocked = true;
    if (!this.blocked && this.pending.length > 0) this.schedule();
  }

  private takePending(count: number): Buffer {
    if (count === 0) return NOTHING;
    // A single frame is written as it is (it may be shared, and is never modified); several are one chunk.
    const chunk = count === 1 ? (this.pending.shift() as Buffer) : Buffer.concat(this.pending.splice(0, count));
    this.pendingBytes -= chunk.length;
    return chunk;
  }

  /**
   * Imitates cacheWatcher.add in k8s.io/apiserver's cacher: a watcher whose buffer is full gets a
   * bounded wait (dispatchTimeoutBudget) and is then terminated rather than buffering without end.
   * Node has no blocking send, so the wait is a timer; twice the buffer terminates at once, which
   * bounds the memory a watcher holds. Returns false when the watcher was terminated.
   */
  private checkBuffer(): boolean {
    if (this.closed) return false;
    const limit = this.limit;
    if (limit === undefined) return true;
    const buffered = this.pendingBytes + this.res.writableLength;
    if (buffered <= limit) {
      if (this.blockedTimer !== undefined) clearTimeout(this.blockedTimer);
      this.blockedTimer = undefined;
      return true;
    }
    if (buffered > 2 * limit) {
      this.terminate();
      return false;
    }
    if (this.blockedTimer === undefined) {
      this.blockedTimer = setTimeout(() => {
        this.blockedTimer = undefined;
        if (this.pendingBytes + this.res.writableLength > limit) this.terminate();
      }, this.options.blockedTimeoutMs);
      this.blockedTimer.unref();
    }
    return true;
  }

  /**
   * Like the cacher's forget/stopLocked: the watcher is dropped and its stream ends. The socket is
   * destroyed because a clean end could not get past the full buffer, and destroying frees it.
   */
  private terminate(): void {
    this.pending = [];
    this.pendingBytes = 0;
    this.finish();
    this.res.socket?.destroy();
    this.res.destroy();
  }

  private endWith(chunk: Buffer): void {
    if (chunk.length > 0) this.res.write(chunk);
    this.finish();
    this.res.end();
  }

  /** Writes the chunk, then destroys the socket: the client sees a broken stream, not an end. */
  private destroyAfter(chunk: Buffer): void {
    const socket = this.res.socket;
    this.finish();
    if (chunk.length === 0 && this.res.writableLength === 0) {
      socket?.destroy();
      return;
    }
    this.res.write(chunk.length === 0 ? '\n' : chunk, () => socket?.destroy());
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    if (this.blockedTimer !== undefined) clearTimeout(this.blockedTimer);
    if (this.delayTimer !== undefined) clearTimeout(this.delayTimer);
    this.options.onClose();
  }
}
