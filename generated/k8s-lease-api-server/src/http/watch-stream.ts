// One open watch response: newline-delimited JSON events, batched per tick for throughput, with
// back-pressure, bookmarks, a timeout, and the "drop the connection after N events" fault.
import type { ServerResponse } from 'node:http';

const MAX_TIMER_MS = 2 ** 31 - 1;

export interface WatchStreamOptions {
  /** Called when the stream ends for any reason; used to unsubscribe from the store. */
  onClose: () => void;
  timeoutMs: number | undefined;
  dropAfterEvents: number | undefined;
}

export class WatchStream {
  private pending: string[] = [];
  private scheduled = false;
  private blocked = false;
  private closed = false;
  private sent = 0;
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly res: ServerResponse,
    private readonly options: WatchStreamOptions,
  ) {
    res.writeHead(200, {
      'Content-Type': 'application/json',
      'Cache-Control': 'no-cache, private',
      'Transfer-Encoding': 'chunked',
    });
    res.flushHeaders();
    res.on('close', () => this.finish());
    res.on('drain', () => {
      this.blocked = false;
      this.flush();
    });
    if (options.timeoutMs !== undefined) this.every(options.timeoutMs, () => this.end(), true);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Runs fn periodically (or once) for as long as the stream is open. */
  every(ms: number, fn: () => void, once = false): void {
    // setTimeout turns anything above 2^31-1 ms into 1 ms, so a long one-shot delay is chained.
    const step = Math.min(ms, MAX_TIMER_MS);
    const timer = once ? setTimeout(step < ms ? () => this.every(ms - step, fn, true) : fn, step) : setInterval(fn, ms);
    timer.unref();
    this.timers.push(timer);
  }

  /** Queues one event line (a complete JSON object without the trailing newline). */
  send(line: string): void {
    if (this.closed) return;
    this.pending.push(line);
    this.sent++;
    const dropAfter = this.options.dropAfterEvents;
    if (dropAfter !== undefined && this.sent >= dropAfter) {
      this.drop();
      return;
    }
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.flush();
      });
    }
  }

  private flush(): void {
    if (this.closed || this.blocked || this.pending.length === 0) return;
    const chunk = `${this.pending.join('\n')}\n`;
    this.pending = [];
    if (!this.res.write(chunk)) this.blocked = true;
  }

  /** Sends what is queued, then ends the response cleanly (terminating chunk). */
  end(): void {
    if (this.closed) return;
    this.blocked = false;
    this.flush();
    this.finish();
    this.res.end();
  }

  /** Writes what is queued, then destroys the socket: the client sees a broken stream, not an end. */
  private drop(): void {
    const chunk = `${this.pending.join('\n')}\n`;
    this.pending = [];
    this.finish();
    const socket = this.res.socket;
    this.res.write(chunk, () => socket?.destroy());
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.options.onClose();
  }
}
