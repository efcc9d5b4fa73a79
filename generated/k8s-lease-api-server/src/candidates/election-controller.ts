// Copied by lease-api-generator from templates/server/candidates/election-controller.ts. DO NOT EDIT: edit that file and run `npm run generate`.
// kube-apiserver's coordinated-leader-election controller (feature gate CoordinatedLeaderElection), ported
// from pkg/controlplane/controller/leaderelection: leaderelection_controller.go (electionNeeded,
// reconcileElectionStep), election.go (pickBestLeaderOldestEmulationVersion, pickBestStrategy, compare)
// and leasecandidategc_controller.go. It writes through the same operations as HTTP requests, so every
// change gets a resourceVersion and reaches watchers. Time is the server's (injectable) clock.
import type { JsonObject } from '../json.js';
import { numberAt, objectAt, stringAt } from '../json.js';
import type { OperationContext, WriteOptions } from '../operations/context.js';
import { createLease } from '../operations/create.js';
import { deleteLease } from '../operations/delete.js';
import { metadataOf } from '../operations/identity.js';
import { updateLease } from '../operations/update.js';
import { splitKey, storeKey } from '../store/lease-store.js';
import { formatMicroTime, timeToEpochMs } from '../time.js';
import { OLDEST_EMULATION_VERSION } from './candidate-resource.js';
import type { Semver } from './semver.js';
import { parseSemverTolerant } from './semver.js';

/** The controller's constants (leaderelection_controller.go, leasecandidategc_controller.go). */
export const ELECTION_DURATION_MS = 5_000;
export const DEFAULT_LEASE_DURATION_SECONDS = 5;
export const LEASE_CANDIDATE_VALID_MS: number = 30 * 60_000;
/** kube-apiserver starts the LeaseCandidate GC with a 30-minute period (wait.UntilWithContext). */
export const LEASE_CANDIDATE_GC_PERIOD_MS: number = 30 * 60_000;
const CONTROLLER = 'leader-election-controller';
const WRITE: WriteOptions = { dryRun: false, fieldManager: CONTROLLER, fieldValidation: 'Ignore' };

interface Candidate {
  key: string;
  object: JsonObject;
  name: string;
  creation: number;
  renewTime: number | undefined;
  pingTime: number | undefined;
  strategy: string | undefined;
  binary: Semver | undefined;
  emulation: Semver | undefined;
}

function timeAt(spec: JsonObject | undefined, field: string): number | undefined {
  const value = stringAt(spec, field);
  return value === undefined ? undefined : timeToEpochMs(value);
}

function semverOf(text: string | undefined): Semver | undefined {
  if (text === undefined) return undefined;
  const parsed = parseSemverTolerant(text);
  return parsed.ok ? parsed.value : undefined;
}

function readCandidate(key: string, object: JsonObject): Candidate {
  const spec = objectAt(object, 'spec');
  const list = spec?.['preferredStrategies'];
  // v1alpha1's ordered list: its first entry is the candidate's preference (the 1.31 topological merge of
  // several lists is not ported; every candidate of one release sends the same list).
  const first = Array.isArray(list) && typeof list[0] === 'string' ? list[0] : undefined;
  return {
    key,
    object,
    name: splitKey(key).name,
    // The server always sets creationTimestamp; 0 keeps a missing one comparable.
    creation: timeToEpochMs(stringAt(metadataOf(object), 'creationTimestamp') ?? '') || 0,
    renewTime: timeAt(spec, 'renewTime'),
    pingTime: timeAt(spec, 'pingTime'),
    strategy: stringAt(spec, 'strategy') ?? first,
    binary: semverOf(stringAt(spec, 'binaryVersion')),
    emulation: semverOf(stringAt(spec, 'emulationVersion')),
  };
}

/** Unparsable versions count as 0.0.0, as getEmulationVersion/getBinaryVersion return semver.Version{}. */
function compareVersions(a: Semver | undefined, b: Semver | undefined): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? -1 : 1;
  return a.compare(b);
}

/**
 * election.go compare: -1 when lhs is the better leader: older emulation version, then older binary version,
 * then the earlier creationTimestamp. Where kube-apiserver falls back to its lister's order (timestamps
 * within one second), the name decides, so that the outcome does not depend on arrival order.
 */
export function compareCandidates(lhs: Candidate, rhs: Candidate): number {
  const byEmulation = compareVersions(lhs.emulation, rhs.emulation);
  if (byEmulation !== 0) return byEmulation;
  const byBinary = compareVersions(lhs.binary, rhs.binary);
  if (byBinary !== 0) return byBinary;
  if (lhs.creation !== rhs.creation) return lhs.creation < rhs.creation ? -1 : 1;
  return lhs.name === rhs.name ? 0 : lhs.name < rhs.name ? -1 : 1;
}

export function pickBestLeaderOldestEmulationVersion(candidates: readonly Candidate[]): Candidate | undefined {
  let electee: Candidate | undefined;
  for (const c of candidates) {
    if (c.binary === undefined || c.emulation === undefined) continue;
    if (electee === undefined || compareCandidates(electee, c) > 0) electee = c;
  }
  return electee;
}

/** pickBestStrategy (1.32+): the strategy of the candidates with the newest binary version; disagreement among them is an error. */
export function pickBestStrategy(
  candidates: readonly Candidate[],
): { ok: true; strategy: string } | { ok: false; error: string } {
  let best: Candidate | undefined;
  let strategy: string | undefined;
  for (const c of candidates) {
    if (c.strategy === undefined) continue;
    const order = best === undefined ? 1 : compareVersions(c.binary, best.binary);
    if (best === undefined || order > 0) {
      best = c;
      strategy = c.strategy;
    } else if (order === 0 && c.strategy !== strategy) {
      return {
        ok: false,
        error: `candidates with the same binary version have different strategies ${strategy ?? ''} and ${c.strategy}`,
      };
    }
  }
  return strategy === undefined ? { ok: false, error: 'no strategy' } : { ok: true, strategy };
}

function isLeaseExpired(lease: JsonObject, now: number): boolean {
  const spec = objectAt(lease, 'spec');
  const renew = timeAt(spec, 'renewTime');
  const duration = numberAt(spec, 'leaseDurationSeconds');
  return renew === undefined || duration === undefined || renew + duration * 1000 < now;
}

export interface ElectionController {
  /** One pass over every Lease some candidate names, then (when its period has passed) the garbage collection of stale candidates. */
  reconcileAll(): void;
  stop(): void;
}

/**
 * leases: the Lease operations; candidates: the LeaseCandidate operations (any served version: they share one store).
 * resyncMs: how often a pass runs on its own (the controller's 5 s requeue); 0 for none (tests drive reconcileAll).
 */
export function startElectionController(
  leases: OperationContext,
  candidates: OperationContext,
  resyncMs: number,
): ElectionController {
  const now = leases.now;
  let lastGc = now();
  let scheduled = false;
  // The informer's index and the controller's workqueue: which candidates name each Lease, and which
  // Leases changed since the last pass. A pass then costs what changed, not all candidates times all
  // Leases (10,000 candidates for 10,000 Leases made every write a 10^8-step pass).
  const byLease = new Map<string, Set<string>>();
  const dirty = new Set<string>();
  const leaseKeyOf = (key: string, object: JsonObject | undefined): string | undefined => {
    const leaseName = object === undefined ? undefined : stringAt(objectAt(object, 'spec'), 'leaseName');
    return leaseName === undefined ? undefined : storeKey(splitKey(key).namespace, leaseName);
  };
  const index = (key: string, before: JsonObject | undefined, after: JsonObject | undefined): void => {
    const from = leaseKeyOf(key, before);
    const to = leaseKeyOf(key, after);
    if (from !== undefined && from !== to) {
      const members = byLease.get(from);
      members?.delete(key);
      if (members?.size === 0) byLease.delete(from);
    }
    if (to !== undefined) byLease.set(to, (byLease.get(to) ?? new Set<string>()).add(key));
    for (const target of [from, to]) if (target !== undefined) dirty.add(target);
  };
  const initial = candidates.store.current();
  for (const key of initial.keys) index(key, undefined, initial.get(key));
  const schedule = (): void => {
    if (scheduled) return;
    scheduled = true;
    // Store listeners run inside a commit: the controller reacts after it, as an informer would.
    setImmediate(() => {
      scheduled = false;
      reconcileDirty();
    });
  };

  const candidatesFor = (namespace: string, leaseName: string): Candidate[] => {
    const out: Candidate[] = [];
    for (const key of byLease.get(storeKey(namespace, leaseName)) ?? []) {
      const object = candidates.store.get(key);
      if (object === undefined) continue;
      const c = readCandidate(key, object);
      // listAdmissableCandidates: isLeaseCandidateExpired drops those not renewed for 30 minutes.
      if (c.renewTime !== undefined && c.renewTime + LEASE_CANDIDATE_VALID_MS >= now()) out.push(c);
    }
    // The index is a Set in arrival order; the election must not depend on it.
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  };

  const electionNeeded = (list: Candidate[], lease: JsonObject | undefined): boolean => {
    if (lease === undefined || isLeaseExpired(lease, now())) return true;
    const holder = stringAt(objectAt(lease, 'spec'), 'holderIdentity') ?? '';
    if (holder === '') return true;
    // Every 15 minutes an election refreshes all candidates (half the 30-minute validity).
    if (list.some((c) => c.renewTime !== undefined && c.renewTime + LEASE_CANDIDATE_VALID_MS / 2 < now())) return true;
    const strategy = pickBestStrategy(list);
    if (!strategy.ok || strategy.strategy !== OLDEST_EMULATION_VERSION) return false;
    const electee = pickBestLeaderOldestEmulationVersion(list);
    return electee !== undefined && electee.name !== holder;
  };

  const ping = (c: Candidate, at: number): void => {
    const spec = { ...(objectAt(c.object, 'spec') ?? {}), pingTime: formatMicroTime(at) };
    const { namespace, name } = splitKey(c.key);
    updateLease(candidates, namespace, name, { ...c.object, spec }, WRITE);
  };

  /** reconcileElectionStep: wait for pings to be answered, ping the silent, then elect among those that answered. */
  const reconcile = (namespace: string, leaseName: string): void => {
    const list = candidatesFor(namespace, leaseName);
    if (list.length === 0) return;
    const leaseKey = storeKey(namespace, leaseName);
    const lease = leases.store.get(leaseKey);
    if (!electionNeeded(list, lease)) return;
    const t = now();
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
        ping(c, t);
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
    const renewTime = formatMicroTime(t);
    if (lease === undefined) {
      const spec: JsonObject = {
        leaseDurationSeconds: DEFAULT_LEASE_DURATION_SECONDS,
        renewTime,
        strategy: strategy.strategy,
      };
      if (electee !== undefined) spec['holderIdentity'] = electee.name;
      createLease(leases, namespace, { metadata: { name: leaseName, namespace }, spec }, WRITE);
      return;
    }
    const existing = objectAt(lease, 'spec') ?? {};
    const holder = stringAt(existing, 'holderIdentity') ?? '';
    const next: JsonObject = { ...existing, strategy: strategy.strategy };
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

  /** leasecandidategc_controller.go: every gcCheckPeriod, candidates not renewed for leaseCandidateValidDuration (or never) are deleted. */
  const collectGarbage = (): void => {
    if (now() - lastGc < LEASE_CANDIDATE_GC_PERIOD_MS) return;
    lastGc = now();
    const snapshot = candidates.store.current();
    for (const key of [...snapshot.keys]) {
      const object = snapshot.get(key);
      if (object === undefined) continue;
      const renew = timeAt(objectAt(object, 'spec'), 'renewTime');
      if (renew !== undefined && renew + LEASE_CANDIDATE_VALID_MS >= now()) continue;
      const { namespace, name } = splitKey(key);
      deleteLease(candidates, namespace, name, { dryRun: false, preconditions: {} });
    }
  };

  const reconcileTargets = (targets: Iterable<string>): void => {
    for (const target of [...targets]) {
      const { namespace, name } = splitKey(target);
      reconcile(namespace, name);
    }
    collectGarbage();
  };
  /** A pass over the Leases whose candidates or Lease changed (the workqueue). */
  const reconcileDirty = (): void => {
    const targets = [...dirty];
    dirty.clear();
    reconcileTargets(targets);
  };
  const reconcileAll = (): void => {
    dirty.clear();
    reconcileTargets(byLease.keys());
  };

  const unsubscribe = [
    candidates.store.subscribe((event) => {
      index(event.key, event.prev, event.type === 'DELETED' ? undefined : event.object);
      schedule();
    }),
    leases.store.subscribe((event) => {
      if (!byLease.has(event.key)) return;
      dirty.add(event.key);
      schedule();
    }),
  ];
  const timer = resyncMs > 0 ? setInterval(reconcileAll, resyncMs) : undefined;
  timer?.unref();
  return {
    reconcileAll,
    stop() {
      for (const u of unsubscribe) u();
      if (timer !== undefined) clearInterval(timer);
    },
  };
}
