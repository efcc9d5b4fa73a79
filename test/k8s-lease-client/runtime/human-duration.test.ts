import { describe, expect, it } from 'vitest';
import { humanDuration } from '../../../templates/k8s-lease-client/src/runtime/human-duration.js';

describe('humanDuration', () => {
  it('renders ages like kubectl', () => {
    expect(humanDuration(5_000)).toBe('5s');
    expect(humanDuration(150_000)).toBe('2m30s');
    expect(humanDuration(11 * 60_000)).toBe('11m');
    expect(humanDuration(5 * 3_600_000 + 60_000)).toBe('5h1m');
    expect(humanDuration(3 * 86_400_000)).toBe('3d');
    expect(humanDuration(-5_000)).toBe('<invalid>');
  });
});
