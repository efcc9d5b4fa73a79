// Go's strings.Compare and strings.SplitN (go/src/strings/compare_test.go, strings_test.go splittests).
import { describe, expect, it } from 'vitest';
import { compareGoStrings, splitN } from '../../templates/k8s-lease-api-server/src/go-strings.js';

describe('compareGoStrings (strings.Compare)', () => {
  it.each<[string, string, number]>([
    ['', '', 0],
    ['a', '', 1],
    ['', 'a', -1],
    ['abc', 'abc', 0],
    ['ab', 'abc', -1],
    ['x', 'ab', 1],
    // U+FF5E against U+1F680: UTF-16 puts the rocket (a surrogate pair, 0xD83D…) first, UTF-8 bytes last.
    ['～', '🚀', -1],
  ])('%j vs %j → %d', (a, b, sign) => {
    expect(Math.sign(compareGoStrings(a, b))).toBe(sign);
  });
});

describe('splitN (strings.SplitN, n > 0)', () => {
  it.each<[string, string, number, string[]]>([
    ['a,b,c,d', ',', 2, ['a', 'b,c,d']],
    ['a,b,c,d', ',', 4, ['a', 'b', 'c', 'd']],
    ['a,b,c,d', ',', 5, ['a', 'b', 'c', 'd']],
    ['abc', ',', 3, ['abc']],
    ['Bearer  tok', ' ', 3, ['Bearer', '', 'tok']],
    ['', ' ', 3, ['']],
  ])('%j by %j into %d → %j', (text, separator, n, parts) => {
    expect(splitN(text, separator, n)).toEqual(parts);
  });
});
