// What the coordinated-leader-election controller does, decided without I/O (pkg/controlplane/controller/
// leaderelection/): for one Lease, leaderelection_controller.go's reconcileElectionStep with electionNeeded
// first, over the candidates the index keeps for that Lease, the Lease as stored (undefined when missing) and
// the time; and leasecandidategc_controller.go's choice of candidates to delete. The answers are values;
// election-controller.ts carries them out.
import type { JsonObject } from '../json.js';
import { objectAt, stringAt } from '../json.js';
import { formatMicroTime } from '../time.js';
import type { CandidateIndex, LeaseCandidates } from './candidate-index.js';
import { OLDEST_EMULATION_VERSION } from './candidate-resource.js';
import type { Candidate } from './election.js';
import {
  DEFAULT_LEASE_DURATION_SECONDS,
  ELECTION_DURATION_MS,
  isLeaseExpired,
  LEASE_CANDIDATE_VALID_MS,
  pickBestLeaderOldestEmulationVersion,
  pickBestStrategy,
} from './election.js';

export type ElectionAction =
  /** Ask a candidate to renew: write `pingTime` = `at` into it (unless it changed since it was read). */
  | { kind: 'ping'; candidate: Candidate; at: number }
  /** Create the missing Lease with this spec. */
  | { kind: 'create-lease'; spec: JsonObject }
  /** Write this spec over the stored Lease `lease`. */
  | { kind: 'update-lease'; lease: JsonObject; spec: JsonObject };

/** reconcileElectionStep: wait for pings to be answered, ping the silent, then elect among those that answered. */
export function reconcile(members: LeaseCandidates, lease: JsonObject | undefined, now: number): ElectionAction[] {
  if (members.size === 0 || !electionNeeded(members, lease, now)) return [];
  const oldest = members.oldestRenewal();
  if (oldest !== undefined && oldest + ELECTION_DURATION_MS > now) {
    // Every admissible candidate renewed within the election duration: the pass below would ping nobody and count
    // them all as acknowledged, so the index answers it without visiting them.
    if (members.awaitingPing(now, ELECTION_DURATION_MS)) return [];
    const strategy = members.bestStrategy();
    if (!strategy.ok) return [];
    const electee = strategy.strategy === OLDEST_EMULATION_VERSION ? members.electee() : undefined;
    return elect(lease, strategy.strategy, electee, now);
  }
  // listAdmissableCandidates: isLeaseCandidateExpired drops those not renewed for 30 minutes.
  const admissible = [...members.members.values()].filter(
    (c) => c.renewTime !== undefined && c.renewTime + LEASE_CANDIDATE_VALID_MS >= now,
  );
  if (admissible.length === 0) return [];
  const pings = pingsDue(admissible, now);
  if (pings !== 'none') return pings === 'waiting' ? [] : pings;
  const acked = admissible.filter((c) => c.renewTime !== undefined && c.renewTime + ELECTION_DURATION_MS > now);
  if (acked.length === 0) return [];
  const strategy = pickBestStrategy(acked);
  if (!strategy.ok) return [];
  const electee =
    strategy.strategy === OLDEST_EMULATION_VERSION ? pickBestLeaderOldestEmulationVersion(acked) : undefined;
  return elect(lease, strategy.strategy, electee, now);
}

/** electionNeeded: no Lease, an expired or free one, the 15-minute refresh, or a better electee than the holder. */
export function electionNeeded(members: LeaseCandidates, lease: JsonObject | undefined, now: number): boolean {
  if (lease === undefined || isLeaseExpired(lease, now)) return true;
  const holder = stringAt(objectAt(lease, 'spec'), 'holderIdentity') ?? '';
  if (holder === '') return true;
  // Every 15 minutes an election refreshes all candidates (half the 30-minute validity). Unless that is due, no
  // candidate is expired, so the index's answers over all candidates are the admissible ones'.
  const oldest = members.oldestRenewal();
  if (oldest !== undefined && oldest + LEASE_CANDIDATE_VALID_MS / 2 < now) return true;
  const strategy = members.bestStrategy();
  if (!strategy.ok || strategy.strategy !== OLDEST_EMULATION_VERSION) return false;
  const electee = members.electee();
  return electee !== undefined && electee.name !== holder;
}

/**
 * reconcileElectionStep's pass over the admissible candidates: the pings to send, 'waiting' while some candidate's
 * ping is unanswered and younger than the election duration, 'none' when the vote can go ahead.
 */
function pingsDue(admissible: readonly Candidate[], now: number): ElectionAction[] | 'waiting' | 'none' {
  const pings: ElectionAction[] = [];
  let waiting = false;
  for (const c of admissible) {
    if (
      c.pingTime !== undefined &&
      c.pingTime + ELECTION_DURATION_MS > now &&
      c.renewTime !== undefined &&
      c.renewTime < c.pingTime
    ) {
      waiting = true;
      continue;
    }
    if (c.renewTime !== undefined && c.renewTime + ELECTION_DURATION_MS > now) continue;
    // An outdated ping is sent again only to a candidate that answered the last one.
    if (c.pingTime === undefined || (c.pingTime + ELECTION_DURATION_MS < now && c.pingTime < (c.renewTime ?? 0)))
      pings.push({ kind: 'ping', candidate: c, at: now });
  }
  return pings.length > 0 ? pings : waiting ? 'waiting' : 'none';
}

/**
 * The vote's write: create the Lease, or update it where it differs (reconcileElectionStep's last part). A free or
 * expired Lease goes straight to the electee, for a fresh term of the controller's duration; a valid term is never
 * cut short: the holder learns of the better candidate (preferredHolder) and yields when it ends.
 */
export function elect(
  lease: JsonObject | undefined,
  strategy: string,
  electee: Candidate | undefined,
  now: number,
): ElectionAction[] {
  const renewTime = formatMicroTime(now);
  if (lease === undefined) {
    const spec: JsonObject = { leaseDurationSeconds: DEFAULT_LEASE_DURATION_SECONDS, renewTime, strategy };
    if (electee !== undefined) spec['holderIdentity'] = electee.name;
    return [{ kind: 'create-lease', spec }];
  }
  const existing = objectAt(lease, 'spec') ?? {};
  const holder = stringAt(existing, 'holderIdentity') ?? '';
  const next: JsonObject = { ...existing, strategy };
  if (electee !== undefined && (holder === '' || (isLeaseExpired(lease, now) && holder !== electee.name))) {
    delete next['preferredHolder'];
    delete next['acquireTime'];
    Object.assign(next, {
      holderIdentity: electee.name,
      renewTime,
      leaseDurationSeconds: DEFAULT_LEASE_DURATION_SECONDS,
    });
  } else if (electee !== undefined && holder !== electee.name) {
    next['preferredHolder'] = electee.name;
  }
  return JSON.stringify(next) === JSON.stringify(existing) ? [] : [{ kind: 'update-lease', lease, spec: next }];
}

/** leasecandidategc_controller.go: the candidates to delete, those not renewed within leaseCandidateValidDuration (isLeaseCandidateExpired). */
export function staleCandidates(index: CandidateIndex, now: number): Candidate[] {
  const stale: Candidate[] = [];
  for (const members of index.byLease.values())
    for (const c of members.members.values())
      if (c.renewTime === undefined || c.renewTime + LEASE_CANDIDATE_VALID_MS < now) stale.push(c);
  return stale;
}
