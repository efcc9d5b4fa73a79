// kube-apiserver's coordinated-leader-election controller (feature gate CoordinatedLeaderElection), ported
// from pkg/controlplane/controller/leaderelection: leaderelection_controller.go (its informers' event
// handlers enqueue the Lease a candidate names; a worker runs reconcileElectionStep per queued Lease, with
// electionNeeded first) and leasecandidategc_controller.go. This is the driver: what to do for a Lease is
// decided by reconcile.ts (reconcile, staleCandidates); here the queue, the slices and
// the writes that carry those answers out. As there, the controller runs beside requests,
// not inside them: store events update the candidate index (candidate-index.ts) and queue the Lease, and the
// queue is worked off in slices of a few milliseconds between requests (setImmediate), its writes (pings,
// Lease updates, garbage collection) included. A change costs O(log n) when no election is needed, a pass
// over that Lease's candidates when one is. Writes go through the same operations as HTTP requests, so every
// change gets a resourceVersion and reaches watchers. Time is the server's (injectable) clock.
import { performance } from 'node:perf_hooks';
import { objectAt } from '../json.js';
import type { OperationContext, WriteOptions } from '../operations/context.js';
import { createLease } from '../operations/create.js';
import { deleteLease } from '../operations/delete.js';
import { updateLease } from '../operations/update.js';
import { splitKey } from '../store/lease-store.js';
import { formatMicroTime } from '../time.js';
import { CandidateIndex } from './candidate-index.js';
import type { Candidate } from './election.js';
import { LEASE_CANDIDATE_GC_PERIOD_MS } from './election.js';
import type { ElectionAction } from './reconcile.js';
import { reconcile, staleCandidates } from './reconcile.js';
import { WriteQueue } from './write-queue.js';

const CONTROLLER = 'leader-election-controller';
const WRITE: WriteOptions = { dryRun: false, fieldManager: CONTROLLER, fieldValidation: 'Ignore' };
/** The longest one background slice runs before requests get their turn. */
const SLICE_MS = 4;
/** Rounds of the synchronous pass: its own writes queue their Leases again, which settle within a round or two. */
const SYNC_ROUNDS = 3;

export interface ElectionController {
  /**
   * One pass over every Lease some candidate names (and over those its own writes queue again), then (when its
   * period has passed) the garbage collection of stale candidates; synchronous.
   */
  reconcileAll(): void;
  stop(): void;
}

/** Where a pass's candidate writes (pings, deletions) go: run now (reconcileAll) or queued for the next slices. */
type Emit = (write: () => void) => void;

/** The controller's state; only the functions below change it. */
interface Driver {
  readonly leases: OperationContext;
  readonly candidates: OperationContext;
  readonly index: CandidateIndex;
  /** The workqueue: Lease keys, each at most once. */
  readonly queue: Set<string>;
  readonly writes: WriteQueue;
  lastGc: number;
  scheduled: boolean;
  stopped: boolean;
}

/**
 * leases: the Lease operations; candidates: the LeaseCandidate operations (any served version: they share one store).
 * resyncMs: how often a pass over every Lease runs on its own (the controller's 5 s requeue); 0 for none (tests drive reconcileAll).
 */
export function startElectionController(
  leases: OperationContext,
  candidates: OperationContext,
  resyncMs: number,
): ElectionController {
  const d: Driver = {
    leases,
    candidates,
    index: new CandidateIndex(),
    queue: new Set(),
    writes: new WriteQueue(),
    lastGc: leases.now(),
    scheduled: false,
    stopped: false,
  };
  candidates.store.current().forEach((key, candidate) => {
    for (const lease of d.index.apply(key, undefined, candidate)) d.queue.add(lease);
  });
  const unsubscribe = subscribe(d);
  const timer = resyncMs > 0 ? setInterval(() => requeueAll(d), resyncMs) : undefined;
  timer?.unref();
  schedule(d);
  return {
    reconcileAll: () => reconcileAll(d),
    stop() {
      d.stopped = true;
      for (const u of unsubscribe) u();
      if (timer !== undefined) clearInterval(timer);
    },
  };
}

/** The informers' event handlers: a candidate's change updates the index and queues the Leases it names; a Lease's change queues it. */
function subscribe(d: Driver): (() => void)[] {
  return [
    d.candidates.store.subscribe((event) => {
      // Store listeners run inside a commit: the index follows at once, the controller after it, as an informer's would.
      for (const lease of d.index.apply(event.key, event.prev, event.type === 'DELETED' ? undefined : event.object))
        d.queue.add(lease);
      schedule(d);
    }),
    d.leases.store.subscribe((event) => {
      if (!d.index.byLease.has(event.key)) return;
      d.queue.add(event.key);
      schedule(d);
    }),
  ];
}

function requeueAll(d: Driver): void {
  for (const leaseKey of d.index.byLease.keys()) d.queue.add(leaseKey);
  schedule(d);
}

function schedule(d: Driver): void {
  if (d.scheduled || d.stopped) return;
  d.scheduled = true;
  setImmediate(() => pump(d));
}

/** One slice: queued writes first, then queued Leases, until the slice's time is up. */
function pump(d: Driver): void {
  d.scheduled = false;
  if (d.stopped) return;
  const deadline = performance.now() + SLICE_MS;
  while (!d.writes.empty && performance.now() < deadline) d.writes.runNext();
  for (const leaseKey of d.queue) {
    if (performance.now() >= deadline) break;
    // A Lease whose pings are still queued is reconciled once they are written.
    if (d.writes.holds(leaseKey)) continue;
    d.queue.delete(leaseKey);
    reconcileLease(d, leaseKey, (run) => d.writes.push(leaseKey, run));
  }
  collectGarbage(d, (run) => d.writes.push(undefined, run));
  if (!d.writes.empty || d.queue.size > 0) schedule(d);
}

function reconcileAll(d: Driver): void {
  while (!d.writes.empty) d.writes.runNext();
  for (const leaseKey of d.index.byLease.keys()) d.queue.add(leaseKey);
  for (let round = 0; round < SYNC_ROUNDS && d.queue.size > 0; round++) {
    const leaseKeys = [...d.queue];
    d.queue.clear();
    for (const leaseKey of leaseKeys) reconcileLease(d, leaseKey, (run) => run());
  }
  collectGarbage(d, (run) => run());
}

/** Carries out reconcile's answer for one Lease: the Lease's write at once, the pings through `emit`. */
function reconcileLease(d: Driver, leaseKey: string, emit: Emit): void {
  const members = d.index.byLease.get(leaseKey);
  if (members === undefined) return;
  for (const action of reconcile(members, d.leases.store.get(leaseKey), d.leases.now())) {
    if (action.kind === 'ping') emit(() => ping(d, action.candidate, action.at));
    else writeLease(d, leaseKey, action);
  }
}

function writeLease(d: Driver, leaseKey: string, action: Exclude<ElectionAction, { kind: 'ping' }>): void {
  const { namespace, name } = splitKey(leaseKey);
  if (action.kind === 'create-lease')
    createLease(d.leases, namespace, { metadata: { name, namespace }, spec: action.spec }, WRITE);
  else updateLease(d.leases, namespace, name, { ...action.lease, spec: action.spec }, WRITE);
}

/** The ping, unless the candidate changed since it was read (that change queued its Lease again). */
function ping(d: Driver, c: Candidate, at: number): void {
  if (d.candidates.store.get(c.key) !== c.object) return;
  const spec = { ...(objectAt(c.object, 'spec') ?? {}), pingTime: formatMicroTime(at) };
  const { namespace, name } = splitKey(c.key);
  updateLease(d.candidates, namespace, name, { ...c.object, spec }, WRITE);
}

/** leasecandidategc_controller.go: every gcCheckPeriod, candidates not renewed for leaseCandidateValidDuration are deleted. */
function collectGarbage(d: Driver, emit: Emit): void {
  const t = d.leases.now();
  if (t - d.lastGc < LEASE_CANDIDATE_GC_PERIOD_MS) return;
  d.lastGc = t;
  for (const c of staleCandidates(d.index, t))
    emit(() => {
      // Renewed since the scan: no longer garbage.
      if (d.candidates.store.get(c.key) !== c.object) return;
      const { namespace, name } = splitKey(c.key);
      deleteLease(d.candidates, namespace, name, { dryRun: false, preconditions: {} });
    });
}
