// A server-side apply body: application/apply-patch+yaml, which kubectl and most clients fill with JSON. A body
// starting with { or [ is read as JSON, anything else as YAML; what does not parse is a 400 worded after the
// decoder that failed (JSON: "error decoding patch", YAML: "error decoding YAML", as patch.go applyPatcher).
import { describe, expect, it } from 'vitest';
import {
  parseApplyBody,
  parseApplyBodyAsync,
} from '../../../templates/k8s-lease-api-server/src/operations/apply-body.js';

describe('parseApplyBody', () => {
  it('reads JSON and YAML alike, with their duplicate keys', () => {
    expect(parseApplyBody('  {"spec":{"holderIdentity":"a","holderIdentity":"b"}}')).toEqual({
      ok: true,
      value: { value: { spec: { holderIdentity: 'b' } }, duplicates: ['spec.holderIdentity'] },
    });
    expect(parseApplyBody('spec:\n  holderIdentity: a\n')).toEqual({
      ok: true,
      value: { value: { spec: { holderIdentity: 'a' } }, duplicates: [] },
    });
  });

  it('words a failure after the decoder that met it', () => {
    const json = parseApplyBody('{"spec":');
    expect(json.ok ? undefined : json.error).toEqual({
      code: 400,
      reason: 'BadRequest',
      message: 'error decoding patch: unexpected end of JSON input',
    });
    const yaml = parseApplyBody('a: !custom 1');
    expect(yaml.ok ? '' : yaml.error.message).toMatch(/^error decoding YAML: /);
  });

  it('answers the same off the event loop', async () => {
    expect(await parseApplyBodyAsync('{"a":1}', 'user')).toEqual(parseApplyBody('{"a":1}'));
    expect(await parseApplyBodyAsync('{"a":', 'user')).toEqual(parseApplyBody('{"a":'));
  });
});
