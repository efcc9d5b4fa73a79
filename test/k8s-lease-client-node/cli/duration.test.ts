// Go's time.ParseDuration syntax, as client-go's leader-election flags take durations.
import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from '../../../templates/k8s-lease-client-node/src/cli/duration.js';

describe('parseDuration', () => {
  it.each([
    ['15s', 15_000],
    ['500ms', 500],
    ['1m30s', 90_000],
    ['1.5s', 1_500],
    ['2h', 7_200_000],
    ['1h2m3s4ms', 3_723_004],
  ])('%s is %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', '15', 's', '-1s', '0s', '1d', '1 s', ' 1s', `${'1'.repeat(40)}s`, '1s1'])('refuses %j', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });

  it('formats durations back in the same syntax', () => {
    expect([500, 15_000, 90_000, 3_723_004].map(formatDuration)).toEqual(['500ms', '15s', '1m30s', '1h2m3s4ms']);
  });
});
