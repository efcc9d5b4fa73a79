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
import { badRequest, internalError, requestEntityTooLarge, tooManyRequests } from '../status.js';
import type { ParseFailure } from '../decode/parse-pool.js';
import { RESOURCE_LIMITS } from '../decode/parse-pool.js';
import type { DecodedLease } from '../decode/decode-lease.js';
import type { FieldValidation } from './context.js';
import { goQuote } from '../selectors/strconv.js';
import type { StrictShape } from '../decode/strict-shape.js';
import { MAX_STRICT_ERRORS, strictShapeOf } from '../decode/strict-shape.js';

export interface DecodedBody {
  lease: DecodedLease['object'];
  warnings: string[];
}

/**
 * A parsed body. YAML bodies carry no number literals (go-yaml has already resolved them to numbers) and
 * report their repeated keys as go-yaml does (`duplicateLines`), since kube-apiserver checks a YAML body's
 * duplicates with YAMLToJSONStrict rather than in the JSON decoder.
 */
export interface ParsedBody {
  value: JsonValue;
  duplicates: string[];
  numbers?: ReadonlyMap<string, string> | undefined;
  duplicateLines?: string[] | undefined;
  /** A JSON body's strict errors as the decoder meets them (ParsedJson.strictErrors), when parsed with its shape. */
  strictErrors?: string[] | undefined;
}

export function parseBody(text: string, shape?: StrictShape): Result<ParsedJson, StatusError> {
  const parsed = parseJsonStrict(text, shape);
  if (!parsed.ok) return err(badRequest(`couldn't get version/kind; json parse error: ${parsed.error}`));
  return ok(parsed.value);
}

/** sigs.k8s.io/yaml's error for duplicate keys: go-yaml's unmarshal errors, one line each, under its prefix. */
const YAML_STRICT_PREFIX = 'error converting YAML to JSON: yaml: unmarshal errors:\n';

/**
 * The strict decoding errors of a body in the order kube-apiserver's serializer lists them
 * (runtime/serializer/json Serializer.unmarshal): a YAML body's duplicate keys first (YAMLToJSONStrict),
 * then what kjson.UnmarshalStrict meets, each once and at most MAX_STRICT_ERRORS. A JSON body parsed with
 * its shape brings those in the order met (`ordered`); otherwise unknown fields (met in the order the
 * decoder walked: sorted keys for YAML, whose JSON YAMLToJSON marshals from a map) precede duplicates.
 */
export function strictErrors(
  unknown: string[],
  duplicates: string[],
  duplicateLines?: string[],
  ordered?: string[],
): string[] {
  if (ordered !== undefined) return ordered;
  const decoder = [
    ...new Set([
      ...unknown.map((f) => `unknown field ${goQuote(f)}`),
      ...(duplicateLines === undefined ? duplicates.map((f) => `duplicate field ${goQuote(f)}`) : []),
    ]),
  ].slice(0, MAX_STRICT_ERRORS);
  if (duplicateLines === undefined) return decoder;
  const yaml = duplicateLines.length === 0 ? [] : [`${YAML_STRICT_PREFIX}  ${duplicateLines.join('\n  ')}`];
  return [...yaml, ...decoder];
}

/** handlers/rest.go addStrictDecodingWarnings: one warning per error, a YAML error split into its lines. */
export function strictWarnings(errors: string[]): string[] {
  return errors.flatMap((e) =>
    e.startsWith(YAML_STRICT_PREFIX)
      ? e
          .slice(YAML_STRICT_PREFIX.length)
          .split('\n')
          .map((line) => line.trim())
      : [e],
  );
}

/** Applies the fieldValidation directive to what the decoder dropped or saw twice. */
export function fieldValidationOutcome(
  unknown: string[],
  duplicates: string[],
  mode: FieldValidation,
  resource: ResourceInfo = LEASE_RESOURCE,
  duplicateLines?: string[],
  ordered?: string[],
): Result<string[], StatusError> {
  const problems = strictErrors(unknown, duplicates, duplicateLines, ordered);
  if (problems.length === 0 || mode === 'Ignore') return ok([]);
  if (mode === 'Strict')
    return err(badRequest(`${cannotHandlePrefix(resource)}strict decoding error: ${problems.join(', ')}`));
  return ok(strictWarnings(problems));
}

export function decodeValue(
  value: JsonValue,
  duplicates: string[],
  schema: ObjectSchema,
  mode: FieldValidation,
  numbers: ReadonlyMap<string, string> = new Map(),
  resource: ResourceInfo = LEASE_RESOURCE,
  duplicateLines?: string[],
  ordered?: string[],
): Result<DecodedBody, StatusError> {
  const order = duplicateLines === undefined ? 'document' : 'sorted';
  const decoded = decodeLease(value, schema, numbers, resource, false, order);
  if (!decoded.ok) return err(badRequest(decoded.error));
  const { unknownFields } = decoded.value;
  const outcome = fieldValidationOutcome(unknownFields, duplicates, mode, resource, duplicateLines, ordered);
  if (!outcome.ok) return outcome;
  return ok({ lease: decoded.value.object, warnings: outcome.value });
}

export function decodeBody(
  text: string,
  schema: ObjectSchema,
  mode: FieldValidation,
): Result<DecodedBody, StatusError> {
  const parsed = parseBody(text, strictShapeOf(schema));
  if (!parsed.ok) return parsed;
  const { value, duplicates, numbers, strictErrors: ordered } = parsed.value;
  return decodeValue(value, duplicates, schema, mode, numbers, LEASE_RESOURCE, undefined, ordered);
}

/**
 * A body whose parse outgrew the worker's heap. kube-apiserver has no such limit (Go parses such a body in
 * place), so the nearest upstream answer is used: the 413 of apimachinery's NewRequestEntityTooLargeError,
 * as limitedReadBody answers a body over its size limit, the message saying which limit was met.
 */
function parseTooLarge(): StatusError {
  return requestEntityTooLarge(
    `decoding the body needs more than the parser's ${RESOURCE_LIMITS.maxOldGenerationSizeMb ?? 0} MB of memory`,
  );
}

/** The Status for a body that did not parse; `syntax` words a parser error as the calling handler does. */
export function parseFailureStatus(failure: ParseFailure, syntax: (message: string) => StatusError): StatusError {
  switch (failure.kind) {
    case 'syntax':
      return syntax(failure.message);
    case 'busy':
      // As API Priority and Fairness answers a request whose queue is full (server/filters/maxinflight.go
      // tooManyRequests: 429, "Too many requests, please try again later.", Retry-After: 1).
      return tooManyRequests(1);
    case 'tooLarge':
      return parseTooLarge();
    case 'refused':
      return failure.status;
    case 'failed':
      return internalError(`the request body could not be decoded: ${failure.message}`);
  }
}
