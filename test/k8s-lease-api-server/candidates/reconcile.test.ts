// The coordinated-leader-election controller's decisions, without a store or a clock
// (templates/k8s-lease-api-server/src/candidates/reconcile.ts). The rows named after a case of upstream's
// TestReconcileElectionStep (pkg/controlplane/controller/leaderelection/leaderelection_controller_test.go) take
// its candidates, Lease and expected Lease; the others cite the branch of leaderelection_controller.go
// (electionNeeded, reconcileElectionStep, listAdmissableCandidates) or leasecandidategc_controller.go that fixes
// the answer. A LeaseCandidate here carries v1beta1's `strategy` where upstream's test has v1alpha1's
// preferredStrategies (readCandidate reads either).
import { describe, expect, it } from 'vitest';
import {
  CandidateIndex,
  LeaseCandidates,
} from '../../../templates/k8s-lease-api-server/src/candidates/candidate-index.js';
import type { ElectionAction } from '../../../templates/k8s-lease-api-server/src/candidates/reconcile.js';
import { reconcile, staleCandidates } from '../../../templates/k8s-lease-api-server/src/candidates/reconcile.js';
import type { JsonObject } from '../../../templates/k8s-lease-api-server/src/json.js';
import { formatMicroTime } from '../../../templates/k8s-lease-api-server/src/time.js';

const NOW = Date.UTC(2026, 0, 1, 12);
const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const ELECTION = 5 * SECOND;
const OLDEST = 'OldestEmulationVersion';
const LEASE_KEY = 'default/component-A';

interface CandidateSpec {
  version: string;
  renewedAt?: number;
  pingedAt?: number;
  strategy?: string;
}

function candidate(name: string, { version, renewedAt, pingedAt, strategy = OLDEST }: CandidateSpec): JsonObject {
  const spec: JsonObject = { leaseName: 'component-A', binaryVersion: version, emulationVersion: version, strategy };
  if (renewedAt !== undefined) spec['renewTime'] = formatMicroTime(renewedAt);
  if (pingedAt !== undefined) spec['pingTime'] = formatMicroTime(pingedAt);
  return { metadata: { name, namespace: 'default', creationTimestamp: '2026-01-01T00:00:00Z' }, spec };
}

function indexOf(candidates: Record<string, CandidateSpec>): CandidateIndex {
  const index = new CandidateIndex();
  for (const [name, spec] of Object.entries(candidates))
    index.apply(`default/${name}`, undefined, candidate(name, spec));
  return index;
}

const membersOf = (candidates: Record<string, CandidateSpec>): LeaseCandidates =>
  indexOf(candidates).byLease.get(LEASE_KEY) ?? new LeaseCandidates();

function lease(spec: JsonObject): JsonObject {
  return { metadata: { name: 'component-A', namespace: 'default', resourceVersion: '7' }, spec };
}
const heldBy = (holderIdentity: string, renewedAt: number, extra: JsonObject = {}): JsonObject =>
  lease({ holderIdentity, leaseDurationSeconds: 10, renewTime: formatMicroTime(renewedAt), ...extra });

/** What reconcile's actions come to, by name: pings by candidate, Lease writes by their spec. */
type Summary =
  | { kind: 'ping'; name: string; at: number }
  | { kind: 'create-lease'; spec: JsonObject }
  | { kind: 'update-lease'; spec: JsonObject };
const summary = (action: ElectionAction): Summary =>
  action.kind === 'ping'
    ? { kind: 'ping', name: action.candidate.name, at: action.at }
    : { kind: action.kind, spec: action.spec };

/** The controller's fresh term for an electee (reconcileElectionStep's leaderLease, or the reset of an expired one). */
const freshTerm = (holderIdentity: string | undefined, strategy = OLDEST): JsonObject => ({
  leaseDurationSeconds: 5,
  renewTime: formatMicroTime(NOW),
  strategy,
  ...(holderIdentity === undefined ? {} : { holderIdentity }),
});

interface Row {
  name: string;
  candidates: Record<string, CandidateSpec>;
  lease: JsonObject | undefined;
  expected: Summary[];
}

const rows: Row[] = [
  {
    name: 'TestReconcileElectionStep "no candidates, no lease, noop"',
    candidates: {},
    lease: undefined,
    expected: [],
  },
  {
    name: 'TestReconcileElectionStep "no candidates, lease exists. noop, not managed by CLE"',
    candidates: {},
    lease: heldBy('someone', NOW - 20 * SECOND),
    expected: [],
  },
  {
    name: 'TestReconcileElectionStep "candidates exist, no existing lease should create lease"',
    candidates: { 'component-identity-1': { version: '1.19.0', renewedAt: NOW } },
    lease: undefined,
    expected: [{ kind: 'create-lease', spec: freshTerm('component-identity-1') }],
  },
  {
    name: 'TestReconcileElectionStep "candidates exist, lease exists, unoptimal should set preferredHolder"',
    candidates: {
      'component-identity-1': { version: '1.19.0', renewedAt: NOW },
      'component-identity-2': { version: '1.18.0', renewedAt: NOW },
    },
    lease: heldBy('component-identity-1', NOW),
    expected: [
      {
        kind: 'update-lease',
        spec: {
          holderIdentity: 'component-identity-1',
          leaseDurationSeconds: 10,
          renewTime: formatMicroTime(NOW),
          strategy: OLDEST,
          preferredHolder: 'component-identity-2',
        },
      },
    ],
  },
  {
    name: 'TestReconcileElectionStep "candidates exist, should only elect leader from acked candidates"',
    candidates: {
      'component-identity-1': { version: '1.19.0', pingedAt: NOW - 2 * ELECTION, renewedAt: NOW - 4 * ELECTION },
      'component-identity-2': { version: '1.20.0', pingedAt: NOW - 1, renewedAt: NOW },
    },
    lease: undefined,
    expected: [{ kind: 'create-lease', spec: freshTerm('component-identity-2') }],
  },
  {
    name: 'TestReconcileElectionStep "candidates exist, lease exists, lease expired"',
    candidates: { 'component-identity-1': { version: '1.19.0', renewedAt: NOW } },
    lease: heldBy('component-identity-expired', NOW - MINUTE),
    expected: [{ kind: 'update-lease', spec: { ...freshTerm('component-identity-1') } }],
  },
  {
    name: 'TestReconcileElectionStep "candidates exist, no acked candidates should return error": nothing written',
    candidates: { 'component-identity-1': { version: '1.19.0', pingedAt: NOW - MINUTE, renewedAt: NOW - 2 * MINUTE } },
    lease: undefined,
    expected: [],
  },
  {
    name: 'TestReconcileElectionStep "candidates exist, should ping on election"',
    candidates: { 'component-identity-1': { version: '1.19.0', renewedAt: NOW - 2 * ELECTION } },
    lease: undefined,
    expected: [{ kind: 'ping', name: 'component-identity-1', at: NOW }],
  },
  {
    name: 'TestReconcileElectionStep "pinged candidate should have until electionDuration until election decision is made"',
    candidates: { 'component-identity-1': { version: '1.19.0', pingedAt: NOW, renewedAt: NOW - MINUTE } },
    lease: undefined,
    expected: [],
  },
  {
    name: 'TestReconcileElectionStep "candidates exist, lease exists, lease expired, 3rdparty strategy": holder kept',
    candidates: { 'component-identity-1': { version: '1.19.0', renewedAt: NOW, strategy: 'foo.com/bar' } },
    lease: heldBy('component-identity-expired', NOW - MINUTE),
    expected: [
      {
        kind: 'update-lease',
        spec: {
          holderIdentity: 'component-identity-expired',
          leaseDurationSeconds: 10,
          renewTime: formatMicroTime(NOW - MINUTE),
          strategy: 'foo.com/bar',
        },
      },
    ],
  },
  {
    name: 'electionNeeded "Leader is already most optimal": a valid Lease held by the best candidate needs nothing',
    candidates: {
      'component-identity-1': { version: '1.19.0', renewedAt: NOW - MINUTE },
      'component-identity-2': { version: '1.20.0', renewedAt: NOW - MINUTE },
    },
    lease: heldBy('component-identity-1', NOW - SECOND, { strategy: OLDEST }),
    expected: [],
  },
  {
    name: 'electionNeeded "Strategy is ignored by CLE": another strategy, a valid Lease: no election',
    candidates: {
      'component-identity-1': { version: '1.19.0', renewedAt: NOW, strategy: 'foo.com/bar' },
      'component-identity-2': { version: '1.19.0', renewedAt: NOW, strategy: 'foo.com/bar' },
    },
    lease: heldBy('component-identity-2', NOW - SECOND),
    expected: [],
  },
  {
    name: 'electionNeeded "every 15min enforce an election": a candidate renewed 16 minutes ago is pinged',
    candidates: { 'component-identity-1': { version: '1.19.0', renewedAt: NOW - 16 * MINUTE } },
    lease: heldBy('component-identity-1', NOW - SECOND, { strategy: OLDEST }),
    expected: [{ kind: 'ping', name: 'component-identity-1', at: NOW }],
  },
  {
    name: 'electionNeeded (HolderIdentity empty) and noHolderIdentity: a free valid Lease goes to the electee',
    candidates: { 'component-identity-1': { version: '1.19.0', renewedAt: NOW } },
    lease: lease({ holderIdentity: '', leaseDurationSeconds: 10, renewTime: formatMicroTime(NOW - SECOND) }),
    expected: [{ kind: 'update-lease', spec: freshTerm('component-identity-1') }],
  },
  {
    name: 'reconcileElectionStep: an outdated ping the candidate answered is sent again (PingTime.Before(RenewTime))',
    candidates: {
      'component-identity-1': { version: '1.19.0', pingedAt: NOW - 3 * ELECTION, renewedAt: NOW - 2 * ELECTION },
    },
    lease: undefined,
    expected: [{ kind: 'ping', name: 'component-identity-1', at: NOW }],
  },
  {
    name: 'listAdmissableCandidates (isLeaseCandidateExpired): a candidate not renewed for 30 minutes is not elected',
    candidates: { 'component-identity-1': { version: '1.19.0', renewedAt: NOW - 31 * MINUTE } },
    lease: undefined,
    expected: [],
  },
  {
    name: 'reconcileElectionStep reflect.DeepEqual: an expired Lease already naming the electee, nothing to write',
    candidates: { 'component-identity-1': { version: '1.19.0', renewedAt: NOW } },
    lease: heldBy('component-identity-1', NOW - MINUTE, { strategy: OLDEST }),
    expected: [],
  },
];

describe('reconcile (reconcileElectionStep with electionNeeded)', () => {
  it.each(rows)('$name', ({ candidates, lease: stored, expected }) => {
    expect(reconcile(membersOf(candidates), stored, NOW).map(summary)).toEqual(expected);
  });
});

describe('staleCandidates (leasecandidategc_controller.go, isLeaseCandidateExpired)', () => {
  it('names the candidates not renewed within 30 minutes, and those never renewed', () => {
    const index = indexOf({
      fresh: { version: '1.19.0', renewedAt: NOW - 29 * MINUTE },
      edge: { version: '1.19.0', renewedAt: NOW - 30 * MINUTE },
      stale: { version: '1.19.0', renewedAt: NOW - 31 * MINUTE },
      never: { version: '1.19.0' },
    });
    expect(
      staleCandidates(index, NOW)
        .map((c) => c.name)
        .sort(),
    ).toEqual(['never', 'stale']);
  });
});
