// The real clock's sleep with delays past setTimeout's limit (2^31 - 1 ms), which would otherwise fire after 1 ms.
import { afterEach, expect, it, vi } from 'vitest';
import { realClock } from '../../../../templates/k8s-lease-client/src/runtime/index.js';

afterEach(() => {
  vi.useRealTimers();
});

const cases = [
  { title: 'just past the limit', ms: 2 ** 31 },
  { title: 'a month', ms: 30 * 24 * 3600 * 1000 },
  { title: 'Infinity (never)', ms: Number.POSITIVE_INFINITY },
];
it.each(cases)(
  'sleep($title) has not resolved 1 s or 2^31 - 1 ms later, and ends when its signal aborts',
  async ({ ms }) => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const stop = new AbortController();
    let outcome = 'pending';
    const sleeping = realClock.sleep(ms, stop.signal).then(
      () => void (outcome = 'resolved'),
      () => void (outcome = 'aborted'),
    );
    await vi.advanceTimersByTimeAsync(1_000);
    expect(outcome).toBe('pending');
    await vi.advanceTimersByTimeAsync(2 ** 31 - 1 - 1_000 - 1);
    expect(outcome).toBe('pending');
    stop.abort(new Error('stop'));
    await sleeping;
    expect(outcome).toBe('aborted');
  },
);

it('sleep(2^31 + 5 s) resolves once that much time has passed', async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  let resolved = false;
  const sleeping = realClock.sleep(2 ** 31 + 5_000).then(() => void (resolved = true));
  await vi.advanceTimersByTimeAsync(2 ** 31 + 4_000);
  expect(resolved).toBe(false);
  await vi.advanceTimersByTimeAsync(1_000);
  await sleeping;
  expect(resolved).toBe(true);
});
