/**
 * A heartbeat: a holder that keeps renewing its own Lease, as kubelet's node
 * lease controller (pkg/kubelet/nodelease → component-helpers' lease
 * controller) does: ensure the Lease exists, then every renewInterval update
 * renewTime from the cached object, re-reading and retrying (at most 5 times,
 * maxUpdateRetries) when an update fails.
 *
 * The owner reference follows kubelet's setNodeOwnerFunc (pkg/kubelet/util/nodelease.go), which the lease
 * controller runs in newLease before every create and every update: the Lease gets it when created, and a
 * Lease that has no owner references at all gets it on its next renewal; one that already has some is left as is.
 */

import { microTimeNow } from '../time.js';
import type { Client } from '../transport.js';
import type { ElectionClock } from './clock.js';
import { realClock } from './clock.js';
import type {
  ElectionLease,
  ElectionLeaseMetadata,
  ElectionLeaseSpec,
  ElectionOwnerReference,
  LeaseLock,
} from './lease-lock.js';
import { leaseLock } from './lease-lock.js';

/** Options of `runHeartbeat`: which Lease to keep renewed, by whom, and how often. */
export interface HeartbeatOptions {
  /** The client the Lease is read and written with. */
  client: Client;
  /** Namespace of the Lease. */
  namespace: string;
  /** Name of the Lease (kubelet: the node's name). */
  name: string;
  /** Written as `spec.holderIdentity`. */
  identity: string;
  /** ms; written as whole leaseDurationSeconds. Default 40,000 (kubelet's). */
  leaseDuration?: number | undefined;
  /** ms between renewals. Default a quarter of leaseDuration (kubelet's). */
  renewInterval?: number | undefined;
  /** Stops the heartbeat; `runHeartbeat` then resolves. */
  signal?: AbortSignal | undefined;
  /** Defaults to real time. */
  clock?: ElectionClock | undefined;
  /**
   * Set on the Lease when it is created, and added to an existing Lease that has no owner references (as kubelet's
   * setNodeOwnerFunc), so that deleting the owner (kubelet: the Node) lets the garbage collector delete the Lease.
   */
  ownerReference?: ElectionOwnerReference | undefined;
  /**
   * Called after each successful renewal (the create of a missing Lease included) with the Lease the server
   * returned. A throw is passed to onError; the heartbeat goes on.
   */
  onRenew?: ((lease: ElectionLease) => void) | undefined;
  /** Told of each renewal that failed after its retries (and of a throwing onRenew); the heartbeat goes on. */
  onError?: ((error: unknown) => void) | undefined;
}

const MAX_UPDATE_RETRIES = 5;

/**
 * Keeps a Lease this process owns renewed, as kubelet's node lease does: creates it when missing, then renews
 * `renewTime` every `renewInterval` until `signal` aborts. Unlike `createLeaderElector`, there is no contest.
 *
 * @param options - The Lease, the identity written into it, and the timings.
 * @returns A promise that resolves once `signal` aborts.
 * @throws RangeError for invalid timings or an empty identity.
 */
export async function runHeartbeat(options: HeartbeatOptions): Promise<void> {
  const clock = options.clock ?? realClock;
  const leaseDuration = options.leaseDuration ?? 40_000;
  const renewInterval = options.renewInterval ?? leaseDuration / 4;
  if (!(leaseDuration >= 1000 && renewInterval > 0 && renewInterval < leaseDuration)) {
    throw new RangeError(
      'invalid heartbeat options: need leaseDuration >= 1000 ms and 0 < renewInterval < leaseDuration',
    );
  }
  if (typeof options.identity !== 'string' || options.identity === '')
    throw new RangeError('invalid heartbeat options: identity must be a non-empty string');
  if (options.ownerReference !== undefined && !isCompleteOwner(options.ownerReference))
    throw new RangeError('invalid heartbeat options: ownerReference needs non-empty apiVersion, kind, name and uid');
  const lock = leaseLock(options.client, options.namespace, options.name);
  const fields = (): {
    holderIdentity: string;
    leaseDurationSeconds: number;
    renewTime: ReturnType<typeof microTimeNow>;
  } => ({
    holderIdentity: options.identity,
    leaseDurationSeconds: Math.floor(leaseDuration / 1000),
    renewTime: microTimeNow(() => clock.now()),
  });
  const owner = options.ownerReference;
  const report = (error: unknown): void => {
    try {
      options.onError?.(error);
    } catch {
      // An onError that throws has nowhere left to report to; the Lease must still be renewed.
    }
  };
  /** The Lease as last read or written: what the next renewal is written over (the lock keeps nothing). */
  let current: ElectionLease | undefined;
  while (!options.signal?.aborted) {
    const outcome = await beat(lock, current, fields, owner, options.signal);
    current = outcome.lease;
    if (outcome.ok) {
      try {
        // An async onRenew's rejection is reported too, not left unhandled.
        const result: unknown = options.onRenew?.(outcome.lease);
        if (result instanceof Promise) result.catch(report);
      } catch (error) {
        report(error);
      }
    } else if (!options.signal?.aborted) report(outcome.error);
    try {
      await clock.sleep(renewInterval, options.signal);
    } catch {
      return;
    }
  }
}

/** The fields kube-apiserver requires of an owner reference (ValidateOwnerReferences); checked early, not per renewal. */
function isCompleteOwner(owner: ElectionOwnerReference): boolean {
  return [owner.apiVersion, owner.kind, owner.name, owner.uid].every((v) => typeof v === 'string' && v !== '');
}

/** The metadata a write asserts: the owner reference, only where the Lease has none (setNodeOwnerFunc). */
function ownerMetadata(
  owner: ElectionOwnerReference | undefined,
  lease: ElectionLease | undefined,
): ElectionLeaseMetadata | undefined {
  if (owner === undefined || (lease?.metadata?.ownerReferences?.length ?? 0) > 0) return undefined;
  return { ownerReferences: [{ ...owner }] };
}

/** A failed beat still gives the Lease it last read, so that the next one is written over it. */
type Beat = { ok: true; lease: ElectionLease } | { ok: false; error: unknown; lease: ElectionLease | undefined };

/** One renewal with its retries, over `current` (the Lease as last written) first: the Lease written, or the last error. */
async function beat(
  lock: LeaseLock,
  current: ElectionLease | undefined,
  fields: () => ElectionLeaseSpec,
  owner: ElectionOwnerReference | undefined,
  signal: AbortSignal | undefined,
): Promise<Beat> {
  let error: unknown;
  let base = current;
  for (let i = 0; i < MAX_UPDATE_RETRIES && !signal?.aborted; i++) {
    if (base === undefined || i > 0) {
      const read = await lock.get(signal);
      if (read.kind === 'error') {
        error = read.error;
        continue;
      }
      if (read.kind === 'missing') {
        const created = await lock.create(fields(), signal, ownerMetadata(owner, undefined));
        if (created.ok) return created;
        error = created.error;
        base = undefined;
        continue;
      }
      base = read.lease;
    }
    const written = await lock.update(base, fields(), signal, ownerMetadata(owner, base));
    if (written.ok) return written;
    error = written.error;
  }
  return { ok: false, error, lease: base };
}
