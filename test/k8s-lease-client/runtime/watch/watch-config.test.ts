import { describe, expect, it } from 'vitest';
import { defaultSleep } from '../../../../templates/k8s-lease-client/src/runtime/watch/abort.js';
import { DEFAULT_MAX_LINE_BYTES } from '../../../../templates/k8s-lease-client/src/runtime/watch/ndjson.js';
import { resolveConfig } from '../../../../templates/k8s-lease-client/src/runtime/watch/watch-config.js';
import type { WatchOptions } from '../../../../templates/k8s-lease-client/src/runtime/watch/watch-options.js';

describe('resolveConfig: the defaults', () => {
  it('reconnects forever with the default backoff, bookmarks on, 5-minute idle timeout, pages of 500', () => {
    expect(resolveConfig({})).toEqual({
      backoff: { maxRetries: Number.POSITIVE_INFINITY, initialDelayMs: 200, maxDelayMs: 30_000, jitter: 0.2 },
      idleTimeoutMs: 300_000,
      maxLineBytes: DEFAULT_MAX_LINE_BYTES,
      bookmarks: true,
      listLimit: 500,
      sleep: defaultSleep,
      random: Math.random,
    });
  });

  it('takes what it is given', () => {
    const sleep = async (): Promise<void> => {};
    const random = (): number => 0.5;
    expect(
      resolveConfig({
        reconnect: false,
        idleTimeoutMs: 1_000,
        maxLineBytes: 4_096,
        allowWatchBookmarks: false,
        listLimit: 0,
        sleep,
        random,
      }),
    ).toEqual({
      backoff: undefined,
      idleTimeoutMs: 1_000,
      maxLineBytes: 4_096,
      bookmarks: false,
      listLimit: 0,
      sleep,
      random,
    });
  });

  it('applies the reconnect policy’s own defaults to what it leaves out', () => {
    expect(resolveConfig({ reconnect: { maxRetries: 3 } }).backoff).toEqual({
      maxRetries: 3,
      initialDelayMs: 200,
      maxDelayMs: 30_000,
      jitter: 0.2,
    });
  });
});

describe('resolveConfig: a value out of range is a RangeError naming the option, when watch() is called', () => {
  it.each<[string, WatchOptions, string]>([
    ['idleTimeoutMs 0', { idleTimeoutMs: 0 }, 'idleTimeoutMs must be a finite number > 0, got 0'],
    ['idleTimeoutMs Infinity', { idleTimeoutMs: Infinity }, 'idleTimeoutMs must be a finite number > 0, got Infinity'],
    ['idleTimeoutMs NaN', { idleTimeoutMs: Number.NaN }, 'idleTimeoutMs must be a finite number > 0, got NaN'],
    ['timeoutSeconds negative', { timeoutSeconds: -1 }, 'timeoutSeconds must be an integer >= 0, got -1'],
    ['timeoutSeconds fractional', { timeoutSeconds: 1.5 }, 'timeoutSeconds must be an integer >= 0, got 1.5'],
    ['listLimit negative', { listLimit: -1 }, 'limit must be an integer >= 0, got -1'],
    ['reconnect.jitter above 1', { reconnect: { jitter: 2 } }, 'reconnect.jitter must be within 0..1, got 2'],
  ])('%s', (_name, options, message) => {
    expect(() => resolveConfig(options)).toThrow(new RangeError(message));
  });

  it('maxLineBytes is checked as the decoder checks it', () => {
    expect(() => resolveConfig({ maxLineBytes: 0 })).toThrow(RangeError);
  });
});
