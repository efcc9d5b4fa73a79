import { describe, expect, it } from 'vitest';
import { goFloat, goValue } from '../../../templates/k8s-lease-api-server/src/patch/go-format.js';

describe('Go %+v of a decoded patch (patch/go-format.ts)', () => {
  it('prints maps with sorted keys, slices with spaces, <nil>, bare strings', () => {
    expect(goValue({ b: [1, 'x', null, true], a: { d: {}, c: [] } }, new Map())).toBe(
      'map[a:map[c:[] d:map[]] b:[1 x <nil> true]]',
    );
  });

  it('prints float64 literals as strconv.FormatFloat(f, g, -1, 64) and int64 literals as integers', () => {
    expect(goFloat(1.5)).toBe('1.5');
    expect(goFloat(1e6)).toBe('1e+06');
    expect(goFloat(123456)).toBe('123456');
    expect(goFloat(0.0001)).toBe('0.0001');
    expect(goFloat(0.00001)).toBe('1e-05');
    expect(goFloat(1e21)).toBe('1e+21');
    expect(goValue({ n: 1000000, f: 1000000 }, new Map([['f', '1e6']]))).toBe('map[f:1e+06 n:1000000]');
  });
});
