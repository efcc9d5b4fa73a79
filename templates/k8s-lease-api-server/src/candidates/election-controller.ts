// kube-apiserver's coordinated-leader-election controller (feature gate CoordinatedLeaderElection), ported
// from pkg/controlplane/controller/leaderelection: leaderelection_controller.go (its informers' event
// handlers enqueue the Lease a candidate names; a worker runs reconcileElectionStep per queued Lease, with
// electionNeeded first) and leasecandidategc_controller.go. As there, the controller runs beside requests,
// not inside them: store events update the candidate index (candidate-index.ts) and queue the Lease, and the
// queue is worked off in slices of a few milliseconds between requests (setImmediate), its writes (pings,
// Lease updates, garbage collection) included. A change costs O(log n) when no election is needed, a pass
// over that Lease's candidates when one is. Writes go through the same operations as HTTP requests, so every
// change gets a resourceVersion and reaches watchers. Time is the server's (injectable) clock.
import { performance } from 'node:perf_hooks';
import type { JsonObject } from '../json.js';
import { objectAt, stringAt } from '../json.js';
import type { OperationContext, WriteOptions } from '../operations/context.js';
import { createLease } from '../operations/create.js';
import { deleteLease } from '../operations/delete.js';
import { updateLease } from '../operations/update.js';
import { splitKey } from '../store/lease-store.js';
import { formatMicroTime } from '../time.js';
import type { LeaseCandidates } from './candidate-index.js';
import { CandidateIndex } from './candidate-index.js';
import { OLDEST_EMULATION_VERSION } from './candidate-resource.js';
import type { Candidate } from './election.js';
import {
  DEFAULT_LEASE_DURATION_SECONDS,
  ELECTION_DURATION_MS,
  isLeaseExpired,
  LEASE_CANDIDATE_GC_PERIOD_MS,
  LEASE_CANDIDATE_VALID_MS,
  pickBestLeaderOldestEmulationVersion,
  pickBestStrategy,
} from './election.js';

export {
  compareCandidates,
  DEFAULT_LEASE_DURATION_SECONDS,
  ELECTION_DURATION_MS,
  LEASE_CANDIDATE_GC_PERIOD_MS,
  LEASE_CANDIDATE_VALID_MS,
  pickBestLeaderOldestEmulationVersion,
  pickBestStrategy,
} from './election.js';

const CONTROLLER = 'leader-election-controller';
const WRITE: WriteOptions = { dryRun: false, fieldManager: CONTROLLER, fieldValidation: 'Ignore' };
/** The longest one background slice runs before requests get their turn. */
const SLICE_MS = 4;

export interface ElectionController {
  /**
   * One pass over every Lease some candidate names (and over those its own writes queue again), then (when its
   * period has passed) the garbage collection of stale candidates; synchronous.
   */
  reconcileAll(): void;
  stop(): void;
}

/** Where a pass's writes go: run now (reconcileAll) or queued for the next slices. */
type Emit = (write: () => void) => void;

/**
 * leases: the Lease operations; candidates: the LeaseCandidate operations (any served version: they share one store).
 * resyncMs: how often a pass over every Lease runs on its own (the controller's 5 s requeue); 0 for none (tests drive reconcileAll).
 */
export function startElectionController(
  leases: OperationContext,
  candidates: OperationContext,
  resyncMs: number,
): ElectionController {
  const now = leases.now;
  const index = new CandidateIndex();
  /** The workqueue: Lease keys, each at most once. */
  const queue = new Set<string>();
  /** Writes waiting for a slice, and per Lease how many of its own are among them (it is not reconciled meanwhile). */
  let writes: { lease: string | undefined; run: () => void }[] = [];
  let nextWrite = 0;
  const pendingWrites = new Map<string, number>();
  let lastGc = now();
  let scheduled = false;
  let stopped = false;

  candidates.store.current().forEach((key, candidate) => {
    for (const lease of index.apply(key, undefined, candidate)) queue.add(lease);
  });

  const schedule = (): void => {
    if (scheduled || stopped) return;
    scheduled = true;
    setImmediate(pump);
  };

  const electionNeeded = (members: LeaseCandidates, lease: JsonObject | undefined): boolean => {
    if (lease === undefined || isLeaseExpired(lease, now())) return true;
    const holder = stringAt(objectAt(lease, 'spec'), 'holderIdentity') ?? '';
    if (holder === '') return true;
    // Every 15 minutes an election refreshes all candidates (half the 30-minute validity). Unless that is
    // due, no candidate is expired, so the index's answers over all candidates are the admissible ones'.
    const oldest = members.oldestRenewal();
    if (oldest !== undefined && oldest + LEASE_CANDIDATE_VALID_MS / 2 < now()) return true;
    const strategy = members.bestStrategy();
    if (!strategy.ok || strategy.strategy !== OLDEST_EMULATION_VERSION) return false;
    const electee = members.electee();
    return electee !== undefined && electee.name !== holder;
  };

  /** The ping, unless the candidate changed since it was read (that change queued its Lease again). */
  const ping = (c: Candidate, at: number): void => {
    if (candidates.store.get(c.key) !== c.object) return;
    const spec = { ...(objectAt(c.object, 'spec') ?? {}), pingTime: formatMicroTime(at) };
    const { namespace, name } = splitKey(c.key);
    updateLease(candidates, namespace, name, { ...c.object, spec }, WRITE);
  };

  /** reconcileElectionStep: wait for pings to be answered, ping the silent, then elect among those that answered. */
  const reconcile = (leaseKey: string, emit: Emit): void => {
    const members = index.byLease.get(leaseKey);
    if (members === undefined || members.size === 0) return;
    const lease = leases.store.get(leaseKey);
    if (!electionNeeded(members, lease)) return;
    const t = now();
    const oldest = members.oldestRenewal();
    if (oldest !== undefined && oldest + ELECTION_DURATION_MS > t) {
      // Every admissible candidate renewed within the election duration: the pass below would ping nobody and
      // count them all as acknowledged, so the index answers it without visiting them.
      if (members.awaitingPing(t, ELECTION_DURATION_MS)) return;
      const strategy = members.bestStrategy();
      if (!strategy.ok) return;
      const electee = strategy.strategy === OLDEST_EMULATION_VERSION ? members.electee() : undefined;
      writeLease(leaseKey, lease, strategy.strategy, electee, t);
      return;
    }
    // listAdmissableCandidates: isLeaseCandidateExpired drops those not renewed for 30 minutes.
    const list: Candidate[] = [];
    for (const c of members.members.values())
      if (c.renewTime !== undefined && c.renewTime + LEASE_CANDIDATE_VALID_MS >= t) list.push(c);
    if (list.length === 0) return;
    let canVoteYet = true;
    for (const c of list) {
      if (
        c.pingTime !== undefined &&
        c.pingTime + ELECTION_DURATION_MS > t &&
        c.renewTime !== undefined &&
        c.renewTime < c.pingTime
      ) {
        canVoteYet = false;
        continue;
      }
      if (c.renewTime !== undefined && c.renewTime + ELECTION_DURATION_MS > t) continue;
      if (c.pingTime === undefined || (c.pingTime + ELECTION_DURATION_MS < t && c.pingTime < (c.renewTime ?? 0))) {
        emit(() => ping(c, t));
        canVoteYet = false;
      }
    }
    if (!canVoteYet) return;
    const acked = list.filter((c) => c.renewTime !== undefined && c.renewTime + ELECTION_DURATION_MS > t);
    if (acked.length === 0) return;
    const strategy = pickBestStrategy(acked);
    if (!strategy.ok) return;
    const electee =
      strategy.strategy === OLDEST_EMULATION_VERSION ? pickBestLeaderOldestEmulationVersion(acked) : undefined;
    writeLease(leaseKey, lease, strategy.strategy, electee, t);
  };

  const writeLease = (
    leaseKey: string,
    lease: JsonObject | undefined,
    strategy: string,
    electee: Candidate | undefined,
    t: number,
  ): void => {
    const { namespace, name: leaseName } = splitKey(leaseKey);
    const renewTime = formatMicroTime(t);
    if (lease === undefined) {
      const spec: JsonObject = { leaseDurationSeconds: DEFAULT_LEASE_DURATION_SECONDS, renewTime, strategy };
      if (electee !== undefined) spec['holderIdentity'] = electee.name;
      createLease(leases, namespace, { metadata: { name: leaseName, namespace }, spec }, WRITE);
      return;
    }
    const existing = objectAt(lease, 'spec') ?? {};
    const holder = stringAt(existing, 'holderIdentity') ?? '';
    const next: JsonObject = { ...existing, strategy };
    if (electee !== undefined && (holder === '' || (isLeaseExpired(lease, t) && holder !== electee.name))) {
      // A free or expired Lease goes straight to the electee, for a fresh term of the controller's duration.
      delete next['preferredHolder'];
      delete next['acquireTime'];
      Object.assign(next, {
        holderIdentity: electee.name,
        renewTime,
        leaseDurationSeconds: DEFAULT_LEASE_DURATION_SECONDS,
      });
    } else if (electee !== undefined && holder !== electee.name) {
      // A valid term is never cut short: the holder learns of the better candidate and yields when it ends.
      next['preferredHolder'] = electee.name;
    }
    if (JSON.stringify(next) === JSON.stringify(existing)) return;
    updateLease(leases, namespace, leaseName, { ...lease, spec: next }, WRITE);
  };

  /** leasecandidategc_controller.go: every gcCheckPeriod, candidates not renewed for leaseCandidateValidDuration are deleted. */
  const collectGarbage = (emit: Emit): void => {
    const t = now();
    if (t - lastGc < LEASE_CANDIDATE_GC_PERIOD_MS) return;
    lastGc = t;
    for (const members of index.byLease.values())
      for (const c of members.members.values()) {
        if (c.renewTime !== undefined && c.renewTime + LEASE_CANDIDATE_VALID_MS >= t) continue;
        emit(() => {
          // Renewed since the scan: no longer garbage.
          if (candidates.store.get(c.key) !== c.object) return;
          const { namespace, name } = splitKey(c.key);
          deleteLease(candidates, namespace, name, { dryRun: false, preconditions: {} });
        });
      }
  };

  const deferTo =
    (lease: string | undefined): Emit =>
    (run) => {
      writes.push({ lease, run });
      if (lease !== undefined) pendingWrites.set(lease, (pendingWrites.get(lease) ?? 0) + 1);
    };
  const runNow: Emit = (run) => run();

  const runWrite = (): void => {
    const write = writes[nextWrite];
    if (write === undefined) return;
    writes[nextWrite++] = { lease: undefined, run: () => undefined };
    if (nextWrite === writes.length) {
      writes = [];
      nextWrite = 0;
    }
    if (write.lease !== undefined) {
      const left = (pendingWrites.get(write.lease) ?? 1) - 1;
      if (left === 0) pendingWrites.delete(write.lease);
      else pendingWrites.set(write.lease, left);
    }
    write.run();
  };

  /** One slice: queued writes first, then queued Leases, until the slice's time is up. */
  function pump(): void {
    scheduled = false;
    if (stopped) return;
    const deadline = performance.now() + SLICE_MS;
    while (nextWrite < writes.length && performance.now() < deadline) runWrite();
    for (const leaseKey of queue) {
      if (performance.now() >= deadline) break;
      // A Lease whose pings are still queued is reconciled once they are written.
      if (pendingWrites.has(leaseKey)) continue;
      queue.delete(leaseKey);
      reconcile(leaseKey, deferTo(leaseKey));
    }
    collectGarbage(deferTo(undefined));
    if (nextWrite < writes.length || queue.size > 0) schedule();
  }

  /** Rounds of the synchronous pass: its own writes queue their Leases again, which settle within a round or two. */
  const SYNC_ROUNDS = 3;
  const reconcileAll = (): void => {
    while (nextWrite < writes.length) runWrite();
    for (const leaseKey of index.byLease.keys()) queue.add(leaseKey);
    for (let round = 0; round < SYNC_ROUNDS && queue.size > 0; round++) {
      const leaseKeys = [...queue];
      queue.clear();
      for (const leaseKey of leaseKeys) reconcile(leaseKey, runNow);
    }
    collectGarbage(runNow);
  };

  const unsubscribe = [
    candidates.store.subscribe((event) => {
      // Store listeners run inside a commit: the index follows at once, the controller after it, as an informer's would.
      for (const lease of index.apply(event.key, event.prev, event.type === 'DELETED' ? undefined : event.object))
        queue.add(lease);
      schedule();
    }),
    leases.store.subscribe((event) => {
      if (!index.byLease.has(event.key)) return;
      queue.add(event.key);
      schedule();
    }),
  ];
  const timer =
    resyncMs > 0
      ? setInterval(() => {
          for (const leaseKey of index.byLease.keys()) queue.add(leaseKey);
          schedule();
        }, resyncMs)
      : undefined;
  timer?.unref();
  schedule();
  return {
    reconcileAll,
    stop() {
      stopped = true;
      for (const u of unsubscribe) u();
      if (timer !== undefined) clearInterval(timer);
    },
  };
}
