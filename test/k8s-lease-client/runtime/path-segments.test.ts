import { describe, expect, it } from 'vitest';
import { InvalidPathParameterError } from '../../../templates/k8s-lease-client/src/runtime/errors.js';
import { nameSegment, namespaceSegment } from '../../../templates/k8s-lease-client/src/runtime/path-segments.js';

function rejection(fn: () => unknown): InvalidPathParameterError {
  try {
    fn();
  } catch (error) {
    if (error instanceof InvalidPathParameterError) return error;
    throw error;
  }
  throw new Error('expected an InvalidPathParameterError');
}

describe('namespaceSegment', () => {
  it.each(['default', 'kube-system', 'kube-node-lease', 'a', '0', '123-abc', 'a'.repeat(63)])(
    'accepts %s unchanged',
    (value) => {
      expect(namespaceSegment(value)).toBe(value);
    },
  );

  // apimachinery pkg/util/validation/validation.go: dns1123LabelErrMsg (its example and regex left out), MaxLenError.
  const LABEL_REASON =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";

  it.each([
    '', // empty
    '.', // relative path segments
    '..',
    'a/b', // would address another resource
    '/',
    '..%2Fkube-system', // pre-encoded: the client encodes
    'a%2Fb',
    'a%20b',
    ' x', // whitespace and control characters
    'x ',
    'x\n',
    'x\ty',
    'x\u0000',
    'x\u007f',
    'caf\u00e9', // non-ASCII, homoglyphs
    '\u0430dmin',
    'Default', // uppercase
    'KUBE',
    'a'.repeat(64), // too long
    'my.namespace', // a label has no dots
    '-a', // must start and end alphanumeric
    'a-',
    'a_b',
    'a?b',
    'a#b',
  ])('rejects %j, naming the parameter, the value and the rule', (value) => {
    const error = rejection(() => namespaceSegment(value));
    expect(error.parameter).toBe('namespace');
    expect(error.value).toBe(value);
    const reason = value.length > 63 ? 'must be no more than 63 characters' : LABEL_REASON;
    expect(error.reason).toBe(reason);
    expect(error.message).toBe(`Invalid namespace ${JSON.stringify(value)}: ${reason}`);
  });

  it('rejects non-strings from untyped callers', () => {
    const error = rejection(() => namespaceSegment(undefined as unknown as string));
    expect(error.value).toBe('undefined');
    expect(error.reason).toBe(LABEL_REASON);
    expect(rejection(() => namespaceSegment(null as unknown as string)).value).toBe('null');
    expect(rejection(() => namespaceSegment(5 as unknown as string)).message).toBe(
      `Invalid namespace "5": ${LABEL_REASON}`,
    );
  });

  it('shortens a long value in the message, not in the error', () => {
    const value = 'X'.repeat(100);
    const error = rejection(() => namespaceSegment(value));
    expect(error.value).toBe(value);
    expect(error.message).toBe(`Invalid namespace "${'X'.repeat(80)}…": must be no more than 63 characters`);
  });

  it('never cuts a surrogate pair in half when shortening', () => {
    // 79 characters, then an emoji (two UTF-16 code units) across the 80-character cut.
    const value = `${'X'.repeat(79)}😀${'X'.repeat(20)}`;
    const error = rejection(() => namespaceSegment(value));
    expect(error.value).toBe(value);
    expect(error.message).toBe(`Invalid namespace "${'X'.repeat(79)}…": must be no more than 63 characters`);
  });
});

describe('nameSegment', () => {
  it.each([
    'kube-controller-manager',
    'kube-scheduler',
    'my.lease.example',
    'node-1.example.com',
    'x',
    '0.0',
    'a'.repeat(253),
    `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`,
  ])('accepts %s unchanged', (value) => {
    expect(nameSegment(value)).toBe(value);
  });

  // apimachinery pkg/util/validation/validation.go: dns1123SubdomainErrorMsg (its example and regex left out).
  const SUBDOMAIN_REASON =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";

  it.each([
    '',
    '.',
    '..',
    'a/b',
    '../secrets',
    '%2F',
    '..%2F..%2Fsecrets',
    ' x',
    'x\n',
    'x\r\n',
    'le\u00e4se',
    'MyLease',
    'a'.repeat(254),
    '.a', // each '.'-separated part must start and end alphanumeric
    'a.',
    'a..b',
    'a.-b',
    'a:b',
    'a_b',
  ])('rejects %j', (value) => {
    const error = rejection(() => nameSegment(value));
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('InvalidPathParameterError');
    expect(error.parameter).toBe('name');
    expect(error.value).toBe(value);
    expect(error.reason).toBe(value.length > 253 ? 'must be no more than 253 characters' : SUBDOMAIN_REASON);
  });

  it('names the parameter and shows the value escaped in the message', () => {
    expect(() => nameSegment('x\n')).toThrow(`Invalid name "x\\n": ${SUBDOMAIN_REASON}`);
    expect(() => nameSegment('a/b')).toThrow(`Invalid name "a/b": ${SUBDOMAIN_REASON}`);
  });

  it('never lets a rejected value reach a URL: everything accepted is already URL-safe', () => {
    const alphabet = 'ab.-/%09 AZ\n\u00e9_?#&=+:@';
    let seed = 7;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (let i = 0; i < 5000; i++) {
      let value = '';
      const length = 1 + Math.floor(random() * 8);
      for (let j = 0; j < length; j++) value += alphabet[Math.floor(random() * alphabet.length)] ?? '';
      let accepted: string | undefined;
      try {
        accepted = nameSegment(value);
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidPathParameterError);
      }
      if (accepted !== undefined) {
        expect(accepted).toMatch(/^[a-z0-9.-]+$/);
        expect(accepted).toBe(encodeURIComponent(value));
        expect(accepted).not.toMatch(/^\.\.?$/);
      }
    }
  });
});
