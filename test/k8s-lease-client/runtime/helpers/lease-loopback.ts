// What the middleware tests share: one loopback server per file answering a Lease, Status bodies and a fake sleep.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { RetryOptions } from '../../../../templates/k8s-lease-client/src/runtime/middleware/retries.js';
import { jsonHandler, startLoopback } from '../../../helpers/loopback.js';
import type { Handler, Loopback } from '../../../helpers/loopback.js';

export const LEASE_PATH = '/apis/coordination.k8s.io/v1/namespaces/default/leases/my-lease';
export const lease = {
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name: 'my-lease', namespace: 'default', resourceVersion: '42' },
  spec: {},
};

export function status(code: number, reason: string, extra: object = {}): object {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `injected ${reason}`,
    reason,
    code,
    ...extra,
  };
}

/** Answers `failures` with `failure`, then with `success`. */
export function failThen(failures: number, failure: Handler, success: Handler = jsonHandler(200, lease)): Handler {
  let seen = 0;
  return (request, res) => (seen++ < failures ? failure : success)(request, res);
}

/** Records the waits instead of waiting; aborts like the real sleep. */
export function fakeSleep(): { sleep: NonNullable<RetryOptions['sleep']>; waits: number[] } {
  const waits: number[] = [];
  return {
    waits,
    sleep: async (ms, signal) => {
      waits.push(ms);
      if (signal?.aborted) throw signal.reason;
    },
  };
}

/**
 * One loopback server for the calling test file, started before its first test and closed after its last; before
 * each test it forgets the requests and answers the Lease again. The object returned reads through to that server.
 */
export function leaseLoopback(): Loopback {
  let current: Loopback | undefined;
  beforeAll(async () => {
    current = await startLoopback();
  });
  afterAll(async () => {
    await current?.close();
  });
  beforeEach(() => {
    live().requests.length = 0;
    live().handler = jsonHandler(200, lease);
  });
  const live = (): Loopback => {
    if (current === undefined) throw new Error('the loopback server starts in beforeAll');
    return current;
  };
  return {
    get baseUrl() {
      return live().baseUrl;
    },
    get requests() {
      return live().requests;
    },
    get connections() {
      return live().connections;
    },
    set connections(count) {
      live().connections = count;
    },
    get handler() {
      return live().handler;
    },
    set handler(handler) {
      live().handler = handler;
    },
    close: () => live().close(),
  };
}
