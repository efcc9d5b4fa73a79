// Failure Status bodies as k8s.io/apimachinery words them: field.Error.ErrorBody (validation/field/errors.go,
// errors_test.go TestErrorFormatting for the types a Lease meets), NewInvalid's aggregate message, NewNotFound,
// NewAlreadyExists, NewConflict, NewInternalError, NewTooManyRequests (api/errors/errors.go), and metav1.Status's
// JSON field order (kind, apiVersion, metadata, status, message, reason, details, code).
import { describe, expect, it } from 'vitest';
import {
  type FieldError,
  MAX_QUOTED_VALUE_CHARS,
  MAX_STATUS_CAUSES,
  MAX_STATUS_CAUSES_CHARS,
  MAX_STATUS_MESSAGE_CHARS,
  alreadyExists,
  conflict,
  expired,
  fieldErrorMessage,
  formatFieldValue,
  internalError,
  invalid,
  notFound,
  staleResourceVersion,
  statusObject,
  tooManyRequests,
  truncateQuoted,
} from '../../templates/k8s-lease-api-server/src/status.js';

const CANDIDATES = { plural: 'leasecandidates', qualifiedResource: 'leasecandidates.coordination.k8s.io' };

describe('field error messages (TestErrorFormatting)', () => {
  it.each<[FieldError, string]>([
    [{ type: 'Required', field: 'path.to.field', detail: 'the details' }, 'path.to.field: Required value: the details'],
    [{ type: 'Required', field: 'spec.x' }, 'spec.x: Required value'],
    [{ type: 'Forbidden', field: 'path.to.field', detail: 'the details' }, 'path.to.field: Forbidden: the details'],
    [{ type: 'TooLong', field: 'path.to.field', detail: 'the details' }, 'path.to.field: Too long: the details'],
    [{ type: 'TooLong', field: 'path.to.field' }, 'path.to.field: Too long: value is too long'],
    [
      { type: 'Invalid', field: 'path.to.field', value: 'the value', detail: 'the details' },
      'path.to.field: Invalid value: "the value": the details',
    ],
    [
      { type: 'Invalid', field: 'path.to.field', value: -42, detail: 'the details' },
      'path.to.field: Invalid value: -42: the details',
    ],
    [
      { type: 'Invalid', field: 'path.to.field', value: true, detail: 'the details' },
      'path.to.field: Invalid value: true: the details',
    ],
    [
      { type: 'Invalid', field: 'path.to.field', detail: 'the details' },
      'path.to.field: Invalid value: null: the details',
    ],
    [
      { type: 'Invalid', field: 'spec.n', value: { style: 'go-syntax', goType: 'uint64', value: 0 }, detail: 'd' },
      'spec.n: Invalid value: 0x0: d',
    ],
    [
      { type: 'Invalid', field: 'spec.n', value: { style: 'json', goType: 'uint64', value: 0 }, detail: 'd' },
      'spec.n: Invalid value: 0: d',
    ],
    [
      { type: 'NotSupported', field: 'spec.strategy', value: 'x', supported: ['OldestEmulationVersion', 'a'] },
      'spec.strategy: Unsupported value: "x": supported values: "OldestEmulationVersion", "a"',
    ],
  ])('%j → %s', (error, message) => {
    expect(fieldErrorMessage(error)).toBe(message);
  });

  it('quotes strings as Go %q and string lists as the release renders them', () => {
    expect(formatFieldValue('a"b\n')).toBe('"a\\"b\\n"');
    expect(formatFieldValue({ style: 'go-syntax', goType: '[]string', items: ['a', 'b'] })).toBe('[]string{"a", "b"}');
    expect(formatFieldValue({ style: 'json', goType: '[]string', items: ['a', 'b'] })).toBe('["a","b"]');
    expect(formatFieldValue(undefined)).toBe('null');
    expect(formatFieldValue(1.5)).toBe('1.5');
  });
});

describe('truncateQuoted', () => {
  it('keeps renderings up to the limit and cuts longer ones, never inside a surrogate pair', () => {
    const limit = 'a'.repeat(MAX_QUOTED_VALUE_CHARS);
    expect(truncateQuoted(limit)).toBe(limit);
    expect(truncateQuoted(`${limit}bc`)).toBe(`${limit}...(2 more characters)`);
    const pair = `${'a'.repeat(MAX_QUOTED_VALUE_CHARS - 1)}😀`;
    expect(truncateQuoted(`${pair}x`)).toBe(`${'a'.repeat(MAX_QUOTED_VALUE_CHARS - 1)}...(3 more characters)`);
  });
});

describe('NewInvalid', () => {
  it('names the qualified kind and the object, one error bare and several as an aggregate', () => {
    const one = invalid('x', [{ type: 'Required', field: 'spec.a' }]);
    expect(one).toEqual({
      code: 422,
      reason: 'Invalid',
      message: 'Lease.coordination.k8s.io "x" is invalid: spec.a: Required value',
      details: {
        name: 'x',
        group: 'coordination.k8s.io',
        kind: 'Lease',
        causes: [{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.a' }],
      },
    });
    const two = invalid('x', [
      { type: 'Required', field: 'spec.a' },
      { type: 'Invalid', field: 'spec.b', value: 'v', detail: 'bad' },
    ]);
    expect(two.message).toBe(
      'Lease.coordination.k8s.io "x" is invalid: [spec.a: Required value, spec.b: Invalid value: "v": bad]',
    );
    expect(two.details?.causes?.[1]).toEqual({
      reason: 'FieldValueInvalid',
      message: 'Invalid value: "v": bad',
      field: 'spec.b',
    });
  });

  // errors.NewInvalid has no limit on its causes or message (api/errors/errors.go); this server's bounds are its
  // own, listed in the README's differences.
  it('lists at most MAX_STATUS_CAUSES errors and counts the rest; a repeated message is still said once', () => {
    const errors: FieldError[] = Array.from({ length: 250 }, () => ({ type: 'Required', field: 'spec.a' }));
    const status = invalid('x', errors);
    expect(status.details?.causes).toHaveLength(MAX_STATUS_CAUSES);
    expect(status.message).toBe(
      'Lease.coordination.k8s.io "x" is invalid: spec.a: Required value (and 150 more errors)',
    );
    const distinct = invalid('x', [
      ...Array.from({ length: MAX_STATUS_CAUSES }, (_, i): FieldError => ({ type: 'Required', field: `f${i}` })),
      { type: 'Required', field: 'last' },
    ]);
    expect(distinct.message).toMatch(/, f99: Required value\] \(and 1 more error\)$/);
  });

  it('keeps the causes within MAX_STATUS_CAUSES_CHARS and the message within MAX_STATUS_MESSAGE_CHARS', () => {
    // Each value is cut to MAX_QUOTED_VALUE_CHARS, each detail too; quotes double when the causes are JSON.
    const value = '"'.repeat(10_000);
    const errors = Array.from(
      { length: 100 },
      (_, i): FieldError => ({ type: 'Invalid', field: `f${i}`, value, detail: `d${i}`.padEnd(10_000, '"') }),
    );
    const status = invalid('x', errors);
    const causes = status.details?.causes ?? [];
    expect(causes.length).toBeGreaterThan(0);
    expect(causes.length).toBeLessThan(100);
    expect(JSON.stringify(causes).length).toBeLessThanOrEqual(MAX_STATUS_CAUSES_CHARS + causes.length);
    expect(status.message.length).toBeLessThanOrEqual(MAX_STATUS_MESSAGE_CHARS + 40);
    expect(status.message).toMatch(/\.\.\.\(\d+ more characters\)$/);
    expect(causes[0]?.message).toBe(
      `Invalid value: ${JSON.stringify(truncateQuoted(value))}: ${truncateQuoted(errors[0]?.detail ?? '')}`,
    );
  });
});

describe('resource errors', () => {
  it('word NotFound, AlreadyExists and Conflict with the qualified resource and name', () => {
    expect(notFound('a')).toEqual({
      code: 404,
      reason: 'NotFound',
      message: 'leases.coordination.k8s.io "a" not found',
      details: { name: 'a', group: 'coordination.k8s.io', kind: 'leases' },
    });
    expect(alreadyExists('c', CANDIDATES).message).toBe('leasecandidates.coordination.k8s.io "c" already exists');
    expect(conflict('a', 'why').message).toBe('Operation cannot be fulfilled on leases.coordination.k8s.io "a": why');
    expect(staleResourceVersion('a')).toMatchObject({
      code: 409,
      reason: 'Conflict',
      message:
        'Operation cannot be fulfilled on leases.coordination.k8s.io "a": the object has been modified; please apply your changes to the latest version and try again',
    });
  });

  it('word InternalError and TooManyRequests as their constructors do', () => {
    expect(internalError('boom')).toEqual({
      code: 500,
      reason: 'InternalError',
      message: 'Internal error occurred: boom',
      details: { causes: [{ message: 'boom' }] },
    });
    expect(tooManyRequests(1)).toEqual({
      code: 429,
      reason: 'TooManyRequests',
      message: 'Too many requests, please try again later.',
      details: { retryAfterSeconds: 1 },
    });
  });
});

describe('statusObject', () => {
  it('writes metav1.Status fields in their Go order, details pruned of empty fields', () => {
    expect(JSON.stringify(statusObject(notFound('a')))).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"leases.coordination.k8s.io \\"a\\" not found","reason":"NotFound","details":{"name":"a","group":"coordination.k8s.io","kind":"leases"},"code":404}',
    );
  });

  it('puts a 410 continue token in the list metadata and leaves out an empty reason', () => {
    expect(statusObject(expired('too old', 'tok'))).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: { continue: 'tok' },
      status: 'Failure',
      message: 'too old',
      reason: 'Expired',
      code: 410,
    });
    expect(statusObject({ code: 500, reason: '', message: 'm' })).not.toHaveProperty('reason');
  });
});
