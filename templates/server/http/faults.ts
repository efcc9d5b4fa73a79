// Fault injection for client tests: latency, throttling (429 + Retry-After), server errors and
// watch connections that die mid-stream. Each fault is optional and they compose in that order.
import type { StatusError } from '../status.js';
import { internalError, serviceUnavailable, tooManyRequests } from '../status.js';

export interface FaultRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** True for watch requests (?watch=true or /watch/ paths). */
  watch: boolean;
}

export type FaultMatcher = (request: FaultRequest) => boolean;

export interface CountedFault {
  /** How many matching requests to affect; unlimited when omitted. */
  count?: number;
  /** Which requests are affected; all when omitted. */
  when?: FaultMatcher;
}

export interface ThrottleFault extends CountedFault {
  retryAfterSeconds?: number;
}

export interface ServerErrorFault extends CountedFault {
  status?: 500 | 503;
  message?: string;
}

export interface LeaseApiFaults {
  /** Added before every request is handled. */
  latencyMs?: number;
  /** Answer 429 with Retry-After. */
  throttle?: ThrottleFault;
  /** Answer 500 or 503. */
  serverError?: ServerErrorFault;
  /** Destroy each watch connection's socket after this many events (no clean end of stream). */
  dropWatchAfterEvents?: number;
}

export type FaultResponse = { error: StatusError; headers: Record<string, string> };

/** The live fault configuration: counts decrement as requests consume them. */
export class FaultState {
  private faults: LeaseApiFaults = {};
  private throttleLeft = 0;
  private errorsLeft = 0;

  constructor(initial: LeaseApiFaults | undefined) {
    this.set(initial);
  }

  set(faults: LeaseApiFaults | undefined): void {
    this.faults = { ...(faults ?? {}) };
    this.throttleLeft = faults?.throttle?.count ?? Infinity;
    this.errorsLeft = faults?.serverError?.count ?? Infinity;
  }

  get latencyMs(): number {
    return this.faults.latencyMs ?? 0;
  }

  get dropWatchAfterEvents(): number | undefined {
    return this.faults.dropWatchAfterEvents;
  }

  /** The injected response for this request, if any fault claims it. */
  take(request: FaultRequest): FaultResponse | undefined {
    const throttle = this.faults.throttle;
    if (throttle !== undefined && this.throttleLeft > 0 && (throttle.when?.(request) ?? true)) {
      this.throttleLeft--;
      const seconds = throttle.retryAfterSeconds ?? 1;
      return { error: tooManyRequests(seconds), headers: { 'Retry-After': String(seconds) } };
    }
    const failure = this.faults.serverError;
    if (failure !== undefined && this.errorsLeft > 0 && (failure.when?.(request) ?? true)) {
      this.errorsLeft--;
      const message = failure.message ?? 'injected fault';
      return { error: failure.status === 503 ? serviceUnavailable(message) : internalError(message), headers: {} };
    }
    return undefined;
  }
}
