import { describe, expect, it } from 'vitest';
import {
  BACKOFF_RESET_MS,
  BackoffPolicy,
  backoffSettings,
  MIN_HEALTHY_CONNECTION_MS,
  provedItself,
} from '../../../../templates/k8s-lease-client/src/runtime/watch/backoff.js';
import type { ConnectionRecord } from '../../../../templates/k8s-lease-client/src/runtime/watch/backoff.js';

const delaysOf = (policy: BackoffPolicy, count: number, retryAfterMs?: number): Array<number | undefined> =>
  Array.from({ length: count }, () => policy.next(retryAfterMs));

describe('BackoffPolicy: the delay before each retry', () => {
  it.each([
    {
      name: 'doubles from initialDelayMs up to maxDelayMs',
      settings: { initialDelayMs: 100, maxDelayMs: 1_000, jitter: 0 },
      random: 0,
      expected: [100, 200, 400, 800, 1_000, 1_000],
    },
    {
      name: 'defaults: 200 ms doubling to 30 s, shortened by up to 20 %',
      settings: {},
      random: 1,
      expected: [160, 320, 640, 1_280, 2_560, 5_120],
    },
    {
      name: 'jitter only ever shortens a delay',
      settings: { initialDelayMs: 1_000, maxDelayMs: 1_000, jitter: 0.5 },
      random: 0.5,
      expected: [750, 750, 750],
    },
    {
      name: 'an initialDelayMs of 0 retries at once every time',
      settings: { initialDelayMs: 0, maxDelayMs: 0 },
      random: 0.3,
      expected: [0, 0, 0],
    },
    {
      name: 'maxRetries: the failure past it gets no delay (give up)',
      settings: { maxRetries: 2, initialDelayMs: 10, jitter: 0 },
      random: 0,
      expected: [10, 20, undefined],
    },
    {
      name: 'maxRetries 0 gives up at the first failure',
      settings: { maxRetries: 0 },
      random: 0,
      expected: [undefined],
    },
  ])('$name', ({ settings, random, expected }) => {
    const policy = new BackoffPolicy(backoffSettings(settings), () => random);
    expect(delaysOf(policy, expected.length)).toEqual(expected);
    expect(policy.failures).toBe(expected.length);
  });

  it("honours a server's Retry-After longer than the backoff, even beyond maxDelayMs, and never shortens it", () => {
    const policy = new BackoffPolicy(backoffSettings({ initialDelayMs: 100, maxDelayMs: 400, jitter: 0 }), () => 0);
    expect(delaysOf(policy, 4, 250)).toEqual([250, 250, 400, 400]);
    expect(policy.next(5_000)).toBe(5_000);
  });

  it('starts over from initialDelayMs after a reset (a connection proved itself)', () => {
    const policy = new BackoffPolicy(backoffSettings({ initialDelayMs: 100, jitter: 0 }), () => 0);
    expect(delaysOf(policy, 3)).toEqual([100, 200, 400]);
    policy.reset();
    expect(policy.failures).toBe(0);
    expect(delaysOf(policy, 2)).toEqual([100, 200]);
  });

  it('a delay never overflows to Infinity after very many failures', () => {
    const policy = new BackoffPolicy(backoffSettings({ initialDelayMs: 1, maxDelayMs: 50, jitter: 0 }), () => 0);
    const delays = delaysOf(policy, 2_000);
    expect(delays.at(-1)).toBe(50);
  });
});

describe('backoffSettings: bad reconnect options are refused naming the option and the value', () => {
  it.each([
    [{ maxRetries: -1 }, 'reconnect.maxRetries must be >= 0, got -1'],
    [{ maxRetries: Number.NaN }, 'reconnect.maxRetries must be >= 0, got NaN'],
    [{ initialDelayMs: -5 }, 'reconnect.initialDelayMs must be a finite number >= 0, got -5'],
    [
      { initialDelayMs: Number.POSITIVE_INFINITY },
      'reconnect.initialDelayMs must be a finite number >= 0, got Infinity',
    ],
    [{ initialDelayMs: 500, maxDelayMs: 100 }, 'reconnect.maxDelayMs must be finite and >= initialDelayMs, got 100'],
    [{ jitter: 1.5 }, 'reconnect.jitter must be within 0..1, got 1.5'],
  ])('%o', (reconnect, message) => {
    expect(() => backoffSettings(reconnect)).toThrow(new RangeError(message));
  });
});

describe('provedItself: which connections reset the backoff', () => {
  const cases: Array<[string, ConnectionRecord, boolean]> = [
    ['a clean end after delivering events', { failed: false, lastedMs: 5, delivered: 1 }, true],
    [
      'a clean end after a quiet connection that lasted',
      { failed: false, lastedMs: MIN_HEALTHY_CONNECTION_MS, delivered: 0 },
      true,
    ],
    [
      'a clean end at once without a byte (a tight reconnect loop otherwise)',
      { failed: false, lastedMs: MIN_HEALTHY_CONNECTION_MS - 1, delivered: 0 },
      false,
    ],
    [
      'an error after many events, before the reset period (client-go: 2 minutes)',
      { failed: true, lastedMs: BACKOFF_RESET_MS - 1, delivered: 10_000 },
      false,
    ],
    ['an error after the reset period', { failed: true, lastedMs: BACKOFF_RESET_MS, delivered: 0 }, true],
  ];
  it.each(cases)('%s: %o → %s', (_name, connection, expected) => {
    expect(provedItself(connection)).toBe(expected);
  });
});
