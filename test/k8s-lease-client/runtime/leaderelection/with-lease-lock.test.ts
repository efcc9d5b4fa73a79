// withLeaseLock: a Lease as a lock for one-off work, built on the elector with releaseOnCancel. The happy path and a
// lost Lease are elector.test.ts's; here, how work's failures and the caller's cancel come out, and that the Lease
// is released whatever happens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeaseApiServer } from '../../../../templates/k8s-lease-api-server/src/index.js';
import { withLeaseLock } from '../../../../templates/k8s-lease-client/src/runtime/leaderelection/with-lease-lock.js';
import type { LeaseLockOptions } from '../../../../templates/k8s-lease-client/src/runtime/leaderelection/with-lease-lock.js';
import { formatMicroTime } from '../../../../templates/k8s-lease-client/src/runtime/time.js';
import { createClient } from '../../../../templates/k8s-lease-client/src/runtime/transport.js';
import { start } from '../../../k8s-lease-api-server/helpers.js';
import { rejectionOf } from '../../../helpers/rejection.js';

const NS = 'default';
let server: LeaseApiServer;
let seq = 0;

beforeAll(async () => {
  server = await start();
});
afterAll(() => server.close());

function options(signal?: AbortSignal): LeaseLockOptions & { name: string } {
  return {
    client: createClient({ baseUrl: server.url }),
    namespace: NS,
    name: `lock-${++seq}`,
    identity: 'job-1',
    leaseDuration: 2_000,
    renewDeadline: 1_500,
    retryPeriod: 300,
    onError: () => {},
    signal,
  };
}

const spec = (name: string): Record<string, unknown> =>
  (server.store.get(NS, name)?.spec ?? {}) as Record<string, unknown>;

describe('withLeaseLock', () => {
  it("rejects with work's own error, after releasing the Lease", async () => {
    const opts = options();
    const failure = new Error('job failed');
    const error = await rejectionOf(
      withLeaseLock(opts, async () => {
        expect(spec(opts.name)).toMatchObject({ holderIdentity: 'job-1' });
        throw failure;
      }),
    );
    expect(error).toBe(failure);
    expect(spec(opts.name)).toMatchObject({ holderIdentity: '', leaseDurationSeconds: 1 });
  });

  it("a caller that already cancelled: rejects with the signal's reason, nothing runs, no Lease is made", async () => {
    const cancel = new AbortController();
    const reason = new Error('not today');
    cancel.abort(reason);
    const opts = options(cancel.signal);
    let ran = false;
    const error = await rejectionOf(
      withLeaseLock(opts, async () => {
        ran = true;
      }),
    );
    expect(error).toBe(reason);
    expect(ran).toBe(false);
    expect(server.store.get(NS, opts.name)).toBeUndefined();
  });

  it('a caller that cancels while another holds the Lease: rejects with the reason, work never runs', async () => {
    const cancel = new AbortController();
    const opts = options(cancel.signal);
    const now = formatMicroTime(new Date());
    const seeded = server.store.create({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: opts.name, namespace: NS },
      spec: { holderIdentity: 'other', leaseDurationSeconds: 3600, acquireTime: now, renewTime: now },
    });
    expect(seeded.ok).toBe(true);
    let ran = false;
    const locked = rejectionOf(
      withLeaseLock(opts, async () => {
        ran = true;
      }),
    );
    setTimeout(() => cancel.abort(new Error('gave up waiting')), 200);
    expect(await locked).toEqual(new Error('gave up waiting'));
    expect(ran).toBe(false);
    expect(spec(opts.name)).toMatchObject({ holderIdentity: 'other' });
  });

  it("a caller that cancels during work: work's signal aborts, the lock rejects with that signal's reason, the Lease is released", async () => {
    const cancel = new AbortController();
    const opts = options(cancel.signal);
    const reason = new Error('shutting down');
    let workSignal: AbortSignal | undefined;
    const error = await rejectionOf(
      withLeaseLock(opts, (signal) => {
        workSignal = signal;
        setTimeout(() => cancel.abort(reason), 50);
        // Work that finishes once told to stop: its result comes too late to be trusted as exclusive.
        return new Promise<string>((resolve) => signal.addEventListener('abort', () => resolve('late')));
      }),
    );
    expect(workSignal?.aborted).toBe(true);
    // The reason of work's signal (the elector stepping down), as the JSDoc says, not the caller's.
    expect(error).toBe(workSignal?.reason);
    expect(error).toEqual(new Error(`stopped leading default/${opts.name}`));
    expect(spec(opts.name)).toMatchObject({ holderIdentity: '', leaseDurationSeconds: 1 });
  });

  it('resolves with what work resolved, once', async () => {
    const opts = options();
    let runs = 0;
    expect(await withLeaseLock(opts, async () => ++runs)).toBe(1);
    expect(runs).toBe(1);
  });
});
