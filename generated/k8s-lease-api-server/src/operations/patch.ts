// Copied by lease-api-generator from templates/server/operations/patch.ts. DO NOT EDIT: edit that file and run `npm run generate`.
// PATCH with JSON patch, merge patch or strategic merge patch: patch the live object's JSON, then
// decode and store the result exactly like an update.
import type { JsonValue } from '../json.js';
import { isJsonObject, parseJson } from '../json.js';
import { applyJsonPatch } from '../patch/json-patch.js';
import { applyMergePatch } from '../patch/merge-patch.js';
import type { PatchError } from '../patch/patch-error.js';
import { applyStrategicMergePatch } from '../patch/strategic-merge-patch.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import { typedJson } from '../serialize.js';
import type { StatusError } from '../status.js';
import { badRequest, notFound } from '../status.js';
import { storeKey } from '../store/lease-store.js';
import type { OperationContext, WriteOptions } from './context.js';
import { decodeValue, parseBody } from './decode-body.js';
import { bindToRequest } from './identity.js';
import type { PersistOutcome } from './persist.js';
import { replaceExisting } from './update.js';

export type NonApplyPatchType = 'json' | 'merge' | 'strategic';

function toStatus(error: PatchError): StatusError {
  switch (error.code) {
    case 400:
      return badRequest(error.message);
    case 413:
      // apimachinery's NewRequestEntityTooLargeError prefixes the message.
      return { code: 413, reason: 'RequestEntityTooLarge', message: `Request entity too large: ${error.message}` };
    case 422:
      return {
        code: 422,
        reason: 'Invalid',
        message: error.message,
        details: { causes: [{ reason: 'FieldValueInvalid', message: error.message }] },
      };
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

export interface PatchOutcome extends PersistOutcome {
  warnings: string[];
}

export function patchLease(
  ctx: OperationContext,
  namespace: string,
  name: string,
  type: NonApplyPatchType,
  patchText: string,
  options: WriteOptions,
): Result<PatchOutcome, StatusError> {
  const existing = ctx.store.get(storeKey(namespace, name));
  if (existing === undefined) return err(notFound(name, ctx.resource));
  const parsedPatch = parseBody(patchText);
  if (!parsedPatch.ok)
    return err(
      badRequest(
        parsedPatch.error.message.replace("couldn't get version/kind; json parse error: ", 'error decoding patch: '),
      ),
    );
  const patched = patchDocument(type, parseJson(typedJson(existing, ctx.resource)), parsedPatch.value.value);
  if (!patched.ok) return err(toStatus(patched.error));
  // Duplicate keys inside a JSON patch document are not object fields, so only merge-style patches report them.
  const duplicates = type === 'json' ? [] : parsedPatch.value.duplicates;
  const decoded = decodeValue(patched.value, duplicates, ctx.schema, options.fieldValidation, undefined, ctx.resource);
  if (!decoded.ok) return decoded;
  const bound = bindToRequest(decoded.value.lease, namespace, name);
  if (!bound.ok) return bound;
  const stored = replaceExisting(ctx, existing, bound.value, name, options);
  if (!stored.ok) return stored;
  return ok({ ...stored.value, warnings: decoded.value.warnings });
}
