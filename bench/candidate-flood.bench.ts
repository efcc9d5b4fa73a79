import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startLeaseApiServer } from '../templates/server/index.js';
import { candidateName, floodCandidates } from './candidate-flood.js';
import { environment, round, type BenchContext, type BenchResult } from './harness.js';

const T0 = Date.UTC(2026, 0, 1);
const micro = (ms: number): string => new Date(ms).toISOString().replace('Z', '000Z');

/**
 * `candidate-flood`: the Lease API server with the CoordinatedLeaderElection gate (in this process, on a fixed
 * clock so every candidate stays fresh), 10,000 LeaseCandidates for one Lease created through the HTTP API by
 * four clients, then 5,000 renewals of them, while a prober times GET /version every 5 ms. Figures: the
 * creation time (in total and per quarter: it stays flat when the controller's work per change does not grow
 * with the candidates), the slowest GET /version answer in each phase, and the event loop's longest delay.
 * Goals: no GET /version waits 500 ms; the last quarter of the creations takes at most twice the first (the
 * controller ran a pass over all candidates per change before: 242 s for 10,000, growing as it went).
 */
export async function benchCandidateFlood(context: BenchContext): Promise<BenchResult> {
  const candidates = context.quick ? 1_000 : 10_000;
  const writes = context.quick ? 500 : 5_000;
  const clients = 4;
  const best = Math.floor(candidates * 0.7);
  const server = await startLeaseApiServer({
    release: '1.34',
    clock: () => T0,
    coordinatedLeaderElection: { resyncMs: 0 },
  });
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  try {
    const result = await floodCandidates({
      url: server.url,
      candidates,
      clients,
      leaseName: 'flooded',
      best,
      writes,
      renewTime: (i) => micro(T0 - 1_000 + (i % 1_000)),
    });
    loop.disable();
    if (result.failures.length > 0) throw new Error(`flood requests failed: ${result.failures.join('; ')}`);
    for (
      let i = 0;
      i < 2_000 && server.store.get('default', 'flooded')?.spec?.preferredHolder !== candidateName(best);
      i++
    )
      await new Promise((resolve) => setTimeout(resolve, 5));
    const preferred = String(server.store.get('default', 'flooded')?.spec?.preferredHolder ?? '');
    const [first = Number.NaN, , , last = Number.NaN] = result.createQuarterMs;
    const worst = Math.max(result.worstProbeCreateMs, result.worstProbeWriteMs);
    return {
      name: 'candidate-flood',
      command: 'npm run bench -- candidate-flood',
      environment: environment(),
      figures: {
        candidates,
        'concurrent clients': clients,
        'creation total ms': round(result.createMs, 0),
        'creations per second': round(candidates / (result.createMs / 1000), 0),
        'creation ms per quarter': result.createQuarterMs.map((ms) => round(ms, 0)).join(', '),
        'last / first quarter': round(last / first, 2),
        renewals: writes,
        'renewal total ms': round(result.writeMs, 0),
        'GET /version probes': result.probes,
        'worst GET /version ms during creation': round(result.worstProbeCreateMs, 1),
        'worst GET /version ms during renewals': round(result.worstProbeWriteMs, 1),
        'event loop max delay ms': round(loop.max / 1e6, 1),
        'event loop p99 delay ms': round(loop.percentile(99) / 1e6, 1),
        'preferred holder at the end': preferred,
      },
      goals: [
        { goal: `no GET /version waits 500 ms (worst ${round(worst, 1)} ms)`, met: worst < 500 },
        {
          goal: `the last quarter of the creations takes ≤ 2× the first (${round(last / first, 2)}×)`,
          met: last / first <= 2,
        },
        {
          goal: `the controller prefers the best candidate (${candidateName(best)})`,
          met: preferred === candidateName(best),
        },
      ],
    };
  } finally {
    loop.disable();
    await server.close();
  }
}
