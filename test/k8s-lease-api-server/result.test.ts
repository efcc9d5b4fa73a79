// Results are plain tagged values: callers narrow on `ok` (every failure path is in the signatures).
import { describe, expect, it } from 'vitest';
import { type Result, err, ok } from '../../templates/k8s-lease-api-server/src/result.js';

function half(n: number): Result<number, string> {
  return n % 2 === 0 ? ok(n / 2) : err(`${n} is odd`);
}

describe('ok and err', () => {
  it('build the two shapes of a Result, which narrow on ok', () => {
    expect(ok(4)).toEqual({ ok: true, value: 4 });
    expect(err('no')).toEqual({ ok: false, error: 'no' });
    const even = half(8);
    const odd = half(3);
    expect(even.ok ? even.value : even.error).toBe(4);
    expect(odd.ok ? odd.value : odd.error).toBe('3 is odd');
    expect(Object.keys(ok(undefined))).toEqual(['ok', 'value']);
  });
});
