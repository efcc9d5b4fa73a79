/** The elector's options, their defaults and client-go's validation of them (NewLeaderElector). */

import type { Client } from '../transport.js';
import type { ElectionClock } from './clock.js';
import type { FencingToken } from './fencing.js';
import type { LeaderElectionMetrics } from './metrics.js';

/** client-go's wait.Jitter factor for the acquire loop: each retry waits retryPeriod × (1 + U[0, 1.2)). */
export const JITTER_FACTOR = 1.2;

/** Options of `createLeaderElector`, as client-go's LeaderElectionConfig with a Lease lock: which Lease, who, how long. */
export interface LeaderElectorOptions {
  /** The client the elector reads and writes the Lease with. */
  client: Client;
  /** Namespace of the Lease. */
  namespace: string;
  /** Name of the Lease; every candidate of one election uses the same. */
  name: string;
  /** This candidate's identity, written as holderIdentity; unique per running instance (e.g. hostname + random suffix). */
  identity: string;
  /** ms non-leaders wait, from the last change they observed, before taking over. Default 15,000; whole seconds go on the wire. */
  leaseDuration?: number | undefined;
  /** ms the leader keeps retrying a failed renewal before it steps down. Default 10,000. */
  renewDeadline?: number | undefined;
  /** ms between attempts. Default 2,000. */
  retryPeriod?: number | undefined;
  /**
   * Called once leadership is acquired; all guarded work must stop when `signal` aborts. `token` names this
   * term (see FencingToken and compareFencingTokens): guarded writes can carry it so their receivers refuse those
   * of an older term.
   */
  onStartedLeading(signal: AbortSignal, token: FencingToken): void | Promise<void>;
  /** Always called once `run()` ends, whether or not this candidate ever led. */
  onStoppedLeading(): void;
  /** Called with each new holder this candidate observes (including itself). */
  onNewLeader?: ((identity: string) => void) | undefined;
  /**
   * Told of every failed request (except 409s, the normal outcome of a race: a stale update's Conflict or a lost
   * create race's AlreadyExists; and ClientClosedError, which ends `run()` instead) and every error thrown or
   * rejected by a callback; the election goes on.
   * Default: console.warn, once per distinct message (client-go logs these).
   */
  onError?: ((error: unknown) => void) | undefined;
  /** On cancel, clear the holder (leaseDurationSeconds 1) so another candidate takes over at once. */
  releaseOnCancel?: boolean | undefined;
  /**
   * client-go's LeaderElectionConfig.Coordinated (1.31+): the coordinated-leader-election controller picks
   * the holder among LeaseCandidates (see createCandidate). The elector never creates the Lease, never
   * takes one that names someone else (expired or not), renews only while the Lease names it, and yields
   * at the end of its term when preferredHolder names another candidate.
   */
  coordinated?: boolean | undefined;
  /** Cancels the election; with releaseOnCancel, the lease is released first. */
  signal?: AbortSignal | undefined;
  /**
   * Told when this candidate starts and stops leading and when a renewal took the slow path, as client-go's
   * MetricsProvider is, named by the Lease's name. What it throws is reported to onError.
   */
  metrics?: LeaderElectionMetrics | undefined;
  /** Defaults to real time. */
  clock?: ElectionClock | undefined;
  /** Uniform in [0, 1) for the retry jitter. Default Math.random. */
  random?: (() => number) | undefined;
}

export interface ElectorConfig {
  client: Client;
  namespace: string;
  name: string;
  identity: string;
  leaseDuration: number;
  renewDeadline: number;
  retryPeriod: number;
  releaseOnCancel: boolean;
  coordinated: boolean;
  clock: ElectionClock;
  random: () => number;
  onError: (error: unknown) => void;
}

export type Validated = { ok: true; config: ElectorConfig } | { ok: false; message: string };

/**
 * As client-go's NewLeaderElector: leaseDuration > renewDeadline >
 * JitterFactor × retryPeriod > 0, callbacks present, a non-empty identity.
 * Also at least one second of leaseDuration: the Lease holds whole seconds,
 * and 0 would be refused by the API server on every write.
 */
export function validateElectorOptions(options: LeaderElectorOptions, clock: ElectionClock): Validated {
  const leaseDuration = options.leaseDuration ?? 15_000;
  const renewDeadline = options.renewDeadline ?? 10_000;
  const retryPeriod = options.retryPeriod ?? 2_000;
  const message = firstProblem(options, leaseDuration, renewDeadline, retryPeriod);
  if (message !== undefined) return { ok: false, message };
  return {
    ok: true,
    config: {
      client: options.client,
      namespace: options.namespace,
      name: options.name,
      identity: options.identity,
      leaseDuration,
      renewDeadline,
      retryPeriod,
      releaseOnCancel: options.releaseOnCancel === true,
      coordinated: options.coordinated === true,
      clock,
      random: options.random ?? Math.random,
      onError:
        options.onError ?? warnOnce(`leader election ${options.namespace}/${options.name} (${options.identity})`),
    },
  };
}

function firstProblem(
  options: LeaderElectorOptions,
  leaseDuration: number,
  renewDeadline: number,
  retryPeriod: number,
): string | undefined {
  const finite = (n: number): boolean => typeof n === 'number' && Number.isFinite(n);
  if (!finite(leaseDuration) || !finite(renewDeadline) || !finite(retryPeriod))
    return 'leaseDuration, renewDeadline and retryPeriod must be finite numbers of ms';
  if (leaseDuration <= renewDeadline) return 'leaseDuration must be greater than renewDeadline';
  if (renewDeadline <= JITTER_FACTOR * retryPeriod)
    return 'renewDeadline must be greater than retryPeriod*JitterFactor';
  if (retryPeriod <= 0) return 'retryPeriod must be greater than zero';
  if (leaseDuration < 1000) return 'leaseDuration must be at least 1000 ms (the Lease holds whole seconds)';
  // Not in client-go, whose leaseDuration is whole seconds by type: the other candidates wait the
  // leaseDurationSeconds written, so the leader's own term (renewDeadline) must end before that.
  const written = Math.floor(leaseDuration / 1000) * 1000;
  if (renewDeadline >= written)
    return `renewDeadline must be less than the whole seconds of leaseDuration written to the Lease (${written} ms), got renewDeadline ${renewDeadline}`;
  if (typeof options.client !== 'object' || options.client === null || typeof options.client.request !== 'function')
    return 'client must be a client from createClient';
  if (typeof options.onStartedLeading !== 'function') return 'onStartedLeading callback must be a function';
  if (typeof options.onStoppedLeading !== 'function') return 'onStoppedLeading callback must be a function';
  if (typeof options.identity !== 'string' || options.identity === '') return 'identity must be a non-empty string';
  return undefined;
}

/** At most this many distinct messages are remembered; past it, one notice and then silence, so memory stays bounded. */
const MAX_DISTINCT_WARNINGS = 64;

/** The default onError: console.warn once per distinct message. */
export function warnOnce(context: string): (error: unknown) => void {
  const seen = new Set<string>();
  return (error) => {
    const message = error instanceof Error ? error.message : String(error);
    if (seen.has(message) || seen.size > MAX_DISTINCT_WARNINGS) return;
    seen.add(message);
    console.warn(seen.size > MAX_DISTINCT_WARNINGS ? `${context}: further errors not shown` : `${context}: ${message}`);
  };
}
