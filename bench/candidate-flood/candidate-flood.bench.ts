import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startLeaseApiServer } from '../../templates/k8s-lease-api-server/src/index.js';
import { candidateName, floodCandidates } from './candidate-flood.js';
import { recordGoals } from '../lib/goal.js';
import { goalsOf } from '../lib/goals.js';
import { environment, round, type BenchContext, type BenchResult } from '../lib/harness.js';

const T0 = Date.UTC(2026, 0, 1);
const micro = (ms: number): string => new Date(ms).toISOString().replace('Z', '000Z');

type Flood = Awaited<ReturnType<typeof floodCandidates>>;

/** One flood against a fresh server (gate on for candidates, off for the Lease baseline), with its event loop's delays. */
async function run(
  resource: 'leasecandidates' | 'leases',
  candidates: number,
  writes: number,
  clients: number,
): Promise<{ flood: Flood; loopMaxMs: number; loopP99Ms: number; preferred: string }> {
  const server = await startLeaseApiServer({
    release: '1.34',
    clock: () => T0,
    coordinatedLeaderElection: resource === 'leases' ? false : { resyncMs: 0 },
  });
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  try {
    const flood = await floodCandidates({
      url: server.url,
      candidates,
      clients,
      leaseName: 'flooded',
      best: Math.floor(candidates * 0.7),
      writes,
      renewTime: (i) => micro(T0 - 1_000 + (i % 1_000)),
      resource,
    });
    loop.disable();
    if (flood.failures.length > 0) throw new Error(`${resource} flood requests failed: ${flood.failures.join('; ')}`);
    const best = candidateName(Math.floor(candidates * 0.7));
    for (let i = 0; resource !== 'leases' && i < 2_000; i++) {
      if (server.store.get('default', 'flooded')?.spec?.preferredHolder === best) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const preferred = String(server.store.get('default', 'flooded')?.spec?.preferredHolder ?? '');
    return { flood, loopMaxMs: loop.max / 1e6, loopP99Ms: loop.percentile(99) / 1e6, preferred };
  } finally {
    loop.disable();
    await server.close();
  }
}

/**
 * `candidate-flood`: the Lease API server with the CoordinatedLeaderElection gate (in this process, on a fixed
 * clock so every candidate stays fresh), 10,000 LeaseCandidates for one Lease created through the HTTP API by
 * four clients, then 5,000 renewals of them, while a prober times GET /version every 5 ms. Figures: the
 * creation time (in total and per quarter: it stays flat when the controller's work per change does not grow
 * with the candidates), the slowest GET /version answer in each phase, and the event loop's longest delay.
 * The same flood of plain Leases against a server without the gate is the baseline: on a shared machine the
 * scheduler and the collector stall the loop too. Goals: the worst GET /version at most twice the baseline's;
 * the last quarter of the creations at most twice the first (the controller ran a pass over all candidates per
 * change before: 242 s for 10,000, growing as it went); the best candidate preferred.
 */
export async function benchCandidateFlood(context: BenchContext): Promise<BenchResult> {
  const candidates = context.quick ? 1_000 : 10_000;
  const writes = context.quick ? 500 : 5_000;
  const clients = 4;
  const best = candidateName(Math.floor(candidates * 0.7));
  // The host's load: on a shared machine the worst answer is the scheduler's as much as the server's.
  const loadBefore = loadavg()[0] ?? Number.NaN;
  const baseline = await run('leases', candidates, writes, clients);
  const measured = await run('leasecandidates', candidates, writes, clients);
  const { flood } = measured;
  const [first = Number.NaN, , , last = Number.NaN] = flood.createQuarterMs;
  const worst = Math.max(flood.worstProbeCreateMs, flood.worstProbeWriteMs);
  const worstBaseline = Math.max(baseline.flood.worstProbeCreateMs, baseline.flood.worstProbeWriteMs);
  const figures = {
    candidates,
    'concurrent clients': clients,
    'creation total ms': round(flood.createMs, 0),
    'creations per second': round(candidates / (flood.createMs / 1000), 0),
    'creation ms per quarter': flood.createQuarterMs.map((ms) => round(ms, 0)).join(', '),
    'last / first quarter': round(last / first, 2),
    renewals: writes,
    'renewal total ms': round(flood.writeMs, 0),
    'GET /version probes': flood.probes,
    'worst GET /version ms during creation': round(flood.worstProbeCreateMs, 1),
    'worst GET /version ms during renewals': round(flood.worstProbeWriteMs, 1),
    'event loop max delay ms': round(measured.loopMaxMs, 1),
    'event loop p99 delay ms': round(measured.loopP99Ms, 1),
    'preferred holder at the end': measured.preferred,
    'baseline (Leases, gate off): creation total ms': round(baseline.flood.createMs, 0),
    'baseline: worst GET /version ms during creation': round(baseline.flood.worstProbeCreateMs, 1),
    'baseline: worst GET /version ms during renewals': round(baseline.flood.worstProbeWriteMs, 1),
    'baseline: event loop max delay ms': round(baseline.loopMaxMs, 1),
    'worst GET /version, candidates / baseline': round(worst / worstBaseline, 2),
    'creation time, candidates / baseline': round(flood.createMs / baseline.flood.createMs, 2),
    'host load average (1 min) before / after': `${round(loadBefore, 1)} / ${round(loadavg()[0] ?? Number.NaN, 1)}`,
  };
  return {
    name: 'candidate-flood',
    command: 'npm run bench -- candidate-flood',
    environment: environment(),
    figures,
    goals: recordGoals(goalsOf('candidate-flood'), figures, {
      'prefers-best': { met: measured.preferred === best, detail: best },
    }),
  };
}
