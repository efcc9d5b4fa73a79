// Table-driven cases after client-go's leaderelection_test.go, against the Lease API server with a virtual clock.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LeaseApiServer } from '../../../../templates/k8s-lease-api-server/src/index.js';
import type {
  LeaderElector,
  LeaderElectorOptions,
  MicroTime,
} from '../../../../templates/k8s-lease-client/src/runtime/index.js';
import {
  ClientClosedError,
  createClient,
  createHealthzAdaptor,
  ElectorEndedError,
  createLeaderElector,
  withLeaseLock,
} from '../../../../templates/k8s-lease-client/src/runtime/index.js';
import { start } from '../../../k8s-lease-api-server/helpers.js';
import type { ClockView, WireRecord } from './harness.js';
import { processClient, run, settle, VirtualClock } from './harness.js';

const NS = 'default';
const SIX_DIGITS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
let server: LeaseApiServer;
let seq = 0;

beforeAll(async () => {
  // CoordinatedLeaderElection on: otherwise the Lease strategy drops the strategy/preferredHolder the
  // coordinated-election tests write (the controller leaves Leases without LeaseCandidates alone).
  server = await start({ coordinatedLeaderElection: { resyncMs: 0 } });
});
afterAll(() => server.close());
beforeEach(() => server.setFaults(undefined));

interface Candidate {
  elector: LeaderElector;
  view: ClockView;
  log: WireRecord[];
  events: string[];
  leaderSignal: () => AbortSignal | undefined;
  cancel: AbortController;
  done: Promise<void>;
}

function candidate(
  clock: VirtualClock,
  name: string,
  identity: string,
  extra: Partial<LeaderElectorOptions> = {},
): Candidate {
  const view = clock.view();
  const log: WireRecord[] = [];
  const events: string[] = [];
  const cancel = new AbortController();
  let leaderSignal: AbortSignal | undefined;
  const elector = createLeaderElector({
    client: processClient(server.url, view, {}, log),
    namespace: NS,
    name,
    identity,
    clock: view,
    random: () => 0,
    signal: cancel.signal,
    onStartedLeading: (signal) => {
      leaderSignal = signal;
      events.push('started');
    },
    onStoppedLeading: () => events.push('stopped'),
    onNewLeader: (id) => events.push(`leader ${id}`),
    ...extra,
  });
  return { elector, view, log, events, leaderSignal: () => leaderSignal, cancel, done: elector.run() };
}

function spec(name: string): Record<string, unknown> {
  return (server.store.get(NS, name)?.spec ?? {}) as Record<string, unknown>;
}

function seed(name: string, fields: Record<string, unknown>): void {
  const result = server.store.create({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name, namespace: NS },
    spec: fields,
  });
  expect(result.ok).toBe(true);
}

function heldBy(holder: string, at: string, transitions = 3): Record<string, unknown> {
  return {
    holderIdentity: holder,
    leaseDurationSeconds: 15,
    acquireTime: at,
    renewTime: at,
    leaseTransitions: transitions,
  };
}

const writes = (log: WireRecord[]): WireRecord[] => log.filter((r) => r.method === 'PUT' || r.method === 'POST');
const FOREIGN_TIME = '2001-01-01T00:00:00.000000Z';

describe('leader election (client-go semantics)', () => {
  it('acquires when there is no Lease: creates it with transitions 0 and six-digit times', async () => {
    const clock = new VirtualClock();
    const name = `le-${++seq}`;
    const a = candidate(clock, name, 'a');
    await settle();
    expect(a.elector.isLeader()).toBe(true);
    expect(a.events).toEqual(['leader a', 'started']);
    const s = spec(name);
    expect(s).toMatchObject({ holderIdentity: 'a', leaseDurationSeconds: 15, leaseTransitions: 0 });
    expect(s.acquireTime).toMatch(SIX_DIGITS);
    expect(s.renewTime).toBe(s.acquireTime);
    a.cancel.abort();
    await a.done;
  });

  it('gives onStartedLeading the fencing token of its term, kept across renewals, undefined once it stops', async () => {
    // Beyond client-go (which has no fencing): the token is the Lease's leaseTransitions, holder and acquireTime.
    const clock = new VirtualClock();
    const name = `le-${++seq}`;
    seed(name, { ...heldBy('old', FOREIGN_TIME, 4), holderIdentity: '' });
    const tokens: unknown[] = [];
    const a = candidate(clock, name, 'a', {
      onStartedLeading: (_signal, token) => void tokens.push(token),
    });
    await settle();
    const acquired = spec(name);
    const expected = { leaseTransitions: 5, holderIdentity: 'a', acquireTime: acquired.acquireTime };
    expect(tokens).toEqual([expected]);
    expect(a.elector.fencingToken()).toEqual(expected);
    await run(clock, 6_000, 500);
    expect(spec(name).renewTime).not.toBe(acquired.renewTime);
    expect(a.elector.fencingToken()).toEqual(expected);
    a.cancel.abort();
    await a.done;
    expect(a.elector.fencingToken()).toBeUndefined();
  });

  const heldCases = [
    {
      title: 'acquires an expired Lease after leaseDuration of its own observation, counting one transition',
      renewedByOther: false,
      expectLeader: true,
    },
    {
      title: 'does not acquire a Lease whose holder keeps renewing, even though its renewTime is from another clock',
      renewedByOther: true,
      expectLeader: false,
    },
  ];
  it.each(heldCases)('$title', async ({ renewedByOther, expectLeader }) => {
    const clock = new VirtualClock();
    const name = `le-${++seq}`;
    // renewTime far in the past by the other holder's clock: only local observation may count.
    seed(name, heldBy('other', FOREIGN_TIME));
    const b = candidate(clock, name, 'b');
    await settle();
    expect(b.elector.isLeader()).toBe(false);
    expect(b.elector.getLeader()).toBe('other');
    let beat = 0;
    await run(clock, 14_000, 500, () => {
      if (!renewedByOther) return;
      const lease = server.store.get(NS, name);
      if (lease?.spec?.holderIdentity !== 'other') return;
      // The other holder renews (its clock writes whatever it likes).
      if (++beat % 4 === 0)
        server.store.update({
          ...lease,
          spec: {
            ...lease.spec,
            renewTime: `2001-01-01T00:00:${String(beat % 60).padStart(2, '0')}.000000Z` as MicroTime,
          },
        });
    });
    // 14 s: not yet expired by b's observation in either case.
    expect(writes(b.log)).toEqual([]);
    await run(clock, 10_000, 500, () => {
      if (!renewedByOther) return;
      const lease = server.store.get(NS, name);
      if (lease?.spec?.holderIdentity !== 'other') return;
      if (++beat % 4 === 0)
        server.store.update({
          ...lease,
          spec: {
            ...lease.spec,
            renewTime: `2001-01-01T00:01:${String(beat % 60).padStart(2, '0')}.000000Z` as MicroTime,
          },
        });
    });
    expect(b.elector.isLeader()).toBe(expectLeader);
    if (expectLeader) {
      expect(spec(name)).toMatchObject({ holderIdentity: 'b', leaseTransitions: 4 });
      expect(spec(name).acquireTime).not.toBe(FOREIGN_TIME);
      // One write acquired it (PUT over the expired record, no create); the rest are renewals.
      expect(writes(b.log).map((r) => `${r.method} ${r.status}`)).toEqual(Array(writes(b.log).length).fill('PUT 200'));
    } else {
      expect(spec(name)).toMatchObject({ holderIdentity: 'other', leaseTransitions: 3 });
      expect(writes(b.log)).toEqual([]);
    }
    b.cancel.abort();
    await b.done;
  });

  it('renews with one PUT per retryPeriod from its cached object, keeping acquireTime and the transition count', async () => {
    const clock = new VirtualClock();
    const name = `le-${++seq}`;
    const a = candidate(clock, name, 'a');
    await settle();
    const acquired = spec(name);
    a.log.length = 0;
    await run(clock, 10_000, 250);
    expect(a.log.map((r) => `${r.method} ${r.status}`)).toEqual(Array(5).fill('PUT 200'));
    const renewed = spec(name);
    expect(renewed.acquireTime).toBe(acquired.acquireTime);
    expect(renewed.leaseTransitions).toBe(0);
    expect(renewed.renewTime).not.toBe(acquired.renewTime);
    expect(renewed.renewTime).toMatch(SIX_DIGITS);
    expect(a.elector.isLeader()).toBe(true);
    a.cancel.abort();
    await a.done;
  });

  it('on a 409 re-reads (GET) and renews again, still leading', async () => {
    const clock = new VirtualClock();
    const name = `le-${++seq}`;
    const a = candidate(clock, name, 'a');
    await settle();
    a.log.length = 0;
    server.setFaults({ httpError: { status: 409, count: 1, when: (r) => r.verb === 'update' } });
    await run(clock, 2_000, 250);
    expect(a.log.map((r) => `${r.method} ${r.status}`)).toEqual(['PUT 409', 'GET 200', 'PUT 200']);
    expect(a.elector.isLeader()).toBe(true);
    a.cancel.abort();
    await a.done;
  });

  it('on a 409 because another holder wrote, never overwrites it and steps down', async () => {
    const clock = new VirtualClock();
    const name = `le-${++seq}`;
    const a = candidate(clock, name, 'a');
    await settle();
    const lease = server.store.get(NS, name);
    if (lease === undefined) throw new Error('no lease');
    server.store.update({ ...lease, spec: { ...lease.spec, holderIdentity: 'intruder', leaseTransitions: 1 } });
    a.log.length = 0;
    await run(clock, 2_000, 250);
    expect(a.log.map((r) => `${r.method} ${r.status}`)).toEqual(['PUT 409', 'GET 200']);
    expect(spec(name)).toMatchObject({ holderIdentity: 'intruder', leaseTransitions: 1 });
    expect(a.leaderSignal()?.aborted).toBe(true);
    await a.done;
    expect(a.events).toEqual(['leader a', 'started', 'leader intruder', 'stopped']);
  });

  describe("metrics: client-go's LeaderMetric figures (tools/leaderelection/metrics.go)", () => {
    // client-go's leaderelection.go calls leaderOn in acquire() once it succeeded, leaderOff in renew() once its
    // loop ended, and slowpathExercised in tryAcquireOrRenew's step 3 when IsLeader() (a renewal after a GET).
    const recorder = (figures: string[]) => ({
      on: (name: string) => void figures.push(`on ${name}`),
      off: (name: string) => void figures.push(`off ${name}`),
      slowpathExercised: (name: string) => void figures.push(`slowpath ${name}`),
    });

    it('on when it leads; renewals from the cache are no slow path, a 409 then GET + PUT is one; off at the end', async () => {
      const clock = new VirtualClock();
      const name = `le-${++seq}`;
      const figures: string[] = [];
      const a = candidate(clock, name, 'a', { metrics: recorder(figures) });
      await settle();
      await run(clock, 4_000, 250);
      expect(figures).toEqual([`on ${name}`]);
      server.setFaults({ httpError: { status: 409, count: 1, when: (r) => r.verb === 'update' } });
      await run(clock, 2_000, 250);
      expect(figures).toEqual([`on ${name}`, `slowpath ${name}`]);
      a.cancel.abort();
      await a.done;
      expect(figures).toEqual([`on ${name}`, `slowpath ${name}`, `off ${name}`]);
    });

    it('nothing for a candidate that never leads; no slow path counted when another holder took the Lease', async () => {
      const clock = new VirtualClock();
      const waiting = `le-${++seq}`;
      seed(waiting, heldBy('other', FOREIGN_TIME));
      const idle: string[] = [];
      const b = candidate(clock, waiting, 'b', { metrics: recorder(idle) });
      const taken = `le-${++seq}`;
      const lost: string[] = [];
      const a = candidate(clock, taken, 'a', { metrics: recorder(lost) });
      await settle();
      const lease = server.store.get(NS, taken);
      if (lease === undefined) throw new Error('no lease');
      server.store.update({ ...lease, spec: { ...lease.spec, holderIdentity: 'intruder', leaseTransitions: 1 } });
      await run(clock, 2_000, 250);
      await a.done;
      expect(lost).toEqual([`on ${taken}`, `off ${taken}`]);
      b.cancel.abort();
      await b.done;
      expect(idle).toEqual([]);
    });

    it('a hook that throws is reported to onError; the Lease is still renewed', async () => {
      const clock = new VirtualClock();
      const name = `le-${++seq}`;
      const boom = new Error('metrics down');
      const errors: unknown[] = [];
      const a = candidate(clock, name, 'a', {
        onError: (e) => errors.push(e),
        metrics: {
          on: () => {
            throw boom;
          },
          off: () => {},
          slowpathExercised: () => {},
        },
      });
      await settle();
      const acquired = spec(name);
      await run(clock, 4_000, 250);
      expect(errors).toEqual([boom]);
      expect(a.elector.isLeader()).toBe(true);
      expect(spec(name).renewTime).not.toBe(acquired.renewTime);
      a.cancel.abort();
      await a.done;
    });
  });

  it('steps down (aborts the signal) when no renewal succeeds within renewDeadline, and the health check reports a stuck leader', async () => {
    const clock = new VirtualClock();
    const name = `le-${++seq}`;
    const a = candidate(clock, name, 'a');
    const healthz = createHealthzAdaptor(2_000);
    healthz.setLeaderElection(a.elector);
    await settle();
    expect(healthz.check()).toBeUndefined();
    server.setFaults({ serverError: { status: 500 } });
    await run(clock, 9_500, 250);
    expect(a.leaderSignal()?.aborted).toBe(false);
    await run(clock, 2_000, 250);
    expect(a.leaderSignal()?.aborted).toBe(true);
    expect(a.elector.isLeader()).toBe(false);
    await a.done;
    expect(a.events.at(-1)).toBe('stopped');
    // Still the recorded holder, no longer renewing: unhealthy once leaseDuration + 2 s have passed since the last renewal.
    expect(healthz.check()).toBeUndefined();
    clock.advance(8_000);
    expect(healthz.check()?.message).toMatch(/failed election to renew leadership/);
  });

  const releaseCases = [
    {
      title: 'releases on cancel: holder cleared, leaseDurationSeconds 1, transitions kept',
      conflicts: 0,
      expected: ['GET 200', 'PUT 200'],
    },
    {
      title: 'releases on cancel through a conflict, re-reading and retrying',
      conflicts: 1,
      expected: ['GET 200', 'PUT 409', 'GET 200', 'PUT 200'],
    },
  ];
  it.each(releaseCases)('$title', async ({ conflicts, expected }) => {
    const clock = new VirtualClock();
    const name = `le-${++seq}`;
    seed(name, { ...heldBy('old', FOREIGN_TIME, 7), holderIdentity: '', leaseDurationSeconds: 1 });
    const a = candidate(clock, name, 'a', { releaseOnCancel: true });
    await settle();
    expect(spec(name)).toMatchObject({ holderIdentity: 'a', leaseTransitions: 8 });
    a.log.length = 0;
    if (conflicts > 0)
      server.setFaults({ httpError: { status: 409, count: conflicts, when: (r) => r.verb === 'update' } });
    a.cancel.abort();
    await settle();
    await a.done;
    expect(a.log.map((r) => `${r.method} ${r.status}`)).toEqual(expected);
    expect(spec(name)).toMatchObject({ holderIdentity: '', leaseDurationSeconds: 1, leaseTransitions: 8 });
    expect(a.leaderSignal()?.aborted).toBe(true);
    expect(a.events.at(-1)).toBe('stopped');
    // Released: another candidate takes over after 1 s, not 15.
    const b = candidate(clock, name, 'b');
    await settle();
    await run(clock, 2_000, 250);
    expect(b.elector.isLeader()).toBe(true);
    expect(spec(name)).toMatchObject({ holderIdentity: 'b', leaseTransitions: 9 });
    b.cancel.abort();
    await b.done;
  });

  it('coordinated election (1.31+): yields at the end of its term to the preferredHolder, never writing those fields', async () => {
    const clock = new VirtualClock();
    const name = `le-${++seq}`;
    const a = candidate(clock, name, 'a');
    await settle();
    const b = candidate(clock, name, 'b');
    await settle();
    const lease = server.store.get(NS, name);
    if (lease === undefined) throw new Error('no lease');
    server.store.update({
      ...lease,
      spec: { ...lease.spec, preferredHolder: 'b', strategy: 'OldestEmulationVersion' },
    });
    a.log.length = 0;
    await run(clock, 2_000, 250);
    expect(a.elector.observed()).toMatchObject({
      holderIdentity: 'a',
      preferredHolder: 'b',
      strategy: 'OldestEmulationVersion',
    });
    expect(a.leaderSignal()?.aborted).toBe(false);
    await run(clock, 30_000, 250);
    expect(a.leaderSignal()?.aborted).toBe(true);
    expect(b.elector.isLeader()).toBe(true);
    expect(spec(name)).toMatchObject({
      holderIdentity: 'b',
      leaseTransitions: 1,
      preferredHolder: 'b',
      strategy: 'OldestEmulationVersion',
    });
    // The renewal in flight when the fields appeared failed on the resourceVersion; after that, only reads.
    expect(a.log.filter((r) => r.method === 'PUT').map((r) => r.status)).toEqual([409]);
    await a.done;
    b.cancel.abort();
    await b.done;
  });

  it('coordinated election (1.31+): with five candidates, only the preferredHolder takes the Lease once it expires', async () => {
    const clock = new VirtualClock();
    const name = `le-${++seq}`;
    const a = candidate(clock, name, 'a');
    await settle();
    const others = ['c1', 'c2', 'c3', 'b'].map((id) => candidate(clock, name, id));
    await settle();
    const lease = server.store.get(NS, name);
    if (lease === undefined) throw new Error('no lease');
    server.store.update({
      ...lease,
      spec: { ...lease.spec, preferredHolder: 'b', strategy: 'OldestEmulationVersion' },
    });
    const holders: string[] = [];
    await run(clock, 60_000, 250, () => {
      const holder = String(spec(name).holderIdentity);
      if (holders.at(-1) !== holder) holders.push(holder);
    });
    // a's term ends, then b leads: no pointless terms of c1, c2 or c3 in between.
    expect(holders).toEqual(['a', 'b']);
    expect(spec(name)).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1 });
    for (const c of others.slice(0, 3)) expect(writes(c.log)).toEqual([]);
    const b = others[3];
    expect(b?.elector.isLeader()).toBe(true);
    expect(b?.events).toContain('started');
    await a.done;
    for (const c of others) c.cancel.abort();
    await Promise.all(others.map((c) => c.done));
  });

  it('a lock for one-off work: acquires, runs, releases', async () => {
    const name = `le-${++seq}`;
    const client = createClient({ baseUrl: server.url });
    const result = await withLeaseLock(
      { client, namespace: NS, name, identity: 'job-1', leaseDuration: 2_000, renewDeadline: 1_500, retryPeriod: 300 },
      async (signal) => {
        expect(spec(name)).toMatchObject({ holderIdentity: 'job-1' });
        return signal.aborted ? 'lost' : 'done';
      },
    );
    expect(result).toBe('done');
    expect(spec(name)).toMatchObject({ holderIdentity: '', leaseDurationSeconds: 1 });
  });

  const lossCases = [
    {
      title: 'another client takes the Lease over with a PUT',
      lose: (name: string) => {
        const lease = server.store.get(NS, name);
        if (lease === undefined) throw new Error('no lease');
        server.store.update({ ...lease, spec: { ...lease.spec, holderIdentity: 'thief' } });
      },
      holder: 'thief',
    },
    {
      title: 'the server answers 500 to every update past renewDeadline',
      lose: () => server.setFaults({ serverError: { status: 500, when: (r) => r.verb === 'update' } }),
      holder: 'job-1',
    },
  ];
  it.each(lossCases)(
    "a lock for one-off work: when $title, the work's signal aborts and the lock rejects",
    async ({ lose, holder }) => {
      const clock = new VirtualClock();
      const view = clock.view();
      const name = `le-${++seq}`;
      const errors: unknown[] = [];
      let started = false;
      let workSignal: AbortSignal | undefined;
      const locked = withLeaseLock(
        {
          client: processClient(server.url, view),
          namespace: NS,
          name,
          identity: 'job-1',
          clock: view,
          random: () => 0,
          onError: (e) => errors.push(e),
        },
        (signal) => {
          started = true;
          workSignal = signal;
          // Work that runs until told to stop, and then (wrongly) resolves anyway: the lock must still refuse the result.
          return new Promise<string>((resolve) =>
            signal.addEventListener('abort', () => resolve('finished after the loss')),
          );
        },
      );
      const outcome = locked.then(
        () => 'resolved',
        (error: unknown) => error,
      );
      await settle();
      expect(started).toBe(true);
      lose(name);
      await run(clock, 11_000, 250);
      expect(workSignal?.aborted).toBe(true);
      expect(await outcome).toBeInstanceOf(Error);
      expect(String(await outcome)).toMatch(/stopped leading default\/le-\d+/);
      expect(spec(name)).toMatchObject({ holderIdentity: holder });
    },
  );

  describe('callbacks cannot break the election', () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => {
      unhandled.push(reason);
    };
    beforeAll(() => process.on('unhandledRejection', onUnhandled));
    afterAll(() => process.off('unhandledRejection', onUnhandled));

    const boom = new Error('boom');
    const failing: Array<[string, Partial<LeaderElectorOptions>, unknown[]]> = [
      // The README's idiom: the work rejects with the signal's reason once it is told to stop. That is no error.
      [
        'an async onStartedLeading that rejects on step-down',
        {
          onStartedLeading: (signal) =>
            new Promise<void>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
        },
        [],
      ],
      [
        'an async onStartedLeading that rejects while leading',
        { onStartedLeading: () => Promise.reject(boom) },
        [boom],
      ],
      [
        'an onStartedLeading that throws',
        {
          onStartedLeading: () => {
            throw boom;
          },
        },
        [boom],
      ],
      [
        'an onNewLeader that throws',
        {
          onNewLeader: () => {
            throw boom;
          },
        },
        [boom],
      ],
      [
        'an onStoppedLeading that throws',
        {
          onStoppedLeading: () => {
            throw boom;
          },
        },
        [boom],
      ],
    ];
    it.each(failing)(
      '%s: reported, the Lease is still renewed and released, run() resolves',
      async (_title, callbacks, expectedErrors) => {
        const clock = new VirtualClock();
        const name = `le-${++seq}`;
        const errors: unknown[] = [];
        unhandled.length = 0;
        const a = candidate(clock, name, 'a', { releaseOnCancel: true, onError: (e) => errors.push(e), ...callbacks });
        await settle();
        await run(clock, 6_000, 250);
        expect(a.elector.isLeader()).toBe(true);
        expect(spec(name)).toMatchObject({ holderIdentity: 'a' });
        a.cancel.abort();
        await settle();
        await expect(a.done).resolves.toBeUndefined();
        await settle();
        expect(spec(name)).toMatchObject({ holderIdentity: '', leaseDurationSeconds: 1 });
        expect(errors).toEqual(expectedErrors);
        expect(unhandled).toEqual([]);
      },
    );

    it('onStoppedLeading is called for a candidate that never led', async () => {
      const clock = new VirtualClock();
      const name = `le-${++seq}`;
      seed(name, heldBy('other', FOREIGN_TIME));
      const b = candidate(clock, name, 'b', { releaseOnCancel: true });
      await settle();
      await run(clock, 4_000, 250);
      b.cancel.abort();
      await b.done;
      expect(b.events).toEqual(['leader other', 'stopped']);
      expect(spec(name)).toMatchObject({ holderIdentity: 'other' });
    });
  });

  describe('request errors are reported, not swallowed', () => {
    let guarded: LeaseApiServer;
    beforeAll(async () => {
      guarded = await start({ token: 'good', forbiddenTokens: ['denied'] });
    });
    afterAll(() => guarded.close());

    const electWith = (clientToken: string, onError?: (error: unknown) => void): Candidate => {
      const clock = new VirtualClock();
      const view = clock.view();
      const cancel = new AbortController();
      const events: string[] = [];
      const elector = createLeaderElector({
        client: createClient({ baseUrl: guarded.url, token: clientToken }),
        namespace: NS,
        name: `le-${++seq}`,
        identity: 'a',
        clock: view,
        signal: cancel.signal,
        onStartedLeading: () => void events.push('started'),
        onStoppedLeading: () => void events.push('stopped'),
        ...(onError === undefined ? {} : { onError }),
      });
      const c: Candidate = {
        elector,
        view,
        log: [],
        events,
        leaderSignal: () => undefined,
        cancel,
        done: elector.run(),
      };
      void (async () => {
        for (let i = 0; i < 5; i++) {
          await settle();
          clock.advance(5_000);
        }
        await settle();
        cancel.abort();
      })();
      return c;
    };

    const cases = [
      { title: 'a 403 (a token that may not touch Leases)', token: 'denied', status: 403, reason: 'Forbidden' },
      { title: 'a 401 (a wrong token)', token: 'wrong', status: 401, reason: 'Unauthorized' },
    ];
    it.each(cases)(
      '$title reaches onError on every attempt, and the elector never leads',
      async ({ token, status, reason }) => {
        const errors: unknown[] = [];
        const c = electWith(token, (e) => errors.push(e));
        await c.done;
        expect(c.events).toEqual(['stopped']);
        expect(errors.length).toBeGreaterThanOrEqual(3);
        for (const error of errors) expect(error).toMatchObject({ status, reason });
        // The Lease was never created: the server refused before storing anything.
        expect(guarded.store.get(NS, `le-${seq}`)).toBeUndefined();
      },
    );

    it('by default warns once per distinct message', async () => {
      const warnings: unknown[][] = [];
      const warn = console.warn;
      console.warn = (...args: unknown[]) => void warnings.push(args);
      try {
        const c = electWith('denied');
        await c.done;
      } finally {
        console.warn = warn;
      }
      expect(warnings).toHaveLength(1);
      expect(String(warnings[0]?.[0])).toMatch(/^leader election default\/le-\d+ \(a\): GET .* 403 Forbidden/);
    });
  });

  const client = createClient({ baseUrl: 'http://127.0.0.1:1' });
  const base: LeaderElectorOptions = {
    client,
    namespace: NS,
    name: 'x',
    identity: 'me',
    onStartedLeading: () => {},
    onStoppedLeading: () => {},
  };
  const invalid: Array<[string, Partial<LeaderElectorOptions>, string]> = [
    [
      'leaseDuration equal to renewDeadline',
      { leaseDuration: 10_000, renewDeadline: 10_000 },
      'leaseDuration must be greater than renewDeadline',
    ],
    [
      'renewDeadline not above 1.2 x retryPeriod',
      { renewDeadline: 2_400, retryPeriod: 2_000 },
      'renewDeadline must be greater than retryPeriod*JitterFactor',
    ],
    [
      'retryPeriod zero',
      { retryPeriod: 0, renewDeadline: 1_000, leaseDuration: 2_000 },
      'retryPeriod must be greater than zero',
    ],
    ['negative retryPeriod', { retryPeriod: -5 }, 'retryPeriod must be greater than zero'],
    [
      'NaN leaseDuration',
      { leaseDuration: Number.NaN },
      'leaseDuration, renewDeadline and retryPeriod must be finite numbers of ms',
    ],
    [
      'leaseDuration below one second',
      { leaseDuration: 900, renewDeadline: 500, retryPeriod: 100 },
      'leaseDuration must be at least 1000 ms (the Lease holds whole seconds)',
    ],
    ['empty identity', { identity: '' }, 'identity must be a non-empty string'],
    // 1999 ms goes on the wire as 1 s: the others would take over 1 s after the leader's last renewal while its own term runs 1.9 s.
    [
      'renewDeadline not below the whole seconds of leaseDuration',
      { leaseDuration: 1_999, renewDeadline: 1_900, retryPeriod: 100 },
      'renewDeadline must be less than the whole seconds of leaseDuration written to the Lease (1000 ms), got renewDeadline 1900',
    ],
    [
      'renewDeadline equal to the whole seconds of leaseDuration',
      { leaseDuration: 2_500, renewDeadline: 2_000, retryPeriod: 100 },
      'renewDeadline must be less than the whole seconds of leaseDuration written to the Lease (2000 ms), got renewDeadline 2000',
    ],
    [
      'no client',
      { client: undefined as unknown as LeaderElectorOptions['client'] },
      'client must be a client from createClient',
    ],
    [
      'a client without request',
      { client: { baseUrl: 'x' } as unknown as LeaderElectorOptions['client'] },
      'client must be a client from createClient',
    ],
  ];
  it.each(invalid)('rejects %s with a one-line error', (_title, patch, message) => {
    let error: unknown;
    try {
      createLeaderElector({ ...base, ...patch });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RangeError);
    expect((error as Error).message).toBe(`invalid leader election options: ${message}`);
    expect((error as Error).message).not.toContain('\n');
  });

  it('accepts the defaults (15 s, 10 s, 2 s) and rejects a name that is not an RFC 1123 subdomain', () => {
    expect(() => createLeaderElector(base)).not.toThrow();
    expect(() =>
      createLeaderElector({ ...base, leaseDuration: 2_999, renewDeadline: 1_900, retryPeriod: 100 }),
    ).not.toThrow();
    expect(() => createLeaderElector({ ...base, name: '../x' })).toThrow(/RFC 1123 subdomain/);
  });
});

describe('misuse and a closed client end the run loudly', () => {
  it('run() while running returns the same promise; once ended, run() rejects with ElectorEndedError at once', async () => {
    const clock = new VirtualClock();
    const a = candidate(clock, `le-${++seq}`, 'a');
    expect(a.elector.run()).toBe(a.done);
    await settle();
    a.cancel.abort();
    await a.done;
    // A "rejoin" loop that calls run() again would otherwise spin: each call must fail, naming the way out.
    for (let i = 0; i < 3; i++) {
      const again = a.elector.run();
      await expect(again).rejects.toBeInstanceOf(ElectorEndedError);
      await expect(again).rejects.toThrow(/has ended: create a new one with createLeaderElector/);
    }
    expect(a.events.filter((e) => e === 'stopped')).toHaveLength(1);
  });

  const closable = (view: ClockView): { client: ReturnType<typeof processClient>; close: () => void } => {
    let closed = false;
    return { client: processClient(server.url, view, { closed: () => closed }), close: () => void (closed = true) };
  };

  it.each([
    { title: 'before it ever leads', leadFirst: false },
    { title: 'while it leads', leadFirst: true },
  ])(
    'run() on a client closed $title rejects with ClientClosedError after onStoppedLeading, not retrying forever',
    async ({ leadFirst }) => {
      const clock = new VirtualClock();
      const view = clock.view();
      const name = `le-${++seq}`;
      if (!leadFirst) seed(name, heldBy('other', FOREIGN_TIME));
      const { client, close } = closable(view);
      const errors: unknown[] = [];
      const a = candidate(clock, name, 'a', { client, releaseOnCancel: true, onError: (e) => errors.push(e) });
      const outcome = a.done.then(
        () => 'resolved',
        (error: unknown) => error,
      );
      await settle();
      expect(a.elector.isLeader()).toBe(leadFirst);
      close();
      await run(clock, 6_000, 500);
      const error = await outcome;
      expect(error).toBeInstanceOf(ClientClosedError);
      expect(a.events.at(-1)).toBe('stopped');
      expect(a.leaderSignal()?.aborted ?? true).toBe(true);
      expect(a.elector.isLeader()).toBe(false);
      // The closed client is the run's answer, not a failure to report on every retry.
      expect(errors).toEqual([]);
      await expect(a.elector.run()).rejects.toBeInstanceOf(ElectorEndedError);
    },
  );

  it("two replicas starting together: the lost create race (409 AlreadyExists) is a failed attempt, not onError's (client-go's tryAcquireOrRenew returns false)", async () => {
    const clock = new VirtualClock();
    const name = `le-${++seq}`;
    const errors: unknown[] = [];
    const a = candidate(clock, name, 'a', { onError: (e) => errors.push(e) });
    const b = candidate(clock, name, 'b', { onError: (e) => errors.push(e) });
    await settle();
    // Both found no Lease and both sent a create: exactly one was refused 409.
    const creates = [...a.log, ...b.log].filter((r) => r.method === 'POST').map((r) => r.status);
    expect(creates.sort()).toEqual([201, 409]);
    expect([a.elector.isLeader(), b.elector.isLeader()].filter(Boolean)).toHaveLength(1);
    expect(errors).toEqual([]);
    a.cancel.abort();
    b.cancel.abort();
    await Promise.all([a.done, b.done]);
  });
});
