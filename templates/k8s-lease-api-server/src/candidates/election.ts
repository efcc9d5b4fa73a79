// The election rules of kube-apiserver's coordinated-leader-election controller, as pure functions over parsed
// candidates: pkg/controlplane/controller/leaderelection election.go (pickBestLeaderOldestEmulationVersion,
// pickBestStrategy, compare) and leaderelection_controller.go (its constants, isLeaseExpired).
import type { JsonObject } from '../json.js';
import { numberAt, objectAt, stringAt } from '../json.js';
import { metadataOf } from '../operations/identity.js';
import { splitKey } from '../store/lease-store.js';
import { timeToEpochMs } from '../time.js';
import type { Semver } from './semver.js';
import { parseSemverTolerant } from './semver.js';

/** The controller's constants (leaderelection_controller.go, leasecandidategc_controller.go). */
export const ELECTION_DURATION_MS = 5_000;
export const DEFAULT_LEASE_DURATION_SECONDS = 5;
export const LEASE_CANDIDATE_VALID_MS: number = 30 * 60_000;
/** kube-apiserver starts the LeaseCandidate GC with a 30-minute period (wait.UntilWithContext). */
export const LEASE_CANDIDATE_GC_PERIOD_MS: number = 30 * 60_000;

/** A LeaseCandidate as the controller reads it, parsed once per change. */
export interface Candidate {
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

export function timeAt(spec: JsonObject | undefined, field: string): number | undefined {
  const value = stringAt(spec, field);
  return value === undefined ? undefined : timeToEpochMs(value);
}

function semverOf(text: string | undefined): Semver | undefined {
  if (text === undefined) return undefined;
  const parsed = parseSemverTolerant(text);
  return parsed.ok ? parsed.value : undefined;
}

export function readCandidate(key: string, object: JsonObject): Candidate {
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
export function compareVersions(a: Semver | undefined, b: Semver | undefined): number {
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

export function isLeaseExpired(lease: JsonObject, now: number): boolean {
  const spec = objectAt(lease, 'spec');
  const renew = timeAt(spec, 'renewTime');
  const duration = numberAt(spec, 'leaseDurationSeconds');
  return renew === undefined || duration === undefined || renew + duration * 1000 < now;
}
