// Fault injection for client tests: latency, throttling (429 + Retry-After), HTTP errors (by verb or
// any predicate) and scripted watch connections (cut mid-line, idle, in-stream ERROR, slow, HTTP
// error). Each fault is optional; they are checked in the order the fields are declared below.
import type { IncomingHttpHeaders } from 'node:http';
import type { JsonObject } from '../json.js';
import type { StatusError } from '../status.js';
import { internalError, serviceUnavailable, statusObject, tooManyRequests } from '../status.js';
import type { Route } from './route.js';

/** The verbs of k8s.io/apiserver's RequestInfo; non-resource paths get the lower-cased HTTP method. */
export type RequestVerb =
  | 'get'
  | 'list'
  | 'watch'
  | 'create'
  | 'update'
  | 'patch'
  | 'delete'
  | 'deletecollection'
  | (string & {});

/** The request a fault's `when` predicate is asked about. */
export interface FaultRequest {
  /** The HTTP method, upper-case. */
  method: string;
  /** Request headers as Node parsed them (lower-case names). */
  headers: IncomingHttpHeaders;
  /** The URL path, e.g. `/apis/coordination.k8s.io/v1/namespaces/default/leases/a`. */
  path: string;
  /** The query parameters. */
  query: URLSearchParams;
  /** True for watch requests (?watch=true or /watch/ paths). */
  watch: boolean;
  /** The Kubernetes verb, derived as RequestInfo derives it (get, list, watch, create, update, patch, delete, deletecollection). */
  verb: RequestVerb;
}

/** Picks the requests a fault affects, e.g. `(r) => r.verb === 'update'`. */
export type FaultMatcher = (request: FaultRequest) => boolean;

/** What every fault has: how many requests it affects, and which. */
export interface CountedFault {
  /** How many matching requests to affect; unlimited when omitted (for `watch` plans: 1). */
  count?: number | undefined;
  /** Which requests are affected; all when omitted. */
  when?: FaultMatcher | undefined;
}

/**
 * The connection dies without an answer, as behind a load balancer that drops it: before the request is
 * handled, or (afterCommit) once it was handled and stored, so the client cannot tell whether a write happened.
 */
export interface ConnectionResetFault extends CountedFault {
  /** Reset after the request was handled (a write is then stored) instead of before. */
  afterCommit?: boolean | undefined;
}

/** `LeaseApiFaults.throttle`: answer 429 TooManyRequests, as API Priority and Fairness does. */
export interface ThrottleFault extends CountedFault {
  /** Sent as `Retry-After` and in the Status details; default 1. */
  retryAfterSeconds?: number | undefined;
}

/** `LeaseApiFaults.serverError`: answer 500 InternalError or 503 ServiceUnavailable. */
export interface ServerErrorFault extends CountedFault {
  /** 500 (default) or 503. */
  status?: 500 | 503 | undefined;
  /** The Status message. */
  message?: string | undefined;
}

/** Any HTTP error: by default a Status with the reason Kubernetes gives that code (409 from a POST: AlreadyExists). */
export interface HttpErrorFault extends CountedFault {
  /** The HTTP status code to answer with. */
  status: number;
  /** The Status reason; default the one Kubernetes gives the code. */
  reason?: string | undefined;
  /** The Status message. */
  message?: string | undefined;
  /** Replaces the Status body entirely (serialised as JSON unless a string). */
  body?: unknown | undefined;
  /** Extra response headers, e.g. `Retry-After`. */
  headers?: Record<string, string> | undefined;
}

/** The Status of an in-stream ERROR event; reason and message default from the code. */
export interface WatchErrorStatus {
  /** The Status code, e.g. 410 for an expired resourceVersion. */
  code: number;
  /** The Status reason. */
  reason?: string | undefined;
  /** The Status message. */
  message?: string | undefined;
}

/** What every watch plan of `WatchFault` has: a count, a matcher and a pace. */
export interface WatchPlanBase extends CountedFault {
  /** Each event is written on its own, this many ms after the previous one (instead of batched per tick). */
  eventDelayMs?: number | undefined;
}

/**
 * What one watch connection does. Plans apply to matching watch connections in order, each to
 * `count` connections (default 1); when none is left, watches behave normally.
 */
export type WatchFault =
  /** Normal behaviour (with `eventDelayMs`, a slow stream). */
  | (WatchPlanBase & { kind: 'follow' })
  /** After `afterEvents` events the socket is destroyed; with `midLine` (default true) inside the next event's line, when it comes. */
  | (WatchPlanBase & { kind: 'cut'; afterEvents: number; midLine?: boolean | undefined })
  /** After `afterEvents` events the response ends cleanly. */
  | (WatchPlanBase & { kind: 'end'; afterEvents: number })
  /** After `afterEvents` events, `{"type":"ERROR","object":<Status>}`, then a clean end. */
  | (WatchPlanBase & { kind: 'error'; afterEvents: number; status: WatchErrorStatus })
  /** 200 and headers, then nothing (or only bookmarks every `bookmarkEveryMs`) until the client leaves. */
  | (WatchPlanBase & { kind: 'idle'; bookmarkEveryMs?: number | undefined })
  /** An HTTP error instead of the stream. */
  | (WatchPlanBase & {
      kind: 'http';
      status: number;
      reason?: string | undefined;
      message?: string | undefined;
      body?: unknown | undefined;
      headers?: Record<string, string> | undefined;
    });

/** What `LeaseApiFaults.onWatchFault` is told when a watch fault takes effect. */
export interface InjectedWatchFault {
  /** Which plan took effect. */
  kind: WatchFault['kind'];
  /** The watch request it affected. */
  request: FaultRequest;
}

/**
 * Faults to inject, for testing how a client copes (`LeaseApiServerOptions.faults`, `LeaseApiServer.setFaults`):
 * latency, throttling, server errors, any HTTP error, connection resets and scripted watch connections.
 */
export interface LeaseApiFaults {
  /** Added before every request is handled. */
  latencyMs?: number | undefined;
  /** Answer 429 with Retry-After. */
  throttle?: ThrottleFault | undefined;
  /** Answer 500 or 503. */
  serverError?: ServerErrorFault | undefined;
  /** Answer any status, e.g. `{ status: 409, when: (r) => r.verb === 'update' }`; several are tried in order. */
  httpError?: HttpErrorFault | HttpErrorFault[] | undefined;
  /** Destroy the connection instead of answering (client-side: a reset or a closed socket). Tried after httpError. */
  connectionReset?: ConnectionResetFault | undefined;
  /** Scripts for the next watch connections, in order. */
  watch?: WatchFault[] | undefined;
  /** Called when a watch fault takes effect (a cut, an end, an ERROR event, an idle or HTTP error answer). */
  onWatchFault?: ((fault: InjectedWatchFault) => void) | undefined;
  /** Destroy each watch connection's socket after this many events (no clean end of stream). */
  dropWatchAfterEvents?: number | undefined;
}

/** An injected HTTP answer, already rendered. */
export interface FaultResponse {
  code: number;
  body: string;
  headers: Record<string, string>;
}

/** What an open watch stream must do differently; undefined fields mean normal behaviour. */
export interface StreamFault {
  eventDelayMs?: number | undefined;
  /** Destroy the socket once this many events were queued (midLine: inside the next one). */
  cut?: { afterEvents: number; midLine: boolean } | undefined;
  end?: { afterEvents: number } | undefined;
  error?: { afterEvents: number; line: string } | undefined;
  idle?: { bookmarkEveryMs: number | undefined } | undefined;
  /** Reports that the fault took effect. */
  onEffect: () => void;
}

export type FaultDecision =
  | { kind: 'respond'; response: FaultResponse }
  | { kind: 'stream'; fault: StreamFault }
  | { kind: 'reset'; afterCommit: boolean }
  | undefined;

// The StatusReason for a code as apimachinery's NewGenericServerResponse picks it (409 from a POST is
// AlreadyExists, other 5xx InternalError, the rest Unknown), except 410 and 503, for which
// kube-apiserver sends NewResourceExpired's Expired and NewServiceUnavailable's ServiceUnavailable.
const REASONS: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  409: 'Conflict',
  410: 'Expired',
  422: 'Invalid',
  429: 'TooManyRequests',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

function reasonFor(code: number, method: string | undefined): string {
  if (code === 409 && method === 'POST') return 'AlreadyExists';
  return REASONS[code] ?? (code >= 500 ? 'InternalError' : 'Unknown');
}

function statusError(
  code: number,
  reason: string | undefined,
  message: string | undefined,
  method?: string,
): StatusError {
  const why = reason ?? reasonFor(code, method);
  return { code, reason: why, message: message ?? `injected fault: ${why}` };
}

function rendered(error: StatusError, headers: Record<string, string>): FaultResponse {
  return { code: error.code, body: JSON.stringify(statusObject(error)), headers };
}

function httpAnswer(
  fault: {
    status: number;
    reason?: string | undefined;
    message?: string | undefined;
    body?: unknown | undefined;
    headers?: Record<string, string> | undefined;
  },
  request: FaultRequest,
): FaultResponse {
  const headers = fault.headers ?? {};
  if (fault.body === undefined)
    return rendered(statusError(fault.status, fault.reason, fault.message, request.method), headers);
  return {
    code: fault.status,
    body: typeof fault.body === 'string' ? fault.body : JSON.stringify(fault.body),
    headers,
  };
}

/** The ERROR event line kube-apiserver writes for a Status inside a watch stream. */
export function errorEventLine(status: WatchErrorStatus): string {
  const object: JsonObject = statusObject(statusError(status.code, status.reason, status.message));
  return JSON.stringify({ type: 'ERROR', object });
}

// As k8s.io/apiserver's RequestInfoFactory: method → verb, then collection GET → list (or watch),
// collection DELETE → deletecollection; non-resource requests keep the lower-cased method.
export function requestVerb(route: Route, method: string, watch: boolean): RequestVerb {
  const lower = method.toLowerCase();
  if (route.kind !== 'collection' && route.kind !== 'item') return lower;
  if (watch) return 'watch';
  const collection = route.kind === 'collection';
  switch (method.toUpperCase()) {
    case 'GET':
    case 'HEAD':
      return collection ? 'list' : 'get';
    case 'POST':
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return collection ? 'deletecollection' : 'delete';
    default:
      return lower;
  }
}

function streamFault(plan: WatchFault, onEffect: () => void): StreamFault {
  const base = { eventDelayMs: plan.eventDelayMs, onEffect };
  switch (plan.kind) {
    case 'cut':
      return { ...base, cut: { afterEvents: plan.afterEvents, midLine: plan.midLine ?? true } };
    case 'end':
      return { ...base, end: { afterEvents: plan.afterEvents } };
    case 'error':
      return { ...base, error: { afterEvents: plan.afterEvents, line: errorEventLine(plan.status) } };
    case 'idle':
      return { ...base, idle: { bookmarkEveryMs: plan.bookmarkEveryMs } };
    default:
      return base;
  }
}

interface Counted<T> {
  fault: T;
  left: number;
}

function counted<T extends CountedFault>(fault: T | undefined, defaultCount: number): Counted<T> | undefined {
  return fault === undefined ? undefined : { fault, left: fault.count ?? defaultCount };
}

/** Takes one use of the first fault that matches and has uses left. */
function claim<T extends CountedFault>(faults: readonly Counted<T>[], request: FaultRequest): T | undefined {
  for (const entry of faults) {
    if (entry.left > 0 && (entry.fault.when?.(request) ?? true)) {
      entry.left--;
      return entry.fault;
    }
  }
  return undefined;
}

function asList<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** The live fault configuration: counts decrement as requests consume them. */
export class FaultState {
  private faults: LeaseApiFaults = {};
  private throttle: Counted<ThrottleFault>[] = [];
  private serverErrors: Counted<ServerErrorFault>[] = [];
  private httpErrors: Counted<HttpErrorFault>[] = [];
  private resets: Counted<ConnectionResetFault>[] = [];
  private watchPlans: Counted<WatchFault>[] = [];

  constructor(initial: LeaseApiFaults | undefined) {
    this.set(initial);
  }

  set(faults: LeaseApiFaults | undefined): void {
    this.faults = { ...(faults ?? {}) };
    this.throttle = asList(counted(faults?.throttle, Infinity));
    this.serverErrors = asList(counted(faults?.serverError, Infinity));
    this.httpErrors = asList(faults?.httpError).map((f) => ({ fault: f, left: f.count ?? Infinity }));
    this.resets = asList(counted(faults?.connectionReset, Infinity));
    this.watchPlans = (faults?.watch ?? []).map((f) => ({ fault: f, left: f.count ?? 1 }));
  }

  get latencyMs(): number {
    return this.faults.latencyMs ?? 0;
  }

  get dropWatchAfterEvents(): number | undefined {
    return this.faults.dropWatchAfterEvents;
  }

  /** The injected answer or stream behaviour for this request, if any fault claims it. */
  take(request: FaultRequest): FaultDecision {
    const throttle = claim(this.throttle, request);
    if (throttle !== undefined) {
      const seconds = throttle.retryAfterSeconds ?? 1;
      return { kind: 'respond', response: rendered(tooManyRequests(seconds), { 'Retry-After': String(seconds) }) };
    }
    const failure = claim(this.serverErrors, request);
    if (failure !== undefined) {
      const message = failure.message ?? 'injected fault';
      return {
        kind: 'respond',
        response: rendered(failure.status === 503 ? serviceUnavailable(message) : internalError(message), {}),
      };
    }
    const httpError = claim(this.httpErrors, request);
    if (httpError !== undefined) return { kind: 'respond', response: httpAnswer(httpError, request) };
    const reset = claim(this.resets, request);
    if (reset !== undefined) return { kind: 'reset', afterCommit: reset.afterCommit === true && !request.watch };
    if (!request.watch) return undefined;
    return this.takeWatch(request);
  }

  private takeWatch(request: FaultRequest): FaultDecision {
    const plan = claim(this.watchPlans, request);
    const report = this.faults.onWatchFault;
    const onEffect = (kind: WatchFault['kind']) => (): void => report?.({ kind, request });
    if (plan === undefined) {
      const drop = this.faults.dropWatchAfterEvents;
      if (drop === undefined) return undefined;
      return { kind: 'stream', fault: { cut: { afterEvents: drop, midLine: false }, onEffect: onEffect('cut') } };
    }
    if (plan.kind === 'http') {
      onEffect('http')();
      return { kind: 'respond', response: httpAnswer(plan, request) };
    }
    return { kind: 'stream', fault: streamFault(plan, onEffect(plan.kind)) };
  }
}
