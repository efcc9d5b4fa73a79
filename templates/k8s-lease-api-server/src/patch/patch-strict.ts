// The strict decoding kube-apiserver runs on the patch itself under fieldValidation=Strict|Warn (patch.go
// applyJSPatch and strategicPatchObject: kjson.UnmarshalStrict): a JSON patch into []jsonPatchOp (op, path,
// from, value), a merge or strategic merge patch into map[string]any. What it reports (unknown and duplicate
// fields, in sigs.k8s.io/json's wording and paths) joins the patched object's own strict errors.
import type { JsonValue } from '../json.js';
import { isJsonObject } from '../json.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import { goKindName } from './json-patch.js';

const OP_FIELDS = new Set(['op', 'path', 'from', 'value']);
const STRING_FIELDS = new Set(['op', 'path', 'from']);

function quoted(path: string): string {
  return JSON.stringify(path);
}

/**
 * kjson.UnmarshalStrict(patch, &[]jsonPatchOp{}): the strict errors, each prefixed "json patch " as
 * applyJSPatch does, or the decoding error (answered 400 "error decoding patch: …").
 */
export function jsonPatchStrictErrors(patch: JsonValue, duplicates: readonly string[]): Result<string[], string> {
  if (patch === null) return ok([]);
  if (!Array.isArray(patch))
    return err(`json: cannot unmarshal ${goKindName(patch)} into Go value of type []handlers.jsonPatchOp`);
  const errors: string[] = [];
  for (const [i, op] of patch.entries()) {
    if (op === null) continue;
    if (!isJsonObject(op))
      return err(`json: cannot unmarshal ${goKindName(op)} into Go value of type handlers.jsonPatchOp`);
    for (const [key, value] of Object.entries(op)) {
      if (!OP_FIELDS.has(key)) errors.push(`unknown field ${quoted(`[${i}].${key}`)}`);
      else if (STRING_FIELDS.has(key) && value !== null && typeof value !== 'string')
        return err(
          `json: cannot unmarshal ${goKindName(value)} into Go struct field jsonPatchOp.${key} of type string`,
        );
    }
    const prefix = `[${i}].`;
    for (const path of duplicates) if (path.startsWith(prefix)) errors.push(`duplicate field ${quoted(path)}`);
  }
  return ok(errors.map((e) => `json patch ${e}`));
}

/** kjson.UnmarshalStrict(patch, &map[string]any{}): only duplicate fields can be strict errors. */
export function mapPatchStrictErrors(duplicates: readonly string[]): string[] {
  return duplicates.map((path) => `duplicate field ${quoted(path)}`);
}
