// The watch's own idle timeout (fetch has no HTTP/2 health check like client-go's, which PINGs after 30 s
// without a frame: k8s.io/apimachinery/pkg/util/net/http.go readIdleTimeoutSeconds), driven by fake timers
// and a fake Date.now.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IdleWatchdog } from '../../../../templates/k8s-lease-client/src/runtime/watch/idle-watchdog.js';

const MS = 1_000;
let fired: number[];
let watchdog: IdleWatchdog;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  fired = [];
  watchdog = new IdleWatchdog(MS, () => fired.push(Date.now()));
});
afterEach(() => {
  watchdog.clear();
  vi.useRealTimers();
});

describe('IdleWatchdog: fires when a read has been pending for its period', () => {
  it('fires once a read stays pending for the whole period, not a moment before', () => {
    const start = Date.now();
    watchdog.arm();
    vi.advanceTimersByTime(MS - 1);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual([start + MS]);
  });

  it('fires only once, and never again however often it is armed', () => {
    watchdog.arm();
    vi.advanceTimersByTime(MS);
    watchdog.arm();
    vi.advanceTimersByTime(5 * MS);
    expect(fired).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('counts from the latest read: reads that return in time keep it quiet', () => {
    for (let i = 0; i < 10; i++) {
      watchdog.arm();
      vi.advanceTimersByTime(MS / 2);
      watchdog.disarm();
    }
    expect(fired).toEqual([]);
    const lastRead = Date.now();
    watchdog.arm();
    vi.advanceTimersByTime(MS);
    expect(fired).toEqual([lastRead + MS]);
  });

  it('does not count the time no read is pending (the consumer holds the events)', () => {
    watchdog.arm();
    watchdog.disarm();
    vi.advanceTimersByTime(10 * MS);
    expect(fired).toEqual([]);
    const read = Date.now();
    watchdog.arm();
    vi.advanceTimersByTime(MS);
    expect(fired).toEqual([read + MS]);
  });

  it('keeps one timer per period rather than one per read', () => {
    for (let i = 0; i < 1_000; i++) {
      watchdog.arm();
      watchdog.disarm();
    }
    watchdog.arm();
    expect(vi.getTimerCount()).toBe(1);
  });

  it('re-checks at the end of the remaining time when a read started within the period', () => {
    watchdog.arm();
    vi.advanceTimersByTime(MS - 100);
    watchdog.disarm();
    const read = Date.now();
    watchdog.arm();
    // The first timer ends: the pending read is only 100 ms old, so it waits the remaining 900 ms.
    vi.advanceTimersByTime(100);
    expect(fired).toEqual([]);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(MS - 101);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual([read + MS]);
  });

  it('never fires once cleared, and leaves no timer behind', () => {
    watchdog.arm();
    watchdog.clear();
    expect(vi.getTimerCount()).toBe(0);
    watchdog.arm();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(10 * MS);
    expect(fired).toEqual([]);
  });
});
