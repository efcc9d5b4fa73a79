// blang/semver v4 as kube-apiserver uses it for LeaseCandidates: the tables of v4/semver_test.go
// (formatTests, tolerantFormatTests, compareTests, wrongformatTests, wrongTolerantFormatTests) and the
// error texts of semver.go Parse.
import { describe, expect, it } from 'vitest';
import {
  type PreRelease,
  type Semver,
  ZERO_VERSION,
  parseSemver,
  parseSemverTolerant,
} from '../../../templates/k8s-lease-api-server/src/candidates/semver.js';

function parsed(text: string, parse = parseSemver): Semver {
  const result = parse(text);
  if (!result.ok) throw new Error(`${text}: ${result.error}`);
  return result.value;
}

const parts = (v: Semver): [bigint, bigint, bigint, PreRelease[]] => [v.major, v.minor, v.patch, v.pre];

describe('parseSemver (semver.Parse)', () => {
  it.each([
    ['1.2.3', [1n, 2n, 3n, []]],
    ['0.0.1', [0n, 0n, 1n, []]],
    ['0.0.1-alpha.preview+123.456', [0n, 0n, 1n, ['alpha', 'preview']]],
    ['1.2.3-alpha.1+123.456', [1n, 2n, 3n, ['alpha', 1n]]],
    ['1.2.3-alpha.1', [1n, 2n, 3n, ['alpha', 1n]]],
    ['1.2.3+123.456', [1n, 2n, 3n, []]],
    ['1.2.3-alpha.b-eta+123.b-uild', [1n, 2n, 3n, ['alpha', 'b-eta']]],
    ['1.2.3+123.b-uild', [1n, 2n, 3n, []]],
    ['1.2.3-alpha.b-eta', [1n, 2n, 3n, ['alpha', 'b-eta']]],
    ['18446744073709551615.9007199254740993.0', [18446744073709551615n, 9007199254740993n, 0n, []]],
  ])('reads %j', (text, expected) => {
    expect(parts(parsed(text))).toEqual(expected);
  });

  it.each([
    '',
    '.',
    '1.',
    '.1',
    'a.b.c',
    '1.a.b',
    '1.1.a',
    '1.a.1',
    'a.1.1',
    '..',
    '1..',
    '1.1.',
    '1..1',
    '1.1.+123',
    '1.1.-beta',
    '-1.1.1',
    '1.-1.1',
    '1.1.-1',
    '20000000000000000000.1.1',
    '1.20000000000000000000.1',
    '1.1.20000000000000000000',
    '1.1.1-20000000000000000000',
    '01.1.1',
    '001.1.1',
    '1.01.1',
    '1.001.1',
    '1.1.01',
    '1.1.001',
    '1.1.1-01',
    '1.1.1-001',
    '1.1.1-beta.01',
    '1.1.1-beta.001',
    '0.0.0-!',
    '0.0.0+!',
    '0.0.0-.alpha',
    '0.0.0-alpha+',
    '0.0.0-alpha+test.',
  ])('refuses %j', (text) => {
    expect(parseSemver(text).ok).toBe(false);
  });

  it.each([
    ['', 'Version string empty'],
    ['1.2', 'No Major.Minor.Patch elements found'],
    ['a.1.1', 'Invalid character(s) found in major number "a"'],
    ['01.1.1', 'Major number must not contain leading zeroes "01"'],
    ['1.x.1', 'Invalid character(s) found in minor number "x"'],
    ['1.01.1', 'Minor number must not contain leading zeroes "01"'],
    ['1.1.x', 'Invalid character(s) found in patch number "x"'],
    ['1.1.01', 'Patch number must not contain leading zeroes "01"'],
    ['0.0.0-alpha+', 'Build meta data is empty'],
    ['0.0.0+!', 'Invalid character(s) found in build meta data "!"'],
    ['1.1.20000000000000000000', 'strconv.ParseUint: parsing "20000000000000000000": value out of range'],
  ])('words %j as blang does: %s', (text, error) => {
    expect(parseSemver(text)).toEqual({ ok: false, error });
  });
});

describe('parseSemverTolerant (semver.ParseTolerant)', () => {
  it.each([
    ['v1.2.3', [1n, 2n, 3n, []]],
    ['1.2.0-alpha', [1n, 2n, 0n, ['alpha']]],
    ['1.2.00', [1n, 2n, 0n, []]],
    ['\t1.2.3 ', [1n, 2n, 3n, []]],
    ['01.02.03', [1n, 2n, 3n, []]],
    ['00.0.03', [0n, 0n, 3n, []]],
    ['000.0.03', [0n, 0n, 3n, []]],
    ['1.2', [1n, 2n, 0n, []]],
    ['1', [1n, 0n, 0n, []]],
  ])('reads %j', (text, expected) => {
    expect(parts(parsed(text, parseSemverTolerant))).toEqual(expected);
  });

  it.each([
    // Fewer than three dot-separated parts: the short-version check of ParseTolerant.
    ['1.0+abc', 'Short version cannot contain PreRelease/Build meta data'],
    // SplitN(s, ".", 3) finds three parts here, so Parse sees a minor number of "0-rc".
    ['1.0-rc.1', 'Invalid character(s) found in minor number "0-rc"'],
  ])('refuses %j: %s', (text, error) => {
    expect(parseSemverTolerant(text)).toEqual({ ok: false, error });
  });
});

describe('Semver.compare (Version.Compare)', () => {
  it.each([
    ['1.0.0', '1.0.0', 0],
    ['2.0.0', '1.0.0', 1],
    ['0.2.0', '0.1.0', 1],
    ['0.0.2', '0.0.1', 1],
    ['2.2.4', '1.2.4', 1],
    ['1.3.3', '1.2.3', 1],
    ['1.2.4', '1.2.3', 1],
    ['1.0.0', '2.0.0', -1],
    ['2.0.0', '2.1.0', -1],
    ['2.1.0', '2.1.1', -1],
    ['1.0.0', '1.0.0-alpha', 1],
    ['1.0.0-alpha', '1.0.0-alpha.1', -1],
    ['1.0.0-alpha.1', '1.0.0-alpha.beta', -1],
    ['1.0.0-alpha.beta', '1.0.0-beta', -1],
    ['1.0.0-beta', '1.0.0-beta.2', -1],
    ['1.0.0-beta.2', '1.0.0-beta.11', -1],
    ['1.0.0-beta.11', '1.0.0-rc.1', -1],
    ['1.0.0-rc.1', '1.0.0', -1],
    ['1.0.0+1.2.3', '1.0.0', 0],
    ['9007199254740993.0.0', '9007199254740992.0.0', 1],
  ])('%s against %s is %i, and the other way round its opposite', (a, b, expected) => {
    expect(parsed(a).compare(parsed(b))).toBe(expected);
    expect(parsed(b).compare(parsed(a))).toBe(expected === 0 ? 0 : -expected);
  });

  it('orders semver.Version{} (what an empty or unparsable version compares as) below every release', () => {
    expect(ZERO_VERSION.compare(parsed('0.0.0'))).toBe(0);
    expect(ZERO_VERSION.compare(parsed('0.0.1-alpha'))).toBe(-1);
    expect(ZERO_VERSION.compare(parsed('0.0.0-alpha'))).toBe(1);
  });
});
