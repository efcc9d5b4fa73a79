import { describe, expect, it } from 'vitest';
import { releaseMinor, resolveRelease } from '../../templates/k8s-lease-api-server/src/release.js';

describe('resolveRelease', () => {
  it.each([
    { requested: '1.31', resolved: '1.31.1' },
    { requested: 'v1.31.4', resolved: '1.31.1' },
    { requested: '1.30.0', resolved: '1.30.0' },
    { requested: '1.29', error: 'release "1.29" is not packaged; packaged releases: 1.30.0, 1.31.1, 1.35.0' },
    {
      requested: 'banana',
      error:
        'release "banana" is not a Kubernetes release like 1.31 or 1.31.4; packaged releases: 1.30.0, 1.31.1, 1.35.0',
    },
    {
      requested: '1.31.',
      error:
        'release "1.31." is not a Kubernetes release like 1.31 or 1.31.4; packaged releases: 1.30.0, 1.31.1, 1.35.0',
    },
  ])('maps release $requested onto the packaged releases', ({ requested, resolved, error }) => {
    const result = resolveRelease(requested, ['1.30.0', '1.31.1', '1.35.0'], false);
    expect(result).toEqual(resolved === undefined ? { ok: false, error } : { ok: true, value: resolved });
  });
});

describe('releaseMinor', () => {
  it.each([
    ['1.33.1', 33],
    ['v1.36', 36],
    ['1.29.0', 29],
    ['2.1.0', Number.NaN],
    ['banana', Number.NaN],
  ])('%s → %s', (release, minor) => {
    expect(releaseMinor(release)).toBe(minor);
  });
});
