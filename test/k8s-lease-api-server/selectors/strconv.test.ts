import { describe, expect, it } from 'vitest';
import { goQuote, parseInt64 } from '../../../templates/k8s-lease-api-server/src/selectors/strconv.js';

describe('strconv.ParseInt(s, 10, 64)', () => {
  const cases: [string, bigint | string][] = [
    ['0', 0n],
    ['+7', 7n],
    ['-7', -7n],
    ['007', 7n],
    ['9223372036854775807', 9223372036854775807n],
    ['-9223372036854775808', -9223372036854775808n],
    ['9223372036854775808', 'strconv.ParseInt: parsing "9223372036854775808": value out of range'],
    ['18446744073709551616', 'strconv.ParseInt: parsing "18446744073709551616": value out of range'],
    ['1a', 'strconv.ParseInt: parsing "1a": invalid syntax'],
    ['', 'strconv.ParseInt: parsing "": invalid syntax'],
    ['-', 'strconv.ParseInt: parsing "-": invalid syntax'],
    ['+-1', 'strconv.ParseInt: parsing "+-1": invalid syntax'],
    ['١', 'strconv.ParseInt: parsing "١": invalid syntax'],
  ];
  it.each(cases)('%j → %s', (text, expected) => {
    const parsed = parseInt64(text);
    expect(parsed.ok ? parsed.value : parsed.error).toBe(expected);
  });
});

describe('Go %q', () => {
  const cases: [string, string][] = [
    ['plain', '"plain"'],
    ['"\\', '"\\"\\\\"'],
    ['\u0000\u0007\b\f\n\r\t\u000b\u001f\u007f', '"\\x00\\a\\b\\f\\n\\r\\t\\v\\x1f\\x7f"'],
    ['é€😀', '"é€😀"'],
    ['\u00ad\u200b\u{e0001}', '"\\u00ad\\u200b\\U000e0001"'],
  ];
  it.each(cases)('%j → %s', (text, expected) => {
    expect(goQuote(text)).toBe(expected);
  });
});
