// The Result values the exec modules pass failures in (nothing inside throws; only the public promise API rejects).
import { describe, expect, it } from 'vitest';
import { err, ok } from '../../../templates/k8s-lease-client-node/src/exec/result.js';
import type { Result } from '../../../templates/k8s-lease-client-node/src/exec/result.js';

function half(n: number): Result<number, string> {
  return n % 2 === 0 ? ok(n / 2) : err(`${n} is odd`);
}

describe('Result', () => {
  it('ok carries a value, err an error, told apart by ok', () => {
    expect(ok(1)).toEqual({ ok: true, value: 1 });
    expect(err('no')).toEqual({ ok: false, error: 'no' });
    expect(half(4)).toEqual({ ok: true, value: 2 });
    expect(half(3)).toEqual({ ok: false, error: '3 is odd' });
  });

  it('narrows on ok, so a value is read only from a success', () => {
    const results = [half(8), half(5)].map((result) => (result.ok ? `value ${result.value}` : `error ${result.error}`));
    expect(results).toEqual(['value 4', 'error 5 is odd']);
  });

  it('keeps undefined and falsy values as values', () => {
    expect(ok(undefined)).toEqual({ ok: true, value: undefined });
    expect(ok(0).ok).toBe(true);
    expect(err(undefined).ok).toBe(false);
  });
});
