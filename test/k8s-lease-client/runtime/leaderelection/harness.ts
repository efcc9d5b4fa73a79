// A virtual clock and a fault-injecting fetch for driving elections deterministically against the Lease API server.
import type { ElectionClock } from '../../../../templates/k8s-lease-client/src/runtime/index.js';
import { ClientClosedError, createClient } from '../../../../templates/k8s-lease-client/src/runtime/index.js';
import type { Client } from '../../../../templates/k8s-lease-client/src/runtime/index.js';

interface Waiter {
  at: number;
  view: ClockView;
  resolve: () => void;
}

/** Shared virtual time. Sleeps resolve only when a test advances it. */
export class VirtualClock {
  private time: number;
  private waiters: Waiter[] = [];

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.time = start;
  }

  now = (): number => this.time;

  /** A process's view of the clock: the same time, but its timers do not fire while it is paused. */
  view(): ClockView {
    return new ClockView(this);
  }

  schedule(view: ClockView, ms: number, signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const waiter: Waiter = { at: this.time + Math.max(0, ms), view, resolve: () => {} };
      const onAbort = (): void => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(signal?.reason);
      };
      waiter.resolve = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  advance(ms: number): void {
    this.time += ms;
    this.fire();
  }

  fire(): void {
    const due = this.waiters.filter((w) => w.at <= this.time && !w.view.paused);
    this.waiters = this.waiters.filter((w) => !due.includes(w));
    for (const w of due.sort((a, b) => a.at - b.at)) w.resolve();
  }
}

export class ClockView implements ElectionClock {
  paused = false;
  private resumed: Array<() => void> = [];

  constructor(private readonly clock: VirtualClock) {}

  now = (): number => this.clock.now();
  sleep = (ms: number, signal?: AbortSignal): Promise<void> => this.clock.schedule(this, ms, signal);

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    for (const r of this.resumed.splice(0)) r();
    this.clock.fire();
  }

  /** Resolves at once unless paused: a paused process handles nothing. */
  whenRunning(): Promise<void> {
    return this.paused ? new Promise((r) => this.resumed.push(r)) : Promise.resolve();
  }
}

export interface WireRecord {
  method: string;
  /** 'aborted': the caller's signal ended it (it may or may not have reached the server). */
  status: number | 'reset' | 'aborted';
  /** Virtual time the caller issued the request. */
  startedAt: number;
  /** Virtual time it ended. */
  at: number;
}

export interface FaultyFetchOptions {
  /** Virtual ms added before each request. */
  latencyMs?: () => number;
  /** 'before': the request never reaches the server; 'after': it did, the response is lost. */
  reset?: () => 'before' | 'after' | undefined;
  /** Every 2xx answer to a write, even when the response is then lost to a reset: what the server committed. */
  onCommitted?: (body: string) => void;
  /** While true, every request rejects with ClientClosedError, as k8s-lease-client-node's fetch does after close(). */
  closed?: () => boolean;
}

/** Counts requests in flight across all clients, so the driver can wait for real I/O to settle. */
export const inflight = { count: 0 };

/** A client whose fetch runs on `view` (paused processes neither send nor receive) and may inject resets. */
export function processClient(
  baseUrl: string,
  view: ClockView,
  faults: FaultyFetchOptions = {},
  log: WireRecord[] = [],
): Client {
  const faultyFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const startedAt = view.now();
    const method = init?.method ?? 'GET';
    try {
      return await send(input, init, startedAt);
    } catch (error) {
      // Every request the caller issued is logged, so "wrote nothing" also counts writes cut short.
      if (init?.signal?.aborted) log.push({ method, status: 'aborted', startedAt, at: view.now() });
      throw error;
    }
  };
  const send = async (
    input: string | URL | Request,
    init: RequestInit | undefined,
    startedAt: number,
  ): Promise<Response> => {
    if (faults.closed?.() === true) throw new ClientClosedError({ method: init?.method ?? 'GET', url: String(input) });
    const latency = faults.latencyMs?.() ?? 0;
    if (latency > 0) await view.sleep(latency, init?.signal ?? undefined);
    await view.whenRunning();
    init?.signal?.throwIfAborted();
    const method = init?.method ?? 'GET';
    const reset = faults.reset?.();
    const resetError = (): TypeError =>
      new TypeError('fetch failed', { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) });
    if (reset === 'before') {
      log.push({ method, status: 'reset', startedAt, at: view.now() });
      throw resetError();
    }
    inflight.count++;
    let response: Response;
    try {
      response = await fetch(input, init);
      // Read here, so that the server's answer is complete before the driver counts the I/O as settled.
      const body = await response.text();
      if (response.ok && method !== 'GET') faults.onCommitted?.(body);
      response = new Response(body || null, { status: response.status, headers: response.headers });
    } finally {
      inflight.count--;
    }
    await view.whenRunning();
    init?.signal?.throwIfAborted();
    if (reset === 'after') {
      log.push({ method, status: 'reset', startedAt, at: view.now() });
      throw resetError();
    }
    log.push({ method, status: response.status, startedAt, at: view.now() });
    return response;
  };
  return createClient({ baseUrl, fetch: faultyFetch as typeof fetch });
}

const turn = (): Promise<void> => new Promise((r) => setImmediate(r));
const realMs = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Waits until no request is in flight and the event loop has gone quiet. */
export async function settle(): Promise<void> {
  for (let quiet = 0; quiet < 4; ) {
    await turn();
    if (inflight.count === 0) quiet++;
    else {
      quiet = 0;
      await realMs(1);
    }
  }
}

/** Advances virtual time in ticks, settling after each, calling `each` (e.g. an invariant check) after every tick. */
export async function run(clock: VirtualClock, totalMs: number, tickMs: number, each?: () => void): Promise<void> {
  for (let t = 0; t < totalMs; t += tickMs) {
    clock.advance(tickMs);
    await settle();
    each?.();
  }
}
