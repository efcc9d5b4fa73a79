// PATCH with JSON patch, merge patch or strategic merge patch: patch the live object's JSON, then
// decode and store the result exactly like an update.
import type { JsonValue } from '../json.js';
import { isJsonObject, parseJson } from '../json.js';
import { applyJsonPatch } from '../patch/json-patch.js';
import { applyMergePatch } from '../patch/merge-patch.js';
import type { PatchError } from '../patch/patch-error.js';
import { applyStrategicMergePatch } from '../patch/strategic-merge-patch.js';
import { goValue } from '../patch/go-format.js';
import { jsonPatchStrictErrors, mapPatchStrictErrors, patchedUnknownFields } from '../patch/patch-strict.js';
import { jsonPatchedJson, mergePatchedJson } from '../patch/patched-json.js';
import { decodeLease } from '../decode/decode-lease.js';
import type { ParsedText } from '../decode/parse-text.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import { typedJson } from '../serialize.js';
import type { StatusError } from '../status.js';
import { badRequest, invalidPatch, notFound, requestEntityTooLarge, unprocessableGeneric } from '../status.js';
import { storeKey } from '../store/lease-store.js';
import type { FieldValidation, OperationContext, WriteOptions } from './context.js';
import { bindToRequest } from './identity.js';
import type { PersistOutcome } from './persist.js';
import { replaceExisting } from './update.js';

export type NonApplyPatchType = 'json' | 'merge' | 'strategic';

function toStatus(error: PatchError, patchedValue: () => string): StatusError {
  switch (error.code) {
    case 400:
      return badRequest(error.message);
    case 413:
      return requestEntityTooLarge(error.message);
    case 422:
      return error.undecodable ? invalidPatch(patchedValue(), error.message) : unprocessableGeneric();
  }
}

function patchDocument(type: NonApplyPatchType, current: JsonValue, patch: JsonValue): Result<JsonValue, PatchError> {
  switch (type) {
    case 'json':
      return applyJsonPatch(current, patch);
    case 'merge':
      return ok(applyMergePatch(current, patch));
    case 'strategic':
      return isJsonObject(current) ? applyStrategicMergePatch(current, patch) : ok(current);
  }
}

/**
 * The value kube-apiserver quotes in an Invalid `patch` cause: the patched object's JSON for JSON and merge
 * patches (string(patchedObjJS)), the decoded patch map as Go prints it for strategic merge patches.
 */
function patchCauseValue(type: NonApplyPatchType, patched: JsonValue, patch: ParsedText): string {
  switch (type) {
    case 'json':
      return jsonPatchedJson(patched, Array.isArray(patch.value) ? patch.value : []);
    case 'merge':
      return mergePatchedJson(patched, patch.value);
    case 'strategic':
      return goValue(patch.value, patch.numbers ?? new Map<string, string>());
  }
}

/** A patch body that is not JSON, worded per patch type and directive as patch.go words it. */
function undecodablePatch(type: NonApplyPatchType, mode: FieldValidation, message: string): StatusError {
  // Strict and Warn decode with kjson.UnmarshalStrict first ("error decoding patch: …"); strategicPatchObject
  // passes its error on bare; under Ignore, MergePatch only says ErrBadJSONPatch and DecodePatch is bare too.
  if (type === 'strategic') return badRequest(message);
  if (mode !== 'Ignore') return badRequest(`error decoding patch: ${message}`);
  return badRequest(type === 'merge' ? 'Invalid JSON Patch' : message);
}

/** The strict errors of the patch itself (Strict and Warn only), or its 400. */
function patchStrictErrors(type: NonApplyPatchType, patch: ParsedText): Result<string[], StatusError> {
  if (type !== 'json') return ok(mapPatchStrictErrors(patch.duplicates));
  const errors = jsonPatchStrictErrors(patch.value, patch.duplicates);
  return errors.ok ? errors : err(badRequest(`error decoding patch: ${errors.error}`));
}

export interface PatchOutcome extends PersistOutcome {
  warnings: string[];
}

export function patchLease(
  ctx: OperationContext,
  namespace: string,
  name: string,
  type: NonApplyPatchType,
  /** The patch body as the JSON parser read it (parse-pool.ts), or its syntax error. */
  parsed: Result<ParsedText, string>,
  options: WriteOptions,
): Result<PatchOutcome, StatusError> {
  const existing = ctx.store.get(storeKey(namespace, name));
  if (existing === undefined) return err(notFound(name, ctx.resource));
  const mode = options.fieldValidation;
  if (!parsed.ok) return err(undecodablePatch(type, mode, parsed.error));
  const patch = parsed.value;
  const patchErrors = mode === 'Ignore' ? ok([]) : patchStrictErrors(type, patch);
  if (!patchErrors.ok) return patchErrors;
  const patched = patchDocument(type, parseJson(typedJson(existing, ctx.resource)), patch.value);
  const causeValue =
    (value: JsonValue): (() => string) =>
    () =>
      patchCauseValue(type, value, patch);
  if (!patched.ok) return err(toStatus(patched.error, causeValue(null)));
  // The patched object decodes as a body would (strictly under Strict and Warn), but its failures are an
  // Invalid `patch` field (patch.go applyPatchToCurrentObject, applyPatchToObject), not a 400.
  // The patched JSON is json.Marshal'ed from Go maps (json-patch v4's partialDoc, the strategic merge's map),
  // so the decoder meets every object's keys sorted.
  const decoded = decodeLease(patched.value, ctx.schema, undefined, ctx.resource, true, 'sorted');
  if (!decoded.ok) return err(invalidPatch(causeValue(patched.value)(), decoded.error));
  const strict =
    mode === 'Ignore'
      ? []
      : [
          ...patchErrors.value,
          ...patchedUnknownFields(type === 'strategic' ? 'unstructured' : 'json', decoded.value.unknownFields),
        ];
  if (strict.length > 0 && mode === 'Strict')
    return err(invalidPatch(causeValue(patched.value)(), `strict decoding error: ${strict.join(', ')}`));
  const bound = bindToRequest(decoded.value.object, namespace, name);
  if (!bound.ok) return bound;
  const stored = replaceExisting(ctx, existing, bound.value, name, options, 'validation');
  if (!stored.ok) return stored;
  return ok({ ...stored.value, warnings: strict });
}
