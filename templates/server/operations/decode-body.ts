// Turns request bytes into a decoded Lease plus field-validation warnings, or the 400 Kubernetes returns.
import type { JsonValue } from '../json.js';
import { cannotHandlePrefix, decodeLease } from '../decode/decode-lease.js';
import type { ResourceInfo } from '../lease-meta.js';
import { LEASE_RESOURCE } from '../lease-meta.js';
import type { ParsedJson } from '../decode/json-parser.js';
import { parseJsonStrict } from '../decode/json-parser.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { ObjectSchema } from '../schema/field-schema.js';
import type { StatusError } from '../status.js';
import { badRequest } from '../status.js';
import type { DecodedLease } from '../decode/decode-lease.js';
import type { FieldValidation } from './context.js';

export interface DecodedBody {
  lease: DecodedLease['object'];
  warnings: string[];
}

/** A parsed body: YAML bodies carry no number literals (go-yaml has already resolved them to numbers). */
export type ParsedBody = Omit<ParsedJson, 'numbers'> & Partial<Pick<ParsedJson, 'numbers'>>;

export function parseBody(text: string): Result<ParsedJson, StatusError> {
  const parsed = parseJsonStrict(text);
  if (!parsed.ok) return err(badRequest(`couldn't get version/kind; json parse error: ${parsed.error}`));
  return ok(parsed.value);
}

/** Applies the fieldValidation directive to what the decoder dropped or saw twice. */
export function fieldValidationOutcome(
  unknown: string[],
  duplicates: string[],
  mode: FieldValidation,
  resource: ResourceInfo = LEASE_RESOURCE,
): Result<string[], StatusError> {
  const problems = [
    ...unknown.map((f) => `unknown field ${JSON.stringify(f)}`),
    ...duplicates.map((f) => `duplicate field ${JSON.stringify(f)}`),
  ];
  if (problems.length === 0 || mode === 'Ignore') return ok([]);
  if (mode === 'Strict')
    return err(badRequest(`${cannotHandlePrefix(resource)}strict decoding error: ${problems.join(', ')}`));
  return ok(problems);
}

export function decodeValue(
  value: JsonValue,
  duplicates: string[],
  schema: ObjectSchema,
  mode: FieldValidation,
  numbers: ReadonlyMap<string, string> = new Map(),
  resource: ResourceInfo = LEASE_RESOURCE,
): Result<DecodedBody, StatusError> {
  const decoded = decodeLease(value, schema, numbers, resource);
  if (!decoded.ok) return err(badRequest(decoded.error));
  const outcome = fieldValidationOutcome(decoded.value.unknownFields, duplicates, mode, resource);
  if (!outcome.ok) return outcome;
  return ok({ lease: decoded.value.object, warnings: outcome.value });
}

export function decodeBody(
  text: string,
  schema: ObjectSchema,
  mode: FieldValidation,
): Result<DecodedBody, StatusError> {
  const parsed = parseBody(text);
  if (!parsed.ok) return parsed;
  return decodeValue(parsed.value.value, parsed.value.duplicates, schema, mode, parsed.value.numbers);
}
