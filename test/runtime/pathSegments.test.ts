import { describe, expect, it } from 'vitest';
import { InvalidPathParameterError } from '../../templates/runtime/errors.js';
import { nameSegment, namespaceSegment } from '../../templates/runtime/pathSegments.js';

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
  it.each(['default', 'kube-system', 'kube-node-lease', 'a', '0', '123-abc', 'a'.repeat(63)])('accepts %s unchanged', (value) => {
    expect(namespaceSegment(value)).toBe(value);
  });

  it.each<[string, string]>([
    ['', 'must not be empty'],
    ['.', "must not be '.' or '..' (relative path segment)"],
    ['..', "must not be '.' or '..' (relative path segment)"],
    ['a/b', "must not contain '/'"],
    ['/', "must not contain '/'"],
    ['..%2Fkube-system', "must not contain '%' (pass the raw value; the client percent-encodes it)"],
    ['a%2Fb', "must not contain '%' (pass the raw value; the client percent-encodes it)"],
    ['a%20b', "must not contain '%' (pass the raw value; the client percent-encodes it)"],
    [' x', 'must not contain whitespace or control characters'],
    ['x ', 'must not contain whitespace or control characters'],
    ['x\n', 'must not contain whitespace or control characters'],
    ['x\ty', 'must not contain whitespace or control characters'],
    ['x\u0000', 'must not contain whitespace or control characters'],
    ['x\u007f', 'must not contain whitespace or control characters'],
    ['caf\u00e9', 'must contain only ASCII characters'],
    ['\u0430dmin', 'must contain only ASCII characters'],
    ['Default', 'must be lowercase'],
    ['KUBE', 'must be lowercase'],
    ['a'.repeat(64), 'must be no more than 63 characters (got 64)'],
    ['my.namespace', "must not contain '.' (a DNS-1123 label, e.g. 'my-namespace')"],
    ['-a', "must be a DNS-1123 label: lowercase alphanumeric characters or '-', starting and ending with an alphanumeric character (e.g. 'my-namespace', regex '[a-z0-9](?:[-a-z0-9]*[a-z0-9])?')"],
    ['a-', "must be a DNS-1123 label: lowercase alphanumeric characters or '-', starting and ending with an alphanumeric character (e.g. 'my-namespace', regex '[a-z0-9](?:[-a-z0-9]*[a-z0-9])?')"],
    ['a_b', "must be a DNS-1123 label: lowercase alphanumeric characters or '-', starting and ending with an alphanumeric character (e.g. 'my-namespace', regex '[a-z0-9](?:[-a-z0-9]*[a-z0-9])?')"],
    ['a?b', "must be a DNS-1123 label: lowercase alphanumeric characters or '-', starting and ending with an alphanumeric character (e.g. 'my-namespace', regex '[a-z0-9](?:[-a-z0-9]*[a-z0-9])?')"],
    ['a#b', "must be a DNS-1123 label: lowercase alphanumeric characters or '-', starting and ending with an alphanumeric character (e.g. 'my-namespace', regex '[a-z0-9](?:[-a-z0-9]*[a-z0-9])?')"],
  ])('rejects %j: %s', (value, reason) => {
    const error = rejection(() => namespaceSegment(value));
    expect(error.parameter).toBe('namespace');
    expect(error.value).toBe(value);
    expect(error.reason).toBe(reason);
    expect(error.message).toBe(`Invalid namespace ${JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value)}: ${reason}`);
  });

  it('rejects non-strings from untyped callers', () => {
    const error = rejection(() => namespaceSegment(undefined as unknown as string));
    expect(error.reason).toBe('must be a string, got undefined');
    expect(rejection(() => namespaceSegment(null as unknown as string)).reason).toBe('must be a string, got null');
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

  it.each<[string, string]>([
    ['', 'must not be empty'],
    ['.', "must not be '.' or '..' (relative path segment)"],
    ['..', "must not be '.' or '..' (relative path segment)"],
    ['a/b', "must not contain '/'"],
    ['../secrets', "must not contain '/'"],
    ['%2F', "must not contain '%' (pass the raw value; the client percent-encodes it)"],
    ['..%2F..%2Fsecrets', "must not contain '%' (pass the raw value; the client percent-encodes it)"],
    [' x', 'must not contain whitespace or control characters'],
    ['x\n', 'must not contain whitespace or control characters'],
    ['x\r\n', 'must not contain whitespace or control characters'],
    ['le\u00e4se', 'must contain only ASCII characters'],
    ['MyLease', 'must be lowercase'],
    ['a'.repeat(254), 'must be no more than 253 characters (got 254)'],
    ['.a', "must be a DNS-1123 subdomain: lowercase alphanumeric characters, '-' or '.', each '.'-separated part starting and ending with an alphanumeric character (e.g. 'my-lease' or 'my.lease.example')"],
    ['a.', "must be a DNS-1123 subdomain: lowercase alphanumeric characters, '-' or '.', each '.'-separated part starting and ending with an alphanumeric character (e.g. 'my-lease' or 'my.lease.example')"],
    ['a..b', "must be a DNS-1123 subdomain: lowercase alphanumeric characters, '-' or '.', each '.'-separated part starting and ending with an alphanumeric character (e.g. 'my-lease' or 'my.lease.example')"],
    ['a.-b', "must be a DNS-1123 subdomain: lowercase alphanumeric characters, '-' or '.', each '.'-separated part starting and ending with an alphanumeric character (e.g. 'my-lease' or 'my.lease.example')"],
    ['a:b', "must be a DNS-1123 subdomain: lowercase alphanumeric characters, '-' or '.', each '.'-separated part starting and ending with an alphanumeric character (e.g. 'my-lease' or 'my.lease.example')"],
    ['a_b', "must be a DNS-1123 subdomain: lowercase alphanumeric characters, '-' or '.', each '.'-separated part starting and ending with an alphanumeric character (e.g. 'my-lease' or 'my.lease.example')"],
  ])('rejects %j: %s', (value, reason) => {
    const error = rejection(() => nameSegment(value));
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('InvalidPathParameterError');
    expect(error.parameter).toBe('name');
    expect(error.value).toBe(value);
    expect(error.reason).toBe(reason);
  });

  it('names the parameter and shows the value escaped in the message', () => {
    expect(() => nameSegment('x\n')).toThrow('Invalid name "x\\n": must not contain whitespace or control characters');
    expect(() => nameSegment('a/b')).toThrow(`Invalid name "a/b": must not contain '/'`);
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
