// What `--healthz-port` adds to lock and elect: the health adaptor and the metrics their electors report to, and
// the server that shows both.
import type { HealthzAdaptor, LeaderElectionMetrics } from 'k8s-lease-client';
import { createHealthzAdaptor } from 'k8s-lease-client';
import type { HealthOptions } from './args.js';
import { createElectionMetrics } from './election-metrics.js';
import { serveHealth } from './health-server.js';
import type { CliIo } from './io.js';

/** What an elector is wired to: `metrics` in its options, and the adaptor told of each new elector. */
export interface ElectionProbes {
  readonly metrics: LeaderElectionMetrics;
  readonly healthz: HealthzAdaptor;
}

export interface RunningProbes extends ElectionProbes {
  close(): Promise<void>;
}

/**
 * How long past leaseDuration a leader may go without renewing before /healthz fails: kube-controller-manager's and
 * kube-scheduler's (leaderelection.NewLeaderHealthzAdaptor(time.Second * 20)).
 */
export const HEALTHZ_TIMEOUT_MS = 20_000;

/** Starts the server if `--healthz-port` was given; undefined otherwise. */
export async function startProbes(options: HealthOptions, io: CliIo): Promise<RunningProbes | undefined> {
  if (options.healthzPort === undefined) return undefined;
  const metrics = createElectionMetrics();
  const healthz = createHealthzAdaptor(HEALTHZ_TIMEOUT_MS);
  const server = await serveHealth(options.healthzAddress, options.healthzPort, healthz, metrics);
  io.stderr(`k8s-lease: serving /healthz and /metrics on ${server.url}\n`);
  return { metrics, healthz, close: () => server.close() };
}
