// sortByBytes against Go's sort.Strings, whose order is strings.Compare's: UTF-8 bytes (go-strings.ts's
// compareGoStrings, the reference it must agree with).
import { describe, expect, it } from 'vitest';
import { sortByBytes } from '../../templates/k8s-lease-api-server/src/byte-order.js';
import { compareGoStrings } from '../../templates/k8s-lease-api-server/src/go-strings.js';

describe('sortByBytes', () => {
  it('orders ASCII and BMP strings as compareGoStrings does', () => {
    const values = ['b', 'a', 'B', 'ab', '', 'é', 'z', '\uFFFF', 'a'];
    expect(sortByBytes(values)).toEqual([...values].sort(compareGoStrings));
  });

  it('puts astral characters after the rest of the BMP, as UTF-8 does', () => {
    const values = ['\u{1F600}', '\uFFFF', '\uE000', 'a', '\u{10000}'];
    expect(sortByBytes(values)).toEqual(['a', '\uE000', '\uFFFF', '\u{10000}', '\u{1F600}']);
    expect(sortByBytes(values)).toEqual([...values].sort(compareGoStrings));
  });
});
