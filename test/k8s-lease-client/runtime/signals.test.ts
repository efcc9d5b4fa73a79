import { getEventListeners } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequestTimeoutError } from '../../../templates/k8s-lease-client/src/runtime/errors.js';
import { combineSignals } from '../../../templates/k8s-lease-client/src/runtime/signals.js';

describe('combineSignals', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('returns no signal, no timer and a cleanup that does nothing when there is nothing to combine', () => {
    const a = combineSignals(undefined, undefined);
    expect(a.signal).toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);
    expect(() => {
      a.stopTimer();
      a.dispose();
      a.dispose();
    }).not.toThrow();
    expect(a.signal).toBeUndefined();
  });

  it('aborts with a RequestTimeoutError when the timeout elapses', () => {
    const linked = combineSignals(undefined, 100);
    expect(linked.signal?.aborted).toBe(false);
    vi.advanceTimersByTime(99);
    expect(linked.signal?.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(linked.signal?.aborted).toBe(true);
    const reason: unknown = linked.signal?.reason;
    expect(reason).toBeInstanceOf(RequestTimeoutError);
    expect(reason).toMatchObject({
      name: 'RequestTimeoutError',
      timeoutMs: 100,
      message: 'timed out after 100 ms',
    });
    linked.dispose();
  });

  it('a zero timeout fires on the next timer turn', () => {
    const linked = combineSignals(undefined, 0);
    expect(linked.signal?.aborted).toBe(false);
    vi.advanceTimersByTime(0);
    expect(linked.signal?.reason).toBeInstanceOf(RequestTimeoutError);
  });

  it("propagates the caller's abort with the caller's reason and clears the timer", () => {
    const caller = new AbortController();
    const linked = combineSignals(caller.signal, 1000);
    expect(vi.getTimerCount()).toBe(1);
    const reason = new Error('shutting down');
    caller.abort(reason);
    expect(linked.signal?.aborted).toBe(true);
    expect(linked.signal?.reason).toBe(reason);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(5000);
    expect(linked.signal?.reason).toBe(reason);
  });

  it("keeps the caller's default AbortError reason", () => {
    const caller = new AbortController();
    const linked = combineSignals(caller.signal, undefined);
    caller.abort();
    expect(linked.signal?.reason).toBe(caller.signal.reason);
    expect((linked.signal?.reason as DOMException).name).toBe('AbortError');
  });

  it('whichever fires first wins: a later caller abort does not replace the timeout reason', () => {
    const caller = new AbortController();
    const linked = combineSignals(caller.signal, 10);
    vi.advanceTimersByTime(10);
    caller.abort(new Error('late'));
    expect(linked.signal?.reason).toBeInstanceOf(RequestTimeoutError);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });

  it("aborts at once with an already-aborted caller signal's reason, leaving no timer or listener", () => {
    const caller = new AbortController();
    const reason = new Error('before');
    caller.abort(reason);
    const linked = combineSignals(caller.signal, 1000);
    expect(linked.signal?.aborted).toBe(true);
    expect(linked.signal?.reason).toBe(reason);
    expect(vi.getTimerCount()).toBe(0);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });

  it('wraps a live caller signal even without a timeout, so its listener is removed on dispose', () => {
    const caller = new AbortController();
    const linked = combineSignals(caller.signal, undefined);
    expect(linked.signal).not.toBe(caller.signal);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(1);
    linked.dispose();
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
    caller.abort();
    expect(linked.signal?.aborted).toBe(false);
  });

  it('dispose clears the timer so the timeout never fires', () => {
    const linked = combineSignals(undefined, 50);
    expect(vi.getTimerCount()).toBe(1);
    linked.dispose();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(100);
    expect(linked.signal?.aborted).toBe(false);
    linked.dispose();
  });

  it('stopTimer clears the timer but keeps following the caller', () => {
    const caller = new AbortController();
    const linked = combineSignals(caller.signal, 50);
    linked.stopTimer();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(100);
    expect(linked.signal?.aborted).toBe(false);
    caller.abort('stop');
    expect(linked.signal?.reason).toBe('stop');
    linked.dispose();
  });

  it('leaves no timers or listeners behind after many calls on one long-lived signal', () => {
    const caller = new AbortController();
    for (let i = 0; i < 10_000; i++) {
      const linked = combineSignals(caller.signal, 30_000);
      linked.dispose();
    }
    expect(vi.getTimerCount()).toBe(0);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });

  it('removes its listener from the caller when the timeout fires', () => {
    const caller = new AbortController();
    combineSignals(caller.signal, 5);
    vi.advanceTimersByTime(5);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY])('rejects a timeout of %s', (timeoutMs) => {
    expect(() => combineSignals(undefined, timeoutMs)).toThrow(RangeError);
  });
});
