// Strict decoding of the patch itself (apiserver endpoints/handlers/patch.go applyJSPatch: kjson.UnmarshalStrict
// into []jsonPatchOp, each strict error prefixed "json patch "; strategicPatchObject and merge patches into
// map[string]any, where only duplicate fields are strict errors), worded as sigs.k8s.io/json and encoding/json word them.
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../../templates/k8s-lease-api-server/src/json.js';
import {
  jsonPatchStrictErrors,
  mapPatchStrictErrors,
} from '../../../templates/k8s-lease-api-server/src/patch/patch-strict.js';

describe('jsonPatchStrictErrors', () => {
  it('reports unknown and duplicate fields by index, in the order the decoder meets them', () => {
    const patch: JsonValue = [
      { op: 'add', path: '/a', value: 1 },
      { op: 'remove', path: '/b', extra: true },
    ];
    expect(jsonPatchStrictErrors(patch, ['[0].op'])).toEqual({
      ok: true,
      value: ['json patch duplicate field "[0].op"', 'json patch unknown field "[1].extra"'],
    });
    expect(jsonPatchStrictErrors(patch, [])).toEqual({ ok: true, value: ['json patch unknown field "[1].extra"'] });
  });

  it('accepts null, a null operation and null string fields, as encoding/json leaves them zero', () => {
    expect(jsonPatchStrictErrors(null, [])).toEqual({ ok: true, value: [] });
    expect(jsonPatchStrictErrors([null, { op: null, path: '/a' }], [])).toEqual({ ok: true, value: [] });
  });

  it.each<[JsonValue, string]>([
    [{}, 'json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp'],
    ['x', 'json: cannot unmarshal string into Go value of type []handlers.jsonPatchOp'],
    [[1], 'json: cannot unmarshal number into Go value of type handlers.jsonPatchOp'],
    [[{ op: 1 }], 'json: cannot unmarshal number into Go struct field jsonPatchOp.op of type string'],
    [
      [{ op: 'add', path: ['/a'] }],
      'json: cannot unmarshal array into Go struct field jsonPatchOp.path of type string',
    ],
  ])('refuses %j: %s', (patch, error) => {
    expect(jsonPatchStrictErrors(patch, [])).toEqual({ ok: false, error });
  });
});

describe('mapPatchStrictErrors', () => {
  it('reports each duplicate field by its path', () => {
    expect(mapPatchStrictErrors(['metadata.labels.a', 'spec'])).toEqual([
      'duplicate field "metadata.labels.a"',
      'duplicate field "spec"',
    ]);
  });
});
