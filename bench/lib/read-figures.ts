import { median, round } from './harness.js';

/** One round of one client's sequential GETs, as `reads` and `tls-reads` both measure it. */
export interface ReadRound {
  /** Requests per second of wall time. */
  readonly rps: number;
  /** This process's CPU time (user + system) per request, in µs: the client's cost, the server's is in its child. */
  readonly cpuMicros: number;
}

/** The shape of a read benchmark's run. */
export interface ReadRun {
  readonly requests: number;
  readonly rounds: number;
  readonly warmup: number;
  readonly leaseBytes: number;
}

/**
 * The figures `reads` and `tls-reads` record first, under the same names: the run's shape, then for each
 * client that was measured (in `clients` order; a failed one has no rounds) its median req/s, its req/s
 * per round and its median client CPU per request.
 */
export function readFigures(
  run: ReadRun,
  clients: readonly string[],
  results: ReadonlyMap<string, readonly ReadRound[]>,
): Record<string, number | string> {
  const figures: Record<string, number | string> = {
    'requests per round': run.requests,
    rounds: run.rounds,
    'warm-up requests per client': run.warmup,
    'Lease response bytes': run.leaseBytes,
  };
  for (const key of clients) {
    const measured = results.get(key);
    if (measured === undefined) continue;
    const rps = measured.map((r) => r.rps);
    figures[`${key}: median req/s`] = round(median(rps), 0);
    figures[`${key}: req/s per round`] = rps.map((v) => round(v, 0)).join(', ');
    figures[`${key}: client CPU µs per request (median)`] = round(median(measured.map((r) => r.cpuMicros)), 0);
  }
  return figures;
}
