// A write's body as kube-apiserver's handlers decode it (endpoints/handlers/create.go / update.go through the
// strict serializer, runtime/serializer/json Serializer.unmarshal): a JSON syntax error is the 400 "couldn't get
// version/kind", fieldValidation decides what unknown and duplicate fields become — Strict a 400 listing them,
// Warn one Warning each (rest.go addStrictDecodingWarnings, a YAML error split into its lines), Ignore nothing.
import { describe, expect, it } from 'vitest';
import {
  decodeBody,
  fieldValidationOutcome,
  parseBody,
  parseFailureStatus,
  strictErrors,
  strictWarnings,
} from '../../../templates/k8s-lease-api-server/src/operations/decode-body.js';
import { badRequest } from '../../../templates/k8s-lease-api-server/src/status.js';
import { LEASE_SCHEMA } from '../helpers/lease-schema.js';

const PREFIX = 'Lease in version "v1" cannot be handled as a Lease: ';
const BODY =
  '{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"a"},"spec":{"holderIdentity":"h","bogus":1,"holderIdentity":"i"}}';

describe('parseBody', () => {
  it('answers a syntax error with the decoder prefix', () => {
    expect(parseBody('{"a":')).toEqual({
      ok: false,
      error: badRequest("couldn't get version/kind; json parse error: unexpected end of JSON input"),
    });
    expect(parseBody('{"a":1}').ok).toBe(true);
  });
});

describe('strict errors', () => {
  it('list unknown then duplicate fields for JSON, and the YAML duplicates first as one error', () => {
    expect(strictErrors(['spec.x'], ['spec.y'])).toEqual(['unknown field "spec.x"', 'duplicate field "spec.y"']);
    expect(
      strictErrors(['spec.x'], [], ['line 3: key "a" already set in map', 'line 5: key "b" already set in map']),
    ).toEqual([
      'error converting YAML to JSON: yaml: unmarshal errors:\n  line 3: key "a" already set in map\n  line 5: key "b" already set in map',
      'unknown field "spec.x"',
    ]);
    expect(strictErrors([], [], [])).toEqual([]);
  });

  it('become one warning each, a YAML error one per line', () => {
    expect(
      strictWarnings([
        'error converting YAML to JSON: yaml: unmarshal errors:\n  line 3: key "a" already set in map\n  line 5: key "b" already set in map',
        'unknown field "spec.x"',
      ]),
    ).toEqual(['line 3: key "a" already set in map', 'line 5: key "b" already set in map', 'unknown field "spec.x"']);
  });
});

describe('fieldValidationOutcome', () => {
  it('refuses under Strict, warns under Warn, and says nothing under Ignore', () => {
    expect(fieldValidationOutcome(['spec.x'], ['spec.y'], 'Strict')).toEqual({
      ok: false,
      error: badRequest(`${PREFIX}strict decoding error: unknown field "spec.x", duplicate field "spec.y"`),
    });
    expect(fieldValidationOutcome(['spec.x'], [], 'Warn')).toEqual({ ok: true, value: ['unknown field "spec.x"'] });
    expect(fieldValidationOutcome(['spec.x'], ['spec.y'], 'Ignore')).toEqual({ ok: true, value: [] });
    expect(fieldValidationOutcome([], [], 'Strict')).toEqual({ ok: true, value: [] });
  });
});

describe('decodeBody', () => {
  it('decodes a Lease, the last of a repeated key winning, with the strict errors as warnings', () => {
    const decoded = decodeBody(BODY, LEASE_SCHEMA, 'Warn');
    expect(decoded.ok && decoded.value.warnings).toEqual([
      'unknown field "spec.bogus"',
      'duplicate field "spec.holderIdentity"',
    ]);
    expect(decoded.ok && decoded.value.lease['spec']).toEqual({ holderIdentity: 'i' });
  });

  it('refuses the same body under Strict', () => {
    const decoded = decodeBody(BODY, LEASE_SCHEMA, 'Strict');
    expect(decoded.ok ? '' : decoded.error.message).toBe(
      `${PREFIX}strict decoding error: unknown field "spec.bogus", duplicate field "spec.holderIdentity"`,
    );
  });
});

describe('parseFailureStatus', () => {
  it('words a syntax error as the caller does, a full parse queue as 429 and a failed parse as 500', () => {
    expect(parseFailureStatus({ kind: 'syntax', message: 'bad' }, (m) => badRequest(`x: ${m}`))).toEqual(
      badRequest('x: bad'),
    );
    // server/filters/maxinflight.go tooManyRequests: APF's text and a retry after one second.
    expect(parseFailureStatus({ kind: 'busy' }, badRequest)).toEqual({
      code: 429,
      reason: 'TooManyRequests',
      message: 'Too many requests, please try again later.',
      details: { retryAfterSeconds: 1 },
    });
    expect(parseFailureStatus({ kind: 'failed', message: 'boom' }, badRequest)).toMatchObject({
      code: 500,
      message: 'Internal error occurred: the request body could not be decoded: boom',
    });
  });

  it('answers a parse that outgrew the worker 413 in NewRequestEntityTooLargeError’s words, a decoder’s refusal as it is', () => {
    expect(parseFailureStatus({ kind: 'tooLarge' }, badRequest)).toEqual({
      code: 413,
      reason: 'RequestEntityTooLarge',
      message: "Request entity too large: decoding the body needs more than the parser's 768 MB of memory",
    });
    expect(parseFailureStatus({ kind: 'refused', status: badRequest('no') }, badRequest)).toEqual(badRequest('no'));
  });
});
