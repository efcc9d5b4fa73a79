/**
 * A LeaseCandidate for coordinated leader election, as client-go's
 * tools/leaderelection/leasecandidate.go (NewCandidate): it creates or
 * updates its LeaseCandidate, renews it every `renewInterval`, and answers
 * the controller's pings (spec.pingTime newer than spec.renewTime) at once.
 *
 * The generator does emit LeaseCandidate operations and models, one module
 * per served version (`k8s-lease-client/v1.33/v1beta1` and the like), but
 * they belong to one release each, and this runtime is release-independent
 * (it runs against v1alpha1, v1alpha2 or v1beta1, as `groupVersion` says):
 * so, as lease-lock.ts does for the Lease, it writes the paths and a
 * structural type by hand over the runtime transport, a type every release's
 * generated `LeaseCandidate` is assignable to. Results are values: a failed
 * renewal is reported to onError and retried at the next interval.
 */

import { isNotFound } from '../errors.js';
import { nameSegment, namespaceSegment } from '../path-segments.js';
import type { MicroTime } from '../time.js';
import { isMicroTime, microTimeNow, parseMicroTime } from '../time.js';
import type { Client } from '../transport.js';
import type { ElectionClock } from './clock.js';
import { realClock } from './clock.js';

/** coordination.k8s.io/v1alpha2 and v1beta1 (1.32+); v1alpha1 (1.31) has preferredStrategies instead of strategy. */
export interface ElectionLeaseCandidateSpec {
  /** Name of the Lease this candidate runs for. */
  leaseName: string;
  /** The candidate's binary version, e.g. `1.33.0`; the controller prefers the oldest. */
  binaryVersion?: string | undefined;
  /** The candidate's emulation version, compared first by `OldestEmulationVersion`. */
  emulationVersion?: string | undefined;
  /** The strategy this candidate supports (v1alpha2, v1beta1). */
  strategy?: string | undefined;
  /** The strategies this candidate supports, in order of preference (v1alpha1 only). */
  preferredStrategies?: string[] | undefined;
  /** Set by the controller to ask the candidate to renew now. */
  pingTime?: MicroTime | undefined;
  /** When the candidate last renewed. */
  renewTime?: MicroTime | undefined;
}

/** The LeaseCandidate fields a candidate reads and writes. */
export interface ElectionLeaseCandidate {
  /** `coordination.k8s.io/v1beta1` (or the `groupVersion` chosen). */
  apiVersion?: string | undefined;
  /** `LeaseCandidate`. */
  kind?: string | undefined;
  /** Name, namespace and the resourceVersion an update must carry. */
  metadata?:
    | { name?: string | undefined; namespace?: string | undefined; resourceVersion?: string | undefined }
    | undefined;
  /** The candidacy. */
  spec?: ElectionLeaseCandidateSpec | undefined;
}

/** Options of `createCandidate`: the LeaseCandidate to keep, the versions it announces, and timings. */
export interface CandidateOptions {
  /** The client the LeaseCandidate is read and written with. */
  client: Client;
  /** Namespace of the LeaseCandidate, the same as the Lease's. */
  namespace: string;
  /** The candidate's name: the identity its elector uses, which the controller writes into holderIdentity. */
  name: string;
  /** Name of the Lease the candidate runs for. */
  leaseName: string;
  /** This binary's version, e.g. `1.33.0`. */
  binaryVersion: string;
  /** The version this binary emulates; usually the same as `binaryVersion`. */
  emulationVersion: string;
  /** Default OldestEmulationVersion. */
  strategy?: string | undefined;
  /** The group version the cluster serves LeaseCandidate in: v1beta1 (1.33+, default), v1alpha2 (1.32+) or v1alpha1 (1.31). */
  groupVersion?: 'v1beta1' | 'v1alpha2' | 'v1alpha1' | undefined;
  /** ms between renewals (client-go: 5 minutes). */
  renewInterval?: number | undefined;
  /** ms between checks for a ping (client-go reacts to the informer's event; here a poll). */
  pingPollInterval?: number | undefined;
  /** Stops the candidate; `run()` then resolves. */
  signal?: AbortSignal | undefined;
  /** Defaults to real time. */
  clock?: ElectionClock | undefined;
  /** Told of each failed read or write; the candidate retries at the next interval. */
  onError?: ((error: unknown) => void) | undefined;
}

/** A LeaseCandidate kept alive for coordinated leader election, made by `createCandidate`. */
export interface LeaseCandidateRunner {
  /** Creates or updates the candidate, then renews until `signal` aborts. Call once. */
  run(): Promise<void>;
  /** The object of the last successful read or write. */
  current(): ElectionLeaseCandidate | undefined;
}

/**
 * Announces this process as a candidate for coordinated leader election (Kubernetes 1.31+): keeps a
 * LeaseCandidate created and renewed, and answers the controller's pings, as client-go's `NewCandidate`. Run it
 * beside a `createLeaderElector({ coordinated: true, identity: options.name, … })`.
 *
 * @param options - The LeaseCandidate's name and namespace, the Lease it runs for, and its versions.
 * @returns A runner; nothing is sent until `run()`.
 * @throws InvalidPathParameterError for a namespace or name that is not a single path segment.
 */
export function createCandidate(options: CandidateOptions): LeaseCandidateRunner {
  const clock = options.clock ?? realClock;
  const version = options.groupVersion ?? 'v1beta1';
  const collection = `/apis/coordination.k8s.io/${version}/namespaces/${namespaceSegment(options.namespace)}/leasecandidates`;
  const item = `${collection}/${nameSegment(options.name)}`;
  const renewInterval = options.renewInterval ?? 300_000;
  const pollInterval = options.pingPollInterval ?? 1_000;
  const strategy = options.strategy ?? 'OldestEmulationVersion';
  const report = options.onError ?? ((): void => undefined);
  let cache: ElectionLeaseCandidate | undefined;
  let running: Promise<void> | undefined;

  const desired = (renewTime: MicroTime, base: ElectionLeaseCandidateSpec | undefined): ElectionLeaseCandidateSpec =>
    desiredSpec(options, version, strategy, renewTime, base);
  const send = (
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    body?: ElectionLeaseCandidate,
  ): Promise<ElectionLeaseCandidate> =>
    options.client.request<ElectionLeaseCandidate>(
      body === undefined ? { method, path } : { method, path, body: JSON.stringify(body) },
      { signal: options.signal },
    );

  /** ensureLease: read, then update (keeping the controller's pingTime) or create. */
  const renew = async (): Promise<void> => {
    const renewTime = microTimeNow(() => clock.now());
    try {
      const existing = await send('GET', item);
      cache = await send('PUT', item, { ...existing, spec: desired(renewTime, existing.spec) });
    } catch (error) {
      if (!isNotFound(error)) throw error;
      const body: ElectionLeaseCandidate = {
        apiVersion: `coordination.k8s.io/${version}`,
        kind: 'LeaseCandidate',
        metadata: { name: options.name, namespace: options.namespace },
        spec: desired(renewTime, undefined),
      };
      cache = await send('POST', collection, body);
    }
  };

  const attempt = async (work: () => Promise<void>): Promise<void> => {
    try {
      await work();
    } catch (error) {
      if (options.signal?.aborted !== true) report(error);
    }
  };

  const loop = async (): Promise<void> => {
    await attempt(renew);
    let lastRenew = clock.now();
    while (options.signal?.aborted !== true) {
      try {
        await clock.sleep(Math.min(pollInterval, renewInterval), options.signal);
      } catch {
        return;
      }
      await attempt(async () => {
        const due = clock.now() - lastRenew >= renewInterval;
        if (!due) cache = await send('GET', item);
        if (due || pinged(cache)) {
          await renew();
          lastRenew = clock.now();
        }
      });
    }
  };

  return { run: () => (running ??= loop()), current: () => cache };
}

/** What the candidate writes: its versions, the strategy in the field its group version has, and renewTime; the rest of `base` (the controller's pingTime) kept. */
function desiredSpec(
  options: CandidateOptions,
  version: NonNullable<CandidateOptions['groupVersion']>,
  strategy: string,
  renewTime: MicroTime,
  base: ElectionLeaseCandidateSpec | undefined,
): ElectionLeaseCandidateSpec {
  const spec: ElectionLeaseCandidateSpec = {
    ...base,
    leaseName: options.leaseName,
    binaryVersion: options.binaryVersion,
    emulationVersion: options.emulationVersion,
    renewTime,
  };
  if (version === 'v1alpha1') spec.preferredStrategies = [strategy];
  else spec.strategy = strategy;
  return spec;
}

/**
 * client-go's enqueueLease condition: a ping is pending when pingTime is after renewTime, compared to the
 * microsecond (Date.parse would drop the last three digits and miss a ping in the renewal's millisecond).
 */
function pinged(candidate: ElectionLeaseCandidate | undefined): boolean {
  const spec = candidate?.spec;
  const ping = microseconds(spec?.pingTime);
  return ping !== undefined && (spec?.renewTime === undefined || ping > (microseconds(spec.renewTime) ?? Infinity));
}

/** Microseconds since the epoch of a MicroTime (exact below 2^53, i.e. until year 2255); undefined if it is not one. */
function microseconds(value: MicroTime | undefined): number | undefined {
  if (value === undefined || !isMicroTime(value)) return undefined;
  const { date, microseconds: fraction } = parseMicroTime(value);
  return Math.floor(date.getTime() / 1000) * 1_000_000 + fraction;
}
