// One piece of work shared by concurrent callers, each waiting only as long as its own call allows. oidc.go holds a
// mutex across a refresh so concurrent requests wait for one refresh; here each request also gives up at its own
// timeout or abort, and the shared work is aborted once nobody waits for it, so a hung issuer holds nothing open.

/** What k8s-lease-client hands a token provider function per call (its `TokenProvider` argument). */
export interface TokenCall {
  /** The call's abort signal. */
  readonly signal?: AbortSignal | undefined;
  /** The call's timeout in ms. */
  readonly timeoutMs?: number | undefined;
}

interface Flight<T> {
  readonly promise: Promise<T>;
  readonly controller: AbortController;
  waiters: number;
}

/**
 * A function that starts `work` (or joins the run under way) and resolves with its result. A caller whose
 * `timeoutMs` passes first rejects with `onTimeout(timeoutMs)`; one whose signal aborts rejects with the signal's
 * reason, as fetch does. When the last caller has given up, the signal handed to `work` aborts and the next call
 * starts afresh. A `timeoutMs` that is not a finite number >= 0 is left for the client to refuse.
 */
export function sharedFlight<T>(
  work: (signal: AbortSignal) => Promise<T>,
  onTimeout: (timeoutMs: number) => Error,
): (call?: TokenCall) => Promise<T> {
  let flight: Flight<T> | undefined;
  const start = (): Flight<T> => {
    const controller = new AbortController();
    const started: Flight<T> = { promise: work(controller.signal), controller, waiters: 0 };
    const land = (): void => {
      if (flight === started) flight = undefined;
    };
    started.promise.then(land, land);
    return started;
  };
  return (call) => {
    const signal = call?.signal;
    if (signal?.aborted) return Promise.reject(signal.reason);
    flight ??= start();
    return wait(flight, signal, boundMs(call?.timeoutMs), onTimeout, (left) => {
      if (flight === left) flight = undefined;
    });
  };
}

function boundMs(timeoutMs: number | undefined): number | undefined {
  return timeoutMs !== undefined && timeoutMs >= 0 && timeoutMs < Infinity ? timeoutMs : undefined;
}

/** One caller's wait on `flight`; the last to give up aborts it and calls `abandoned`. */
function wait<T>(
  flight: Flight<T>,
  signal: AbortSignal | undefined,
  timeoutMs: number | undefined,
  onTimeout: (timeoutMs: number) => Error,
  abandoned: (flight: Flight<T>) => void,
): Promise<T> {
  flight.waiters++;
  return new Promise<T>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let done = false;
    const leave = (): boolean => {
      if (done) return false;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      flight.waiters--;
      return true;
    };
    const giveUp = (reason: unknown): void => {
      if (!leave()) return;
      if (flight.waiters === 0) {
        flight.controller.abort(reason);
        abandoned(flight);
      }
      reject(reason);
    };
    const onAbort = (): void => giveUp(signal?.reason);
    signal?.addEventListener('abort', onAbort);
    if (timeoutMs !== undefined) timer = setTimeout(() => giveUp(onTimeout(timeoutMs)), timeoutMs);
    flight.promise.then(
      (value) => {
        if (leave()) resolve(value);
      },
      (error: unknown) => {
        if (leave()) reject(error);
      },
    );
  });
}
