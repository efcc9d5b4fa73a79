// `elect --coordinated`: coordinated leader election (Kubernetes 1.31+). As kube-controller-manager and
// kube-scheduler do (cmd/kube-controller-manager/app/controllermanager.go Run: leaderelection.NewCandidate(client,
// "kube-system", id, "kube-controller-manager", binaryVersion, emulationVersion, OldestEmulationVersion)), the
// LeaseCandidate is named after the elector's identity, in the Lease's namespace, with leaseName the Lease; the
// cluster's controller names the holder, and the coordinated elector only renews what it was given.
import type { Client } from 'k8s-lease-client';
import { createCandidate, isNotFound, nameSegment, namespaceSegment } from 'k8s-lease-client';
import type { CoordinatedArgs } from './args.js';
import type { CliIo } from './io.js';
import { oneLine } from './messages.js';

export type CandidateGroupVersion = 'v1beta1' | 'v1alpha2' | 'v1alpha1';

/** Newest first: 1.33+ serves v1beta1 (and v1alpha2), 1.32 v1alpha2, 1.31 v1alpha1; the newest served is used. */
const CANDIDATE_VERSIONS: readonly CandidateGroupVersion[] = ['v1beta1', 'v1alpha2', 'v1alpha1'];

const GROUP_PATH = '/apis/coordination.k8s.io';

/** The names of an APIGroup's versions, or an APIResourceList's resources; [] for anything else. */
function namesIn(document: unknown, list: 'versions' | 'resources', key: 'version' | 'name'): string[] {
  const items = typeof document === 'object' && document !== null ? Reflect.get(document, list) : undefined;
  if (!Array.isArray(items)) return [];
  return items.flatMap((item: unknown) => {
    const value = typeof item === 'object' && item !== null ? Reflect.get(item, key) : undefined;
    return typeof value === 'string' ? [value] : [];
  });
}

async function discover(client: Client, path: string): Promise<unknown> {
  try {
    return await client.request<unknown>({ method: 'GET', path });
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/**
 * The newest coordination.k8s.io version whose discovery lists `leasecandidates`, from the group's versions
 * (coordination.k8s.io/v1beta1 also served Leases until 1.22, so a listed version alone is not enough);
 * undefined when the cluster serves none. Other request errors are thrown.
 */
export async function servedCandidateVersion(client: Client): Promise<CandidateGroupVersion | undefined> {
  const served = new Set(namesIn(await discover(client, GROUP_PATH), 'versions', 'version'));
  for (const version of CANDIDATE_VERSIONS) {
    if (!served.has(version)) continue;
    const resources = namesIn(await discover(client, `${GROUP_PATH}/${version}`), 'resources', 'name');
    if (resources.includes('leasecandidates')) return version;
  }
  return undefined;
}

export interface CandidacyOptions {
  readonly client: Client;
  readonly namespace: string;
  /** The elector's identity: the candidate's name, which the controller writes as holderIdentity. */
  readonly identity: string;
  readonly leaseName: string;
  readonly versions: CoordinatedArgs;
  readonly groupVersion: CandidateGroupVersion;
  /** Bounds the withdrawal's DELETE. */
  readonly withdrawTimeout: number;
  readonly io: CliIo;
  readonly onError: (error: unknown) => void;
}

/** A LeaseCandidate kept while the replica takes part. */
export interface RunningCandidacy {
  /**
   * Stops renewing and deletes the LeaseCandidate (once; later calls share the first), so the controller elects
   * among the others at once instead of pinging this one and waiting out its silence; never rejects.
   */
  withdraw(): Promise<void>;
}

export function startCandidacy(options: CandidacyOptions): RunningCandidacy {
  const { client, namespace, identity, groupVersion, io } = options;
  const stop = new AbortController();
  const runner = createCandidate({
    client,
    namespace,
    name: identity,
    leaseName: options.leaseName,
    binaryVersion: options.versions.binaryVersion,
    emulationVersion: options.versions.emulationVersion,
    groupVersion,
    signal: stop.signal,
    onError: options.onError,
  });
  const running = runner.run();
  const path = `${GROUP_PATH}/${groupVersion}/namespaces/${namespaceSegment(namespace)}/leasecandidates/${nameSegment(identity)}`;
  let withdrawn: Promise<void> | undefined;
  const remove = async (): Promise<void> => {
    stop.abort();
    await running;
    // Never created (refused, or the credentials failed): nothing to delete, and no second error line.
    if (runner.current() === undefined) return;
    try {
      await client.request<unknown>(
        { method: 'DELETE', path },
        { signal: AbortSignal.timeout(options.withdrawTimeout) },
      );
    } catch (error) {
      // Left behind, it is deleted by the cluster's garbage collection once not renewed for 30 minutes.
      if (!isNotFound(error))
        io.stderr(`k8s-lease: could not delete LeaseCandidate ${namespace}/${identity}: ${oneLine(error)}\n`);
    }
  };
  return { withdraw: () => (withdrawn ??= remove()) };
}
