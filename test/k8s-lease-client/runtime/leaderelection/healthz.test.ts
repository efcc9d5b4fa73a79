// The health check of a leader elector: client-go's TestLeaderElectionHealthChecker
// (tools/leaderelection/healthzadaptor_test.go), with LeaseDuration one minute and a 20 s timeout, run against the
// Lease API server on a virtual clock. A paused candidate stands for client-go's stuck leader (its test sets
// observedTime and a fake clock an hour later).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeaseApiServer } from '../../../../templates/k8s-lease-api-server/src/index.js';
import { createLeaderElector } from '../../../../templates/k8s-lease-client/src/runtime/leaderelection/elector.js';
import { createHealthzAdaptor } from '../../../../templates/k8s-lease-client/src/runtime/leaderelection/healthz.js';
import { formatMicroTime } from '../../../../templates/k8s-lease-client/src/runtime/time.js';
import { start } from '../../../k8s-lease-api-server/helpers.js';
import { processClient, settle, VirtualClock } from './harness.js';

const MINUTE = 60_000;
const TIMEOUT = 20_000;
let server: LeaseApiServer;
let seq = 0;

beforeAll(async () => {
  server = await start();
});
afterAll(() => server.close());

/** Candidate `identity` running an election for a fresh Lease on a virtual clock; settled after its first attempt. */
async function running(identity: string, heldBy?: string) {
  const name = `healthz-${++seq}`;
  if (heldBy !== undefined) {
    const at = formatMicroTime(new Date(Date.UTC(2026, 0, 1)));
    const seeded = server.store.create({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name, namespace: 'default' },
      spec: { holderIdentity: heldBy, leaseDurationSeconds: 3600, acquireTime: at, renewTime: at },
    });
    expect(seeded.ok).toBe(true);
  }
  const clock = new VirtualClock();
  const view = clock.view();
  const stop = new AbortController();
  const elector = createLeaderElector({
    client: processClient(server.url, view),
    namespace: 'default',
    name,
    identity,
    leaseDuration: MINUTE,
    clock: view,
    random: () => 0,
    signal: stop.signal,
    onStartedLeading: () => {},
    onStoppedLeading: () => {},
  });
  const done = elector.run();
  await settle();
  const healthz = createHealthzAdaptor(TIMEOUT);
  healthz.setLeaderElection(elector);
  /** The process stops (a deadlock): no renewal runs while the clock moves on by `ms`. */
  const stall = (ms: number): void => {
    view.pause();
    clock.advance(ms);
  };
  const end = async (): Promise<void> => {
    view.resume();
    stop.abort();
    await done;
  };
  return { name, elector, healthz, stall, end };
}

describe('createHealthzAdaptor', () => {
  it("is named leaderElection, as client-go's", () => {
    expect(createHealthzAdaptor(TIMEOUT).name).toBe('leaderElection');
  });

  it('call check before leader elector initialized: healthy', () => {
    expect(createHealthzAdaptor(TIMEOUT).check()).toBeUndefined();
  });

  it('call check when the lease is not expired: healthy', async () => {
    const a = await running('healthTest');
    try {
      expect(a.elector.isLeader()).toBe(true);
      expect(a.healthz.check()).toBeUndefined();
    } finally {
      await a.end();
    }
  });

  it('call check when the lease is far expired: "failed election to renew leadership on lease …"', async () => {
    const a = await running('healthTest');
    try {
      a.stall(60 * MINUTE);
      expect(a.healthz.check()).toEqual(new Error(`failed election to renew leadership on lease default/${a.name}`));
    } finally {
      await a.end();
    }
  });

  it('call check when the lease is expired but inside the timeout: healthy', async () => {
    const a = await running('healthTest');
    try {
      a.stall(MINUTE + 1_000);
      expect(a.healthz.check()).toBeUndefined();
      a.stall(TIMEOUT);
      expect(a.healthz.check()).toBeInstanceOf(Error);
    } finally {
      await a.end();
    }
  });

  it('call check when the lease is far expired but held by another server: healthy', async () => {
    const a = await running('healthTest', 'otherServer');
    try {
      expect(a.elector.getLeader()).toBe('otherServer');
      a.stall(60 * MINUTE);
      expect(a.healthz.check()).toBeUndefined();
    } finally {
      await a.end();
    }
  });

  it('the elector set last is the one checked', async () => {
    const stuck = await running('healthTest');
    const other = await running('healthTest', 'otherServer');
    try {
      stuck.stall(60 * MINUTE);
      const healthz = createHealthzAdaptor(TIMEOUT);
      healthz.setLeaderElection(stuck.elector);
      expect(healthz.check()).toBeInstanceOf(Error);
      healthz.setLeaderElection(other.elector);
      expect(healthz.check()).toBeUndefined();
    } finally {
      await stuck.end();
      await other.end();
    }
  });
});
