import { getEventListeners } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultSleep, isAborted } from '../../../../templates/k8s-lease-client/src/runtime/watch/abort.js';

describe('isAborted', () => {
  it.each<[string, () => AbortSignal | undefined, boolean]>([
    ['no signal', () => undefined, false],
    ['a live signal', () => new AbortController().signal, false],
    ['an aborted one', () => AbortSignal.abort(), true],
  ])('%s: %s', (_name, signal, expected) => {
    expect(isAborted(signal())).toBe(expected);
  });
});

describe('defaultSleep: the wait before a retry, cut short by an abort', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Whether `promise` has settled once pending callbacks ran. */
  async function settled(promise: Promise<void>): Promise<boolean> {
    let done = false;
    void promise.then(() => {
      done = true;
    });
    await Promise.resolve();
    await Promise.resolve();
    return done;
  }

  it('resolves after the delay, not before', async () => {
    const sleep = defaultSleep(1_000);
    vi.advanceTimersByTime(999);
    expect(await settled(sleep)).toBe(false);
    vi.advanceTimersByTime(1);
    expect(await settled(sleep)).toBe(true);
  });

  it('resolves at once when the signal aborts, leaving no timer and no listener behind', async () => {
    const controller = new AbortController();
    const sleep = defaultSleep(60_000, controller.signal);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    controller.abort();
    expect(await settled(sleep)).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('removes its listener when it ends normally, so a long watch does not pile them up', async () => {
    const controller = new AbortController();
    const sleeps = [defaultSleep(10, controller.signal), defaultSleep(20, controller.signal)];
    vi.advanceTimersByTime(20);
    expect(await Promise.all(sleeps.map(settled))).toEqual([true, true]);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('resolves at once, starting no timer, when the signal has already aborted', async () => {
    const sleep = defaultSleep(60_000, AbortSignal.abort());
    expect(vi.getTimerCount()).toBe(0);
    expect(await settled(sleep)).toBe(true);
  });
});
