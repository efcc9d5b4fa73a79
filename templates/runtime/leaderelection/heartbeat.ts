/**
 * A heartbeat: a holder that keeps renewing its own Lease, as kubelet's node
 * lease controller (pkg/kubelet/nodelease → component-helpers' lease
 * controller) does: ensure the Lease exists, then every renewInterval update
 * renewTime from the cached object, re-reading and retrying (at most 5 times,
 * maxUpdateRetries) when an update fails.
 */

import { microTimeNow } from '../time.js';
import type { Client } from '../transport.js';
import type { ElectionClock } from './clock.js';
import { realClock } from './clock.js';
import type { LeaseLock } from './leaselock.js';
import { leaseLock } from './leaselock.js';

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
  /** Told of each renewal that failed after its retries; the heartbeat goes on. */
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
  while (!options.signal?.aborted) {
    const error = await beat(lock, fields, options.signal);
    if (error !== undefined && !options.signal?.aborted) options.onError?.(error);
    try {
      await clock.sleep(renewInterval, options.signal);
    } catch {
      return;
    }
  }
}

/** One renewal with its retries; the last error, or undefined on success. */
async function beat(
  lock: LeaseLock,
  fields: () => Parameters<LeaseLock['update']>[0],
  signal: AbortSignal | undefined,
): Promise<unknown> {
  let error: unknown;
  for (let i = 0; i < MAX_UPDATE_RETRIES && !signal?.aborted; i++) {
    if (lock.cached() === undefined || i > 0) {
      const read = await lock.get(signal);
      if (read.kind === 'error') {
        error = read.error;
        continue;
      }
      if (read.kind === 'missing') {
        const created = await lock.create(fields(), signal);
        if (created.ok) return undefined;
        error = created.error;
        continue;
      }
    }
    const written = await lock.update(fields(), signal);
    if (written.ok) return undefined;
    error = written.error;
  }
  return error;
}
