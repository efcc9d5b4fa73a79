// The elector's options by themselves: defaults, client-go's NewLeaderElector validation
// (tools/leaderelection/leaderelection.go; its messages are kept where the rule is the same) and the default onError.
// The one-line RangeError that createLeaderElector throws from these is elector.test.ts's.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ElectionClock } from '../../../../templates/k8s-lease-client/src/runtime/leaderelection/clock.js';
import {
  JITTER_FACTOR,
  validateElectorOptions,
  warnOnce,
} from '../../../../templates/k8s-lease-client/src/runtime/leaderelection/options.js';
import type { LeaderElectorOptions } from '../../../../templates/k8s-lease-client/src/runtime/leaderelection/options.js';
import { createClient } from '../../../../templates/k8s-lease-client/src/runtime/transport.js';

const clock: ElectionClock = { now: () => 0, sleep: async () => {} };
const base: LeaderElectorOptions = {
  client: createClient({ baseUrl: 'http://127.0.0.1:1' }),
  namespace: 'default',
  name: 'lock',
  identity: 'baz',
  onStartedLeading: () => {},
  onStoppedLeading: () => {},
};

function problem(patch: Partial<LeaderElectorOptions>): string | undefined {
  const validated = validateElectorOptions({ ...base, ...patch }, clock);
  return validated.ok ? undefined : validated.message;
}

describe('validateElectorOptions', () => {
  it("fills client-go's defaults (LeaseDuration 15 s, RenewDeadline 10 s, RetryPeriod 2 s) and keeps the rest", () => {
    const validated = validateElectorOptions(base, clock);
    expect(validated.ok).toBe(true);
    if (!validated.ok) return;
    expect(validated.config).toMatchObject({
      client: base.client,
      namespace: 'default',
      name: 'lock',
      identity: 'baz',
      leaseDuration: 15_000,
      renewDeadline: 10_000,
      retryPeriod: 2_000,
      releaseOnCancel: false,
      coordinated: false,
      clock,
      random: Math.random,
    });
  });

  it('passes releaseOnCancel, coordinated, random and onError through', () => {
    const random = (): number => 0.5;
    const onError = (): void => {};
    const validated = validateElectorOptions(
      { ...base, releaseOnCancel: true, coordinated: true, random, onError },
      clock,
    );
    expect(validated.ok && validated.config).toMatchObject({
      releaseOnCancel: true,
      coordinated: true,
      random,
      onError,
    });
  });

  it("accepts leaderelection_test.go's TestLeaderElectionConfigValidation config (15 s, 2 s, 1 s)", () => {
    expect(problem({ leaseDuration: 15_000, renewDeadline: 2_000, retryPeriod: 1_000 })).toBeUndefined();
  });

  it.each<[string, Partial<LeaderElectorOptions>, string]>([
    // leaderelection.go, NewLeaderElector: LeaseDuration <= RenewDeadline.
    [
      'leaseDuration equal to renewDeadline',
      { leaseDuration: 10_000 },
      'leaseDuration must be greater than renewDeadline',
    ],
    // RenewDeadline <= JitterFactor × RetryPeriod: equality is refused too.
    [
      'renewDeadline equal to JitterFactor × retryPeriod',
      { renewDeadline: JITTER_FACTOR * 2_000 },
      'renewDeadline must be greater than retryPeriod*JitterFactor',
    ],
    ['retryPeriod 0', { retryPeriod: 0 }, 'retryPeriod must be greater than zero'],
    // leaderelection_test.go, TestLeaderElectionConfigValidation: "Lock identity is empty".
    ['an empty identity', { identity: '' }, 'identity must be a non-empty string'],
    [
      'no onStartedLeading',
      { onStartedLeading: undefined as unknown as LeaderElectorOptions['onStartedLeading'] },
      'onStartedLeading callback must be a function',
    ],
    [
      'no onStoppedLeading',
      { onStoppedLeading: undefined as unknown as LeaderElectorOptions['onStoppedLeading'] },
      'onStoppedLeading callback must be a function',
    ],
    [
      'an infinite renewDeadline',
      { renewDeadline: Number.POSITIVE_INFINITY },
      'leaseDuration, renewDeadline and retryPeriod must be finite numbers of ms',
    ],
  ])('refuses %s', (_name, patch, message) => {
    expect(problem(patch)).toBe(message);
  });

  it("reports the first problem in client-go's order: durations before callbacks before identity", () => {
    expect(
      problem({ leaseDuration: 1_000, renewDeadline: 1_000, identity: '', onStartedLeading: undefined as never }),
    ).toBe('leaseDuration must be greater than renewDeadline');
    expect(problem({ identity: '', onStoppedLeading: undefined as never })).toBe(
      'onStoppedLeading callback must be a function',
    );
  });

  it('accepts renewDeadline just below the whole seconds written, down to a one-second Lease', () => {
    expect(problem({ leaseDuration: 2_999, renewDeadline: 1_999, retryPeriod: 100 })).toBeUndefined();
    expect(problem({ leaseDuration: 1_000, renewDeadline: 999, retryPeriod: 100 })).toBeUndefined();
  });
});

describe('warnOnce (the default onError)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('warns once per distinct message, prefixed with the context, for errors and other values alike', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const onError = warnOnce('leader election default/lock (a)');
    onError(new Error('connection refused'));
    onError(new Error('connection refused'));
    onError('a string');
    onError(new TypeError('a string'));
    expect(warn.mock.calls).toEqual([
      ['leader election default/lock (a): connection refused'],
      ['leader election default/lock (a): a string'],
    ]);
  });

  it('past 64 distinct messages, says once that it stops, then stays silent', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const onError = warnOnce('ctx');
    for (let i = 0; i < 100; i++) onError(new Error(`failure ${i}`));
    expect(warn).toHaveBeenCalledTimes(65);
    expect(warn.mock.calls[63]).toEqual(['ctx: failure 63']);
    expect(warn.mock.calls[64]).toEqual(['ctx: further errors not shown']);
  });

  it('each onError remembers its own messages', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    warnOnce('one')(new Error('x'));
    warnOnce('two')(new Error('x'));
    expect(warn).toHaveBeenCalledTimes(2);
  });
});
