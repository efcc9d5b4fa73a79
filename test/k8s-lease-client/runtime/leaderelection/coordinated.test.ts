// Coordinated leader election end to end: LeaseCandidates, coordinated electors and the server's
// controller, on one virtual clock (the server's clock and every process's), so nothing here is timed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeaseApiServer } from '../../../../templates/k8s-lease-api-server/src/index.js';
import { createCandidate, createLeaderElector } from '../../../../templates/k8s-lease-client/src/runtime/index.js';
import { start } from '../../../k8s-lease-api-server/helpers.js';
import type { ClockView } from './harness.js';
import { processClient, settle, VirtualClock } from './harness.js';

const NS = 'default';
const LEASE = 'kube-scheduler';
const clock = new VirtualClock();
let server: LeaseApiServer;

beforeAll(async () => {
  server = await start({ release: '1.34', clock: clock.now, coordinatedLeaderElection: { resyncMs: 0 } });
});
afterAll(() => server.close());

interface Participant {
  name: string;
  leading: () => boolean;
  /** Starts the elector (the candidate runs from the start). */
  elect: () => void;
  stop: () => void;
  done: () => Promise<void>;
}

/** One process: its LeaseCandidate, and a coordinated elector that runs again whenever a term ends (as a restarting component). */
function participant(name: string, version: string): Participant {
  const view: ClockView = clock.view();
  const client = processClient(server.url, view);
  const stop = new AbortController();
  let leading = false;
  const candidate = createCandidate({
    client,
    namespace: NS,
    name,
    leaseName: LEASE,
    binaryVersion: version,
    emulationVersion: version,
    renewInterval: 60_000,
    pingPollInterval: 500,
    clock: view,
    signal: stop.signal,
  });
  const electing = async (): Promise<void> => {
    while (!stop.signal.aborted) {
      await createLeaderElector({
        client,
        namespace: NS,
        name: LEASE,
        identity: name,
        coordinated: true,
        leaseDuration: 4_000,
        renewDeadline: 3_000,
        retryPeriod: 1_000,
        clock: view,
        random: () => 0,
        signal: stop.signal,
        onStartedLeading: () => {
          leading = true;
        },
        onStoppedLeading: () => {
          leading = false;
        },
      }).run();
    }
  };
  const running: Promise<void>[] = [candidate.run()];
  return {
    name,
    leading: () => leading,
    elect: () => void running.push(electing()),
    stop: () => stop.abort(),
    done: () => Promise.all(running).then(() => undefined),
  };
}

const everyone: Participant[] = [];
/** Every change of who believes it leads, in virtual time: the proof that two never lead at once. */
const timeline: string[] = [];

function holder(): string {
  return String(server.store.get(NS, LEASE)?.spec?.holderIdentity ?? '');
}

async function runFor(ms: number, tick = 250): Promise<void> {
  for (let t = 0; t < ms; t += tick) {
    clock.advance(tick);
    await settle();
    server.reconcileLeaderElection();
    await settle();
    const leaders = everyone.filter((p) => p.leading()).map((p) => p.name);
    expect(leaders.length, `two leaders at ${clock.now()}: ${leaders.join(', ')}`).toBeLessThanOrEqual(1);
    const entry = leaders[0] ?? '-';
    if (timeline.at(-1) !== entry) timeline.push(entry);
  }
}

describe('coordinated leader election (CoordinatedLeaderElection, OldestEmulationVersion)', () => {
  it('elects the oldest emulation version, hands over through preferredHolder at the end of the term, and moves on when a candidate stops', async () => {
    everyone.push(
      participant('apiserver-b', '1.34.0'),
      participant('apiserver-a', '1.33.0'),
      participant('apiserver-c', '1.34.0'),
    );
    // The candidacies land first (the controller may name whichever arrives first, then prefer apiserver-a), then the electors start.
    await settle();
    for (const p of everyone) p.elect();
    await runFor(20_000);
    expect(holder()).toBe('apiserver-a');
    expect(server.store.get(NS, LEASE)?.spec?.strategy).toBe('OldestEmulationVersion');
    expect(timeline.filter((e) => e !== '-')).toEqual(['apiserver-a']);

    // An older candidate joins (a rollback or a skewed node): the controller marks it preferred; the holder's term is not cut.
    const older = participant('apiserver-z', '1.32.0');
    older.elect();
    everyone.push(older);
    await runFor(1_500);
    expect(server.store.get(NS, LEASE)?.spec?.preferredHolder).toBe('apiserver-z');
    await runFor(20_000);
    expect(holder()).toBe('apiserver-z');
    expect(timeline.filter((e) => e !== '-')).toEqual(['apiserver-a', 'apiserver-z']);

    // The leader's process stops: its Lease expires, the controller pings, nobody answers for it, and the next oldest leads.
    older.stop();
    await older.done();
    await runFor(30_000);
    expect(holder()).toBe('apiserver-a');
    expect(timeline.filter((e) => e !== '-')).toEqual(['apiserver-a', 'apiserver-z', 'apiserver-a']);

    // Its LeaseCandidate, no longer renewed, is garbage-collected by the first 30-minute GC pass after it is
    // 30 minutes stale (the one at 60 minutes). Coarse ticks here (terms may lapse between them, so the
    // timeline is no longer compared; two leaders still fail the run).
    await runFor(60 * 60_000, 10_000);
    await runFor(5_000);
    const res = await fetch(`${server.url}/apis/coordination.k8s.io/v1beta1/namespaces/${NS}/leasecandidates`);
    const names = ((await res.json()) as { items: { metadata: { name: string } }[] }).items
      .map((i) => i.metadata.name)
      .sort();
    expect(names).toEqual(['apiserver-a', 'apiserver-b', 'apiserver-c']);
    expect(holder()).toBe('apiserver-a');

    for (const p of everyone) p.stop();
    await Promise.all(everyone.map((p) => p.done()));
  }, 120_000);
});
