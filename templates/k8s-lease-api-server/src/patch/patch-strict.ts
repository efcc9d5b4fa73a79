// The strict decoding kube-apiserver runs on the patch itself under fieldValidation=Strict|Warn (patch.go
// applyJSPatch and strategicPatchObject: kjson.UnmarshalStrict): a JSON patch into []jsonPatchOp (op, path,
// from, value), a merge or strategic merge patch into map[string]any. What it reports (unknown and duplicate
// fields, in sigs.k8s.io/json's wording and paths) joins the patched object's own strict errors.
import type { JsonValue } from '../json.js';
import { isJsonObject } from '../json.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import { MAX_STRICT_ERRORS } from '../decode/strict-shape.js';
import { compareGoStrings } from '../go-strings.js';
import { goQuote } from '../selectors/strconv.js';
import { goKindName } from './json-patch.js';

const OP_FIELDS = new Set(['op', 'path', 'from', 'value']);
const STRING_FIELDS = new Set(['op', 'path', 'from']);

/** sigs.k8s.io/json's strictError.Error: strconv.Quote of the path. */
function quoted(path: string): string {
  return goQuote(path);
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

/** kjson.UnmarshalStrict(patch, &map[string]any{}): only duplicate fields can be strict errors, each once, in the order met. */
export function mapPatchStrictErrors(duplicates: readonly string[]): string[] {
  return [...new Set(duplicates)].slice(0, MAX_STRICT_ERRORS).map((path) => `duplicate field ${quoted(path)}`);
}

/** Which decoder reads a patched object: kjson.UnmarshalStrict, or (strategic merge) the unstructured converter. */
export type PatchedObjectDecoder = 'json' | 'unstructured';

/**
 * The patched object's unknown fields, given in the order a decoder walking sorted keys meets them, as the
 * apiserver words them. A JSON or merge patch's result goes through kjson.UnmarshalStrict (strconv.Quote,
 * in that order, each once, at most MAX_STRICT_ERRORS); a strategic merge patch's through
 * runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation, which words each with
 * `unknown field "%s"` and sorts the messages (converter.go).
 */
export function patchedUnknownFields(decoder: PatchedObjectDecoder, unknown: readonly string[]): string[] {
  if (decoder === 'json')
    return [...new Set(unknown.map((path) => `unknown field ${goQuote(path)}`))].slice(0, MAX_STRICT_ERRORS);
  return unknown.map((path) => `unknown field "${path}"`).sort(compareGoStrings);
}
