// Name and label syntax as k8s.io/apimachinery/pkg/util/validation checks it: the good and bad values of
// validation_test.go (TestIsDNS1123Label, TestIsDNS1123Subdomain, TestIsQualifiedName, TestIsValidLabelValue)
// and the messages validation.go builds (MaxLenError, RegexError, IsQualifiedName's prefix and name parts).
import { describe, expect, it } from 'vitest';
import {
  dns1123LabelErrors,
  dns1123SubdomainErrors,
  generateNameSuffix,
  labelValueErrors,
  qualifiedNameErrors,
} from '../../templates/k8s-lease-api-server/src/names.js';

const LABEL_REGEX_ERROR =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const NAME_PART_REGEX_ERROR =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

describe('dns1123LabelErrors (IsDNS1123Label)', () => {
  it.each(['a', 'ab', 'abc', 'a1', 'a-1', 'a--1--2--b', '0', '01', '012', '1a', '1-a', '1--a--b--2', 'a'.repeat(63)])(
    'accepts %j',
    (value) => {
      expect(dns1123LabelErrors(value)).toEqual([]);
    },
  );

  it.each([
    ['', 'A', 'ABC', 'aBc', 'A1', 'A-1', '1-A', '-', 'a-', '-a', '1-', '-1'],
    ['_', 'a_', '_a', 'a_b', '1_', '_1', '1_2', '.', 'a.', '.a', 'a.b', '1.', '.1', '1.2'],
    [' ', 'a ', ' a', 'a b', '1 ', ' 1', '1 2'],
  ])('refuses each of %j', (...values) => {
    for (const value of values) expect(dns1123LabelErrors(value), value).toEqual([LABEL_REGEX_ERROR]);
  });

  it('counts the length limit apart from the pattern: MaxLenError(63), then the RegexError', () => {
    expect(dns1123LabelErrors('a'.repeat(64))).toEqual(['must be no more than 63 characters']);
    expect(dns1123LabelErrors('A'.repeat(64))).toEqual(['must be no more than 63 characters', LABEL_REGEX_ERROR]);
  });
});

describe('dns1123SubdomainErrors (IsDNS1123Subdomain)', () => {
  it.each([
    ['a', 'ab', 'a--1--2--b', '0', '012', '1--a--b--2', 'a.a', 'a-1.a', 'a.1', 'a--1--2--b.1', '0.a', '1-a.a'],
    ['0.1', '1--a--b--2.1', 'a.b.c.d.e', 'aa.bb.cc.dd.ee', '1.2.3.4.5', '11.22.33.44.55', 'a'.repeat(253)],
  ])('accepts each of %j', (...values) => {
    for (const value of values) expect(dns1123SubdomainErrors(value), value).toEqual([]);
  });

  it.each([
    ['', 'A', 'aBc', '-', 'a-', '-a', '_', 'a_b', '.', 'a.', '.a', 'a..b', '1..2', ' ', 'a b'],
    ['A.a', 'aB.a', 'ab.A', 'A.1', '1A.1', '0.A', 'A.B.C.D.E', 'a.B.c.d.e', 'a@b', 'a,b', 'a;b', 'a:b', 'a%b'],
    ['a?b', 'a$b', 'a'.repeat(254)],
  ])('refuses each of %j', (...values) => {
    for (const value of values) expect(dns1123SubdomainErrors(value).length, value).toBeGreaterThan(0);
  });

  it('words the 254-character case with MaxLenError(253) only', () => {
    expect(dns1123SubdomainErrors('a'.repeat(254))).toEqual(['must be no more than 253 characters']);
  });
});

describe('qualifiedNameErrors (IsQualifiedName)', () => {
  it.each([
    'simple',
    'now-with-dashes',
    '1-starts-with-num',
    '1234',
    'simple/simple',
    'now-with-dashes/now-with-dashes',
    'now.with.dots/simple',
    'now-with.dashes-and.dots/simple',
    '1-num.2-num/3-num',
    '1234/5678',
    '1.2.3.4/5678',
    'Uppercase_Is_OK_123',
    'example.com/Uppercase_Is_OK_123',
    'requests.storage-foo',
    'a'.repeat(63),
    `${'a'.repeat(253)}/${'b'.repeat(63)}`,
  ])('accepts %j', (value) => {
    expect(qualifiedNameErrors(value)).toEqual([]);
  });

  it.each([
    'nospecialchars%^=@',
    'cantendwithadash-',
    '-cantstartwithadash-',
    'only/one/slash',
    'Example.com/abc',
    'example_com/abc',
    'example.com/',
    '/simple',
    'a'.repeat(64),
    `${'a'.repeat(254)}/abc`,
  ])('refuses %j', (value) => {
    expect(qualifiedNameErrors(value).length).toBeGreaterThan(0);
  });

  it('words each part as validation.go does: prefix part, name part, and one message for extra slashes', () => {
    expect(qualifiedNameErrors('example.com/')).toEqual(['name part must be non-empty', NAME_PART_REGEX_ERROR]);
    expect(qualifiedNameErrors('/simple')).toEqual(['prefix part must be non-empty']);
    expect(qualifiedNameErrors(`${'a'.repeat(254)}/abc`)).toEqual(['prefix part must be no more than 253 characters']);
    expect(qualifiedNameErrors('a'.repeat(64))).toEqual(['name part must be no more than 63 characters']);
    expect(qualifiedNameErrors('only/one/slash')).toEqual([
      "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ]);
  });
});

describe('labelValueErrors (IsValidLabelValue)', () => {
  it.each(['simple', 'now-with-dashes', '1-starts-with-num', 'end-with-num-1', '1234', 'a'.repeat(63), ''])(
    'accepts %j',
    (value) => {
      expect(labelValueErrors(value)).toEqual([]);
    },
  );

  it.each([
    'nospecialchars%^=@',
    'Tama-nui-te-rā.is.Māori.sun',
    '\\backslashes\\are\\bad',
    '-starts-with-dash',
    'ends-with-dash-',
    '.starts.with.dot',
    'ends.with.dot.',
    'a'.repeat(64),
  ])('refuses %j', (value) => {
    expect(labelValueErrors(value).length).toBeGreaterThan(0);
  });

  it('counts bytes as Go len() does: 32 two-byte runes are 64 characters to MaxLenError', () => {
    expect(labelValueErrors('é'.repeat(32))[0]).toBe('must be no more than 63 characters');
  });
});

describe('generateNameSuffix (names.SimpleNameGenerator: utilrand.String(5))', () => {
  it('draws five characters from util/rand alphanumerics, which has no vowels', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const suffix = generateNameSuffix();
      expect(suffix).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      seen.add(suffix);
    }
    expect(seen.size).toBeGreaterThan(150);
  });
});
