import type { LeaseApiServer } from '../../templates/k8s-lease-api-server/src/index.js';
import { startLeaseApiServer } from '../../templates/k8s-lease-api-server/src/index.js';
import type { LeaderElector } from '../../templates/k8s-lease-client/src/runtime/index.js';
import { createClient, createLeaderElector } from '../../templates/k8s-lease-client/src/runtime/index.js';
import { recordGoals } from '../lib/goal.js';
import { goalsOf, LEADER_LEASE_DURATION_MS, LEADER_RETRY_PERIOD_MS } from '../lib/goals.js';
import { environment, median, round, type BenchContext, type BenchResult } from '../lib/harness.js';

const LEASE_DURATION = LEADER_LEASE_DURATION_MS;
const RENEW_DEADLINE = 1_500;
const RETRY_PERIOD = LEADER_RETRY_PERIOD_MS;

interface Candidate {
  identity: string;
  elector: LeaderElector;
  stop: AbortController;
  done: Promise<void>;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * `leader-election`: real timers against the Lease API server in this process. Three candidates; the
 * leader stops dead (no release, as a crash), and the time until another one leads is the failover.
 * Then the leader's requests per renewal in the steady state (goal 1: the fast path updates from its
 * cached object, no GET).
 */
export async function benchLeaderElection(context: BenchContext): Promise<BenchResult> {
  const failovers = context.quick ? 2 : 6;
  const steadyMs = context.quick ? 3_000 : 15_000;
  const server: LeaseApiServer = await startLeaseApiServer({});
  const started: Array<{ identity: string; at: number }> = [];
  let serial = 0;
  const candidates: Candidate[] = [];
  const launch = (): Candidate => {
    const identity = `candidate-${++serial}`;
    const stop = new AbortController();
    const elector = createLeaderElector({
      client: createClient({ baseUrl: server.url, headers: { 'user-agent': identity } }),
      namespace: 'default',
      name: 'bench',
      identity,
      leaseDuration: LEASE_DURATION,
      renewDeadline: RENEW_DEADLINE,
      retryPeriod: RETRY_PERIOD,
      signal: stop.signal,
      onStartedLeading: () => {
        started.push({ identity, at: performance.now() });
      },
      onStoppedLeading: () => {},
    });
    const candidate = { identity, elector, stop, done: elector.run() };
    candidates.push(candidate);
    return candidate;
  };
  const leader = (): Candidate | undefined => candidates.find((c) => !c.stop.signal.aborted && c.elector.isLeader());
  const waitForLeader = async (except?: string): Promise<Candidate> => {
    for (let i = 0; i < 200; i++) {
      const found = leader();
      if (found !== undefined && found.identity !== except) return found;
      await sleep(20);
    }
    throw new Error('no leader within 4 s');
  };
  try {
    for (let i = 0; i < 3; i++) launch();
    const measured: number[] = [];
    for (let i = 0; i < failovers; i++) {
      const current = await waitForLeader();
      // Let everyone observe a few renewals first, as in a running cluster.
      await sleep(1_000);
      const before = started.length;
      const stoppedAt = performance.now();
      current.stop.abort();
      await waitForLeader(current.identity);
      const next = started.slice(before).find((s) => s.identity !== current.identity);
      if (next === undefined) throw new Error('takeover not recorded');
      measured.push(next.at - stoppedAt);
      launch();
    }
    const steady = await waitForLeader();
    await sleep(RETRY_PERIOD);
    server.clearRequests();
    await sleep(steadyMs);
    const mine = server.requests().filter((r) => r.userAgent === steady.identity);
    const renewals = mine.filter((r) => r.method === 'PUT' && r.status === 200).length;
    // No renewal at all is not one request per renewal: NaN is recorded as null, and judged not met.
    const perRenewal = renewals > 0 ? mine.length / renewals : Number.NaN;
    const failover = median(measured);
    const figures = {
      'leaseDuration (ms)': LEASE_DURATION,
      'retryPeriod (ms)': RETRY_PERIOD,
      failovers,
      'failover median (ms)': round(failover, 0),
      'failover max (ms)': round(Math.max(...measured), 1),
      'failover median ÷ (leaseDuration + retryPeriod)': round(failover / (LEASE_DURATION + RETRY_PERIOD), 2),
      'steady-state window (ms)': steadyMs,
      'leader requests in window': mine.length,
      renewals,
      'requests per renewal': round(perRenewal, 2),
    };
    return {
      name: 'leader-election',
      command: `npm run bench -- leader-election${context.quick ? ' --quick' : ''}`,
      environment: environment(),
      figures,
      goals: recordGoals(goalsOf('leader-election'), figures, {}),
    };
  } finally {
    for (const c of candidates) c.stop.abort();
    await Promise.all(candidates.map((c) => c.done));
    await server.close();
  }
}
