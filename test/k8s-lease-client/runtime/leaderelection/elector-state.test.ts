// The elector's state machine, step by step, without a server or a clock: every transition of
// templates/k8s-lease-client/src/runtime/leaderelection/elector-state.ts. The timing rules are client-go's
// (tools/leaderelection/leaderelection.go acquire, renew and tryAcquireOrRenew) with the two tightenings the
// module states: a term counts from when its write was sent, and a success handled after that term could have
// ended does not start leading (client-go's acquire() starts leading on any success, however late).
import { describe, expect, it } from 'vitest';
import type {
  ElectorEvent,
  ElectorState,
  StepConfig,
} from '../../../../templates/k8s-lease-client/src/runtime/leaderelection/elector-state.js';
import {
  delayBeforeAttempt,
  step,
} from '../../../../templates/k8s-lease-client/src/runtime/leaderelection/elector-state.js';
import { JITTER_FACTOR } from '../../../../templates/k8s-lease-client/src/runtime/leaderelection/options.js';

const RENEW_DEADLINE = 10_000;
const keep: StepConfig = { renewDeadline: RENEW_DEADLINE, releaseOnCancel: false };
const release: StepConfig = { renewDeadline: RENEW_DEADLINE, releaseOnCancel: true };

const acquiring: ElectorState = { kind: 'acquiring' };
const leadingUntil = (until: number): ElectorState => ({ kind: 'leading', until });
const attempted = (outcome: 'acquired' | 'renewed' | 'held' | 'yield' | 'failed', sentAt: number, now: number) =>
  ({ kind: 'attempted', outcome, sentAt, now }) as const satisfies ElectorEvent;

interface Case {
  name: string;
  state: ElectorState;
  event: ElectorEvent;
  config?: StepConfig;
  next: ElectorState;
}

const cases: Case[] = [
  // acquiring
  {
    name: 'acquiring: an acquisition answered in time leads until renewDeadline after its write was sent',
    state: acquiring,
    event: attempted('acquired', 1_000, 1_300),
    next: leadingUntil(1_000 + RENEW_DEADLINE),
  },
  {
    name: 'acquiring: the Lease already named us (a restart under the same identity): leading, as client-go',
    state: acquiring,
    event: attempted('renewed', 1_000, 1_300),
    next: leadingUntil(1_000 + RENEW_DEADLINE),
  },
  {
    name: 'acquiring: an acquisition whose reply is handled after the term it opens could have ended does not lead',
    state: acquiring,
    event: attempted('acquired', 1_000, 1_000 + RENEW_DEADLINE),
    next: acquiring,
  },
  {
    name: 'acquiring: a stale acquisition handled long after (a paused process) does not lead either',
    state: acquiring,
    event: attempted('acquired', 1_000, 60_000),
    next: acquiring,
  },
  {
    name: 'acquiring: a stale renewal of a Lease that named us does not lead',
    state: acquiring,
    event: attempted('renewed', 1_000, 1_000 + RENEW_DEADLINE + 1),
    next: acquiring,
  },
  {
    name: 'acquiring: the last moment before the deadline still leads, for what remains of the term',
    state: acquiring,
    event: attempted('acquired', 1_000, 1_000 + RENEW_DEADLINE - 1),
    next: leadingUntil(1_000 + RENEW_DEADLINE),
  },
  { name: 'acquiring: held by another', state: acquiring, event: attempted('held', 0, 10), next: acquiring },
  { name: 'acquiring: a failed attempt', state: acquiring, event: attempted('failed', 0, 10), next: acquiring },
  { name: 'acquiring: woke from a wait', state: acquiring, event: { kind: 'woke', now: 99_999 }, next: acquiring },
  {
    name: 'acquiring: cancelled, never led',
    state: acquiring,
    event: { kind: 'cancelled' },
    config: release,
    next: { kind: 'stopped', led: false },
  },
  // leading
  {
    name: 'leading: a renewal in time moves the end of the term to renewDeadline after its write was sent',
    state: leadingUntil(11_000),
    event: attempted('renewed', 3_000, 3_200),
    next: leadingUntil(3_000 + RENEW_DEADLINE),
  },
  {
    name: 'leading: a renewal answered after the term ended does not revive it (released)',
    state: leadingUntil(11_000),
    event: attempted('renewed', 10_900, 11_000),
    config: release,
    next: { kind: 'releasing' },
  },
  {
    name: 'leading: a renewal answered after the term ended does not revive it (kept)',
    state: leadingUntil(11_000),
    event: attempted('renewed', 10_900, 11_500),
    next: { kind: 'stopped', led: true },
  },
  {
    name: 'leading: another holder seen steps down at once',
    state: leadingUntil(11_000),
    event: attempted('held', 3_000, 3_100),
    next: { kind: 'stopped', led: true },
  },
  {
    name: 'leading: a failed renewal within the term keeps leading until it ends',
    state: leadingUntil(11_000),
    event: attempted('failed', 3_000, 3_100),
    next: leadingUntil(11_000),
  },
  {
    name: 'leading: a failed renewal at the end of the term steps down',
    state: leadingUntil(11_000),
    event: attempted('failed', 9_000, 11_000),
    config: release,
    next: { kind: 'releasing' },
  },
  {
    name: 'leading: waking within the term changes nothing',
    state: leadingUntil(11_000),
    event: { kind: 'woke', now: 10_999 },
    next: leadingUntil(11_000),
  },
  {
    name: 'leading: waking after the term (a paused leader) steps down before sending anything',
    state: leadingUntil(11_000),
    event: { kind: 'woke', now: 40_000 },
    next: { kind: 'stopped', led: true },
  },
  {
    name: 'leading: cancelled with releaseOnCancel releases',
    state: leadingUntil(11_000),
    event: { kind: 'cancelled' },
    config: release,
    next: { kind: 'releasing' },
  },
  {
    name: 'leading: cancelled without releaseOnCancel stops',
    state: leadingUntil(11_000),
    event: { kind: 'cancelled' },
    next: { kind: 'stopped', led: true },
  },
  // Coordinated "end of term" (leaderelection.go tryAcquireOrRenew step 2b): the holder stops renewing and its term runs out.
  {
    name: 'leading: yielding to a preferredHolder within the term keeps leading until the term ends',
    state: leadingUntil(11_000),
    event: attempted('yield', 3_000, 3_100),
    next: leadingUntil(11_000),
  },
  {
    name: 'leading: yielding at the end of the term steps down',
    state: leadingUntil(11_000),
    event: attempted('yield', 10_000, 11_000),
    config: release,
    next: { kind: 'releasing' },
  },
  {
    name: 'acquiring: a Lease naming us but marked for another holder is not taken up',
    state: acquiring,
    event: attempted('yield', 0, 10),
    next: acquiring,
  },
  {
    name: 'leading: an acquisition (the Lease was lost and re-taken) in time counts as a renewal',
    state: leadingUntil(11_000),
    event: attempted('acquired', 3_000, 3_100),
    next: leadingUntil(3_000 + RENEW_DEADLINE),
  },
  // a closed client: nothing can be sent, so no release either
  {
    name: 'acquiring: the client was closed, stopped without having led',
    state: acquiring,
    event: { kind: 'closed' },
    next: { kind: 'stopped', led: false },
  },
  {
    name: 'leading: the client was closed, stopped at once even with releaseOnCancel (a release could not be sent)',
    state: leadingUntil(11_000),
    event: { kind: 'closed' },
    config: release,
    next: { kind: 'stopped', led: true },
  },
  {
    name: 'releasing: the client was closed, stopped (the release cannot be sent)',
    state: { kind: 'releasing' },
    event: { kind: 'closed' },
    next: { kind: 'stopped', led: true },
  },
  // releasing, stopped
  {
    name: 'releasing: released',
    state: { kind: 'releasing' },
    event: { kind: 'released' },
    next: { kind: 'stopped', led: true },
  },
  {
    name: 'releasing: anything else waits for the release',
    state: { kind: 'releasing' },
    event: attempted('acquired', 0, 1),
    next: { kind: 'releasing' },
  },
  {
    name: 'stopped: final',
    state: { kind: 'stopped', led: false },
    event: attempted('acquired', 0, 1),
    next: { kind: 'stopped', led: false },
  },
];

describe('step: every transition of the elector', () => {
  it.each(cases)('$name', ({ state, event, config, next }) => {
    expect(step(state, event, config ?? keep)).toEqual(next);
  });

  it('is pure: the given state is left as it was', () => {
    const state = leadingUntil(11_000);
    const frozen = Object.freeze({ ...state });
    step(frozen, attempted('renewed', 3_000, 3_100), keep);
    expect(frozen).toEqual(state);
  });
});

describe('delayBeforeAttempt', () => {
  it('while acquiring: retryPeriod jittered by up to JITTER_FACTOR (wait.JitterUntil)', () => {
    expect(delayBeforeAttempt(acquiring, 0, 2_000, () => 0)).toBe(2_000);
    expect(delayBeforeAttempt(acquiring, 0, 2_000, () => 0.5)).toBe(2_000 * (1 + 0.5 * JITTER_FACTOR));
  });

  it('while leading: retryPeriod, but never past the end of the term, and never negative', () => {
    expect(delayBeforeAttempt(leadingUntil(11_000), 1_000, 2_000, () => 0.9)).toBe(2_000);
    expect(delayBeforeAttempt(leadingUntil(11_000), 10_500, 2_000, () => 0.9)).toBe(500);
    expect(delayBeforeAttempt(leadingUntil(11_000), 12_000, 2_000, () => 0.9)).toBe(0);
  });
});
