import { describe, expect, it } from 'vitest';
import {
  matchesLabels,
  parseLabelSelector,
} from '../../../templates/k8s-lease-api-server/src/selectors/label-selector.js';

describe('label selector grammar', () => {
  const labels = { app: 'web', tier: 'front', n: '5' };
  const cases: [string, boolean][] = [
    ['app=web', true],
    ['app==web', true],
    ['app!=web', false],
    ['app!=db', true],
    ['missing!=x', true],
    ['app in (web, db)', true],
    ['app notin (web,db)', false],
    ['missing notin (a)', true],
    ['tier', true],
    ['!tier', false],
    ['!missing', true],
    ['app=web,tier=back', false],
    ['app=web, tier in (front)', true],
    ['n>3', true],
    ['n<3', false],
    ['', true],
  ];
  it.each(cases)('%s → %s', (text, expected) => {
    const parsed = parseLabelSelector(text, 'json');
    expect(parsed.ok && matchesLabels(parsed.value, labels)).toBe(expected);
  });

  it('reports syntax errors', () => {
    expect(parseLabelSelector('app in web', 'json').ok).toBe(false);
    expect(parseLabelSelector('app in (a', 'json').ok).toBe(false);
    expect(parseLabelSelector('=x', 'json').ok).toBe(false);
  });
});

// labels/selector.go's Lexer (TestLexerSequence) read through the parser's errors, which quote the token found:
// the two-character keywords, a NUL that ends an identifier and a NUL that ends the input.
describe('label selector lexing', () => {
  const error = (text: string): string => {
    const parsed = parseLabelSelector(text, 'json');
    return parsed.ok ? 'ok' : parsed.error;
  };
  it('reads == and != as one token, and any other pair of symbols as two', () => {
    expect(error('== x')).toBe("found '==', expected: !, identifier, or 'end of string'");
    expect(error('!= x')).toBe("found '!=', expected: !, identifier, or 'end of string'");
    expect(error('x =! y')).toBe("unable to parse requirement: found '!', expected: identifier");
    expect(error('x => y')).toBe("unable to parse requirement: found '>', expected: identifier");
    expect(error('((')).toBe("found '(', expected: !, identifier, or 'end of string'");
  });

  it('ends an identifier or a symbol at a NUL it consumes, and the input at a NUL where a token starts', () => {
    expect(error('x in (a\u0000b)')).toBe("unable to parse requirement: found 'b', expected: ',' or ')'");
    expect(error('x=\u0000=y')).toBe("unable to parse requirement: found '=', expected: identifier");
    const parsed = parseLabelSelector('x=a \u0000 ,garbage(', 'json');
    expect(parsed.ok && parsed.value).toEqual([{ key: 'x', op: 'eq', values: ['a'] }]);
  });
});

// Hostile selectors: the request line may hold 1 MiB. Parsing stays linear (a selector that fails at its first
// token is not lexed further), an `in` list is matched through a set (sets.String upstream), and NewRequirement's
// one error per invalid value is rendered for the first 100 only, the rest counted (upstream renders them all).
describe('label selectors of a megabyte', () => {
  it('fails at once on a million open parentheses, with upstream’s error', () => {
    expect(parseLabelSelector('('.repeat(1_000_000), 'json')).toEqual({
      ok: false,
      error: "found '(', expected: !, identifier, or 'end of string'",
    });
  });

  it('parses and matches a 100,000-value in list, its values sorted and unique', () => {
    const values = Array.from({ length: 100_000 }, (_, i) => `v${99_999 - i}`);
    const parsed = parseLabelSelector(`k in (${values.join(',')},v5)`, 'json');
    if (!parsed.ok) throw new Error(parsed.error);
    expect(parsed.value[0]?.values).toHaveLength(100_000);
    expect(parsed.value[0]?.values.slice(0, 3)).toEqual(['v0', 'v1', 'v10']);
    expect(matchesLabels(parsed.value, { k: 'v77777' })).toBe(true);
    expect(matchesLabels(parsed.value, { k: 'w' })).toBe(false);
  });

  it('renders the first 100 invalid values and counts the rest', () => {
    const values = Array.from({ length: 1000 }, (_, i) => `-v${String(i).padStart(4, '0')}`);
    const parsed = parseLabelSelector(`k in (${values.join(',')})`, 'json');
    const message = parsed.ok ? '' : parsed.error;
    expect(message.match(/Invalid value/g)).toHaveLength(100);
    expect(message).toMatch(/^unable to parse requirement: \[values\[0\]\[k\]: Invalid value: "-v0000": a valid label/);
    expect(message.endsWith('] (and 900 more errors)')).toBe(true);
  });

  it('cuts a long invalid value as a Status cuts quoted values (MAX_QUOTED_VALUE_CHARS)', () => {
    const parsed = parseLabelSelector(`k=${'a'.repeat(5000)}`, 'json');
    expect(parsed.ok ? '' : parsed.error).toBe(
      `unable to parse requirement: values[0][k]: Invalid value: "${'a'.repeat(4096)}...(904 more characters)": must be no more than 63 characters`,
    );
  });
});
