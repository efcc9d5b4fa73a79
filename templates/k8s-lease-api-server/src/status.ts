// Failures as typed values, rendered as meta/v1 Status objects exactly where Kubernetes would.
import type { BadValue } from './field-value.js';
import { renderBadValue } from './field-value.js';
import type { JsonObject } from './json.js';
import { GROUP, QUALIFIED_KIND, QUALIFIED_RESOURCE, RESOURCE } from './lease-meta.js';

/** One cause of a failure (`metav1.StatusCause`), e.g. a field that failed validation. */
export interface StatusCause {
  /** Machine-readable cause, e.g. `FieldValueInvalid`. */
  reason?: string | undefined;
  /** Human-readable description. */
  message?: string | undefined;
  /** The field concerned, e.g. `spec.leaseDurationSeconds`. */
  field?: string | undefined;
}

/** `metav1.StatusDetails`: which object a failure concerns, its causes, and when to retry. */
export interface StatusDetails {
  /** Name of the object concerned. */
  name?: string | undefined;
  /** API group of the object concerned, e.g. `coordination.k8s.io`. */
  group?: string | undefined;
  /** Kind (resource) of the object concerned, e.g. `leases`. */
  kind?: string | undefined;
  /** The individual causes, e.g. one per invalid field. */
  causes?: StatusCause[] | undefined;
  /** Seconds the client should wait before retrying. */
  retryAfterSeconds?: number | undefined;
}

/** A failure as the API reports it: what `statusObject` renders as a `Status` body, and what failed store writes carry. */
export interface StatusError {
  /** The HTTP status code, e.g. 404. */
  code: number;
  /** The `metav1.StatusReason`, e.g. `NotFound` ('' for none). */
  reason: string;
  /** Human-readable description, worded as kube-apiserver words it. */
  message: string;
  /** The object concerned and the causes. */
  details?: StatusDetails | undefined;
  /** Only for 410 on a continue token: lets the client resume inconsistently. */
  continueToken?: string | undefined;
}

export type FieldErrorType = 'Invalid' | 'Required' | 'Forbidden' | 'NotSupported' | 'TooLong';

/** A field.Error of k8s.io/apimachinery: its rendering is part of the API's observable contract. */
export interface FieldError {
  type: FieldErrorType;
  field: string;
  detail?: string | undefined;
  /** The bad value with the Go type that decides its rendering (field-value.ts). */
  value?: BadValue | undefined;
  supported?: string[] | undefined;
}

const CAUSE_REASONS: Record<FieldErrorType, string> = {
  Invalid: 'FieldValueInvalid',
  Required: 'FieldValueRequired',
  Forbidden: 'FieldValueForbidden',
  NotSupported: 'FieldValueNotSupported',
  TooLong: 'FieldValueTooLong',
};

/** The bad value as field.Error prints it in the release the value was styled for; a missing one as Go's nil. */
export function formatFieldValue(value: BadValue | undefined): string {
  return value === undefined ? 'null' : renderBadValue(value);
}

/**
 * The longest rendering of a value (or object name) a Status quotes. apimachinery quotes values whole
 * (field.Error.ErrorBody has no limit), so a 3 MiB invalid name or patch comes back four to six times
 * over, a 12–30 MB reply. This server deliberately cuts longer renderings and says so, bounding every
 * such reply; values up to this length, every value a real object can hold, read exactly as upstream.
 */
export const MAX_QUOTED_VALUE_CHARS: number = 4096;

const isHighSurrogate = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff;

/** `text` cut to MAX_QUOTED_VALUE_CHARS (never inside a surrogate pair), with how much was left out. */
export function truncateQuoted(text: string): string {
  if (text.length <= MAX_QUOTED_VALUE_CHARS) return text;
  const end = MAX_QUOTED_VALUE_CHARS - (isHighSurrogate(text.charCodeAt(MAX_QUOTED_VALUE_CHARS - 1)) ? 1 : 0);
  return `${text.slice(0, end)}...(${text.length - end} more characters)`;
}

// One rendering per value object: ValidateOwnerReferences quotes the whole list once per extra controller, so
// 20,000 controller references would otherwise render the same 1.66 MB list 20,000 times (a heap overflow).
const renderedValues = new WeakMap<object, string>();

/** A field error's value as the Status quotes it: a long string is cut inside its quotes. */
function quotedValue(value: FieldError['value']): string {
  if (typeof value === 'string') return formatFieldValue(truncateQuoted(value));
  if (typeof value !== 'object' || value === null) return truncateQuoted(formatFieldValue(value));
  const known = renderedValues.get(value);
  if (known !== undefined) return known;
  const rendered = truncateQuoted(formatFieldValue(value));
  renderedValues.set(value, rendered);
  return rendered;
}

/** A detail as the Status says it: cut like a quoted value, since details quote names (owner references'). */
function detailSuffix(detail: string | undefined): string {
  return detail ? `: ${truncateQuoted(detail)}` : '';
}

export function fieldErrorBody(e: FieldError): string {
  switch (e.type) {
    case 'Invalid':
      return `Invalid value: ${quotedValue(e.value)}${detailSuffix(e.detail)}`;
    case 'Required':
      return `Required value${detailSuffix(e.detail)}`;
    case 'Forbidden':
      return `Forbidden${detailSuffix(e.detail)}`;
    case 'NotSupported':
      return `Unsupported value: ${quotedValue(e.value)}: supported values: ${(e.supported ?? []).map((s) => JSON.stringify(s)).join(', ')}`;
    case 'TooLong':
      return `Too long: ${e.detail ?? 'value is too long'}`;
  }
}

export function fieldErrorMessage(e: FieldError): string {
  return `${e.field}: ${fieldErrorBody(e)}`;
}

/**
 * The most field errors an Invalid Status reports. errors.NewInvalid lists every error as a cause and in the
 * message; a request can carry tens of thousands (one per extra controller owner reference), a reply of
 * hundreds of megabytes. This server reports the first ones and counts the rest.
 */
export const MAX_STATUS_CAUSES: number = 100;

/** The most JSON characters the reported causes take together; a cause that would pass it is counted, not listed. */
export const MAX_STATUS_CAUSES_CHARS: number = 512 * 1024;

/** The longest Status message (a message is cut like a quoted value past it). */
export const MAX_STATUS_MESSAGE_CHARS: number = 64 * 1024;

/** field.ErrorList.ToAggregate: a message repeated is said once, and one message has no brackets (the causes keep every error). */
function aggregate(messages: string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? (unique[0] ?? '') : `[${unique.join(', ')}]`;
}

/** The first errors that fit MAX_STATUS_CAUSES and MAX_STATUS_CAUSES_CHARS, rendered only as far as they fit. */
function reportedErrors(errors: readonly FieldError[]): { shown: FieldError[]; causes: StatusCause[] } {
  const shown: FieldError[] = [];
  const causes: StatusCause[] = [];
  let chars = 0;
  for (const e of errors.slice(0, MAX_STATUS_CAUSES)) {
    const cause = { reason: CAUSE_REASONS[e.type], message: fieldErrorBody(e), field: e.field };
    chars += JSON.stringify(cause).length;
    if (chars > MAX_STATUS_CAUSES_CHARS && shown.length > 0) break;
    shown.push(e);
    causes.push(cause);
  }
  return { shown, causes };
}

/** The aggregate of the reported errors, with how many were left out (e.g. ` (and 19899 more errors)`). */
function boundedAggregate(shown: FieldError[], total: number): string {
  const left = total - shown.length;
  const more = left === 0 ? '' : ` (and ${left} more ${left === 1 ? 'error' : 'errors'})`;
  return `${aggregate(shown.map(fieldErrorMessage))}${more}`;
}

/** A message cut to MAX_STATUS_MESSAGE_CHARS (never inside a surrogate pair). */
export function boundedMessage(message: string): string {
  if (message.length <= MAX_STATUS_MESSAGE_CHARS) return message;
  const end = MAX_STATUS_MESSAGE_CHARS - (isHighSurrogate(message.charCodeAt(MAX_STATUS_MESSAGE_CHARS - 1)) ? 1 : 0);
  return `${message.slice(0, end)}...(${message.length - end} more characters)`;
}

export function invalid(name: string, errors: FieldError[], qualifiedKind: string = QUALIFIED_KIND): StatusError {
  const [kind = '', group = ''] = splitQualified(qualifiedKind);
  const shownName = truncateQuoted(name);
  const { shown, causes } = reportedErrors(errors);
  return {
    code: 422,
    reason: 'Invalid',
    message: boundedMessage(
      `${qualifiedKind} ${JSON.stringify(shownName)} is invalid: ${boundedAggregate(shown, errors.length)}`,
    ),
    details: { name: shownName, group, kind, causes },
  };
}

function splitQualified(qualified: string): [string, string] {
  const dot = qualified.indexOf('.');
  return dot < 0 ? [qualified, ''] : [qualified.slice(0, dot), qualified.slice(dot + 1)];
}

/** Request-option validation failures (ListOptions, CreateOptions, …) are Invalid on meta.k8s.io kinds. */
export function invalidOptions(optionsKind: string, errors: FieldError[]): StatusError {
  return invalid('', errors, `${optionsKind}.meta.k8s.io`);
}

/** Which resource a Status names: the Lease unless a LeaseCandidate operation says otherwise. */
export interface StatusResource {
  plural: string;
  qualifiedResource: string;
}

const LEASES: StatusResource = { plural: RESOURCE, qualifiedResource: QUALIFIED_RESOURCE };

function resourceDetails(name: string, resource: StatusResource = LEASES): StatusDetails {
  return { name, group: GROUP, kind: resource.plural };
}

export function notFound(name: string, resource: StatusResource = LEASES): StatusError {
  return {
    code: 404,
    reason: 'NotFound',
    message: `${resource.qualifiedResource} ${JSON.stringify(name)} not found`,
    details: resourceDetails(name, resource),
  };
}

export function alreadyExists(name: string, resource: StatusResource = LEASES): StatusError {
  return {
    code: 409,
    reason: 'AlreadyExists',
    message: `${resource.qualifiedResource} ${JSON.stringify(name)} already exists`,
    details: resourceDetails(name, resource),
  };
}

export function conflict(name: string, why: string, resource: StatusResource = LEASES): StatusError {
  return {
    code: 409,
    reason: 'Conflict',
    message: `Operation cannot be fulfilled on ${resource.qualifiedResource} ${JSON.stringify(name)}: ${why}`,
    details: resourceDetails(name, resource),
  };
}

export const OBJECT_MODIFIED =
  'the object has been modified; please apply your changes to the latest version and try again';

export function staleResourceVersion(name: string, resource: StatusResource = LEASES): StatusError {
  return conflict(name, OBJECT_MODIFIED, resource);
}

export function applyConflict(message: string, causes: StatusCause[], name: string): StatusError {
  return { code: 409, reason: 'Conflict', message, details: { ...resourceDetails(name), causes } };
}

export function badRequest(message: string): StatusError {
  return { code: 400, reason: 'BadRequest', message };
}

export function unsupportedMediaType(message: string): StatusError {
  return { code: 415, reason: 'UnsupportedMediaType', message };
}

export function notAcceptable(message: string): StatusError {
  return { code: 406, reason: 'NotAcceptable', message };
}

/**
 * go-restful's 405 as the apiserver's serviceErrorHandler writes it: NewGenericServerResponse always sets
 * details, here with nothing in them (`"details":{}`), and the router's Allow header is not passed on.
 */
export function methodNotAllowed(): StatusError {
  return {
    code: 405,
    reason: 'MethodNotAllowed',
    message: 'the server does not allow this method on the requested resource',
    details: {},
  };
}

/**
 * go-restful's 404 for a path under a registered web service (an unknown resource, subresource or
 * version of the group) through serviceErrorHandler: empty details, no cause.
 */
export function routeNotFound(): StatusError {
  return { code: 404, reason: 'NotFound', message: 'the server could not find the requested resource', details: {} };
}

export function pathNotFound(): StatusError {
  return {
    code: 404,
    reason: 'NotFound',
    message: 'the server could not find the requested resource',
    details: { causes: [{ reason: 'UnexpectedServerResponse', message: '404 page not found' }] },
  };
}

export function unauthorized(): StatusError {
  return { code: 401, reason: 'Unauthorized', message: 'Unauthorized' };
}

export function forbidden(
  user: string,
  verb: string,
  namespace: string | undefined,
  resource: StatusResource = LEASES,
): StatusError {
  const scope = namespace === undefined ? 'at the cluster scope' : `in the namespace ${JSON.stringify(namespace)}`;
  return {
    code: 403,
    reason: 'Forbidden',
    message: `${resource.qualifiedResource} is forbidden: User ${JSON.stringify(user)} cannot ${verb} resource "${resource.plural}" in API group "${GROUP}" ${scope}`,
    details: { group: GROUP, kind: resource.plural },
  };
}

/** apimachinery's NewRequestEntityTooLargeError: 413, its prefix before `message`. */
export function requestEntityTooLarge(message: string): StatusError {
  return { code: 413, reason: 'RequestEntityTooLarge', message: `Request entity too large: ${message}` };
}

export function tooManyRequests(retryAfterSeconds: number): StatusError {
  return {
    code: 429,
    reason: 'TooManyRequests',
    message: 'Too many requests, please try again later.',
    details: { retryAfterSeconds },
  };
}

export function internalError(why: string): StatusError {
  return {
    code: 500,
    reason: 'InternalError',
    message: `Internal error occurred: ${why}`,
    details: { causes: [{ message: why }] },
  };
}

export function serviceUnavailable(why: string): StatusError {
  return { code: 503, reason: 'ServiceUnavailable', message: why };
}

export function expired(message: string, continueToken?: string): StatusError {
  return continueToken === undefined
    ? { code: 410, reason: 'Expired', message }
    : { code: 410, reason: 'Expired', message, continueToken };
}

export function tooLargeResourceVersion(requested: number, current: number, retryAfterSeconds = 1): StatusError {
  return {
    code: 504,
    reason: 'Timeout',
    message: `Timeout: Too large resource version: ${requested}, current: ${current}`,
    details: {
      causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
      // errors.NewTimeoutError: RetryAfterSeconds is omitempty, so 0 is no field at all.
      ...(retryAfterSeconds === 0 ? {} : { retryAfterSeconds }),
    },
  };
}

/** Renders a StatusError as the `Status` object (`kind: Status`, `status: Failure`) kube-apiserver sends as a body. */
export function statusObject(error: StatusError): JsonObject {
  const metadata: JsonObject = error.continueToken === undefined ? {} : { continue: error.continueToken };
  const body: JsonObject = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata,
    status: 'Failure',
    message: error.message,
  };
  // metav1.Status's reason is omitempty (an unclassified error, StatusReasonUnknown "", has none).
  if (error.reason !== '') body['reason'] = error.reason;
  if (error.details !== undefined) body['details'] = detailsObject(error.details);
  body['code'] = error.code;
  return body;
}

function detailsObject(details: StatusDetails): JsonObject {
  const out: JsonObject = {};
  if (details.name !== undefined) out['name'] = details.name;
  if (details.group !== undefined) out['group'] = details.group;
  if (details.kind !== undefined) out['kind'] = details.kind;
  if (details.causes !== undefined) {
    out['causes'] = details.causes.map((c) => {
      const cause: JsonObject = {};
      if (c.reason !== undefined) cause['reason'] = c.reason;
      if (c.message !== undefined) cause['message'] = c.message;
      if (c.field !== undefined) cause['field'] = c.field;
      return cause;
    });
  }
  if (details.retryAfterSeconds !== undefined) out['retryAfterSeconds'] = details.retryAfterSeconds;
  return out;
}

/**
 * A patch whose result does not decode (or decodes with strict errors under fieldValidation=Strict):
 * NewInvalid(schema.GroupKind{}, "", field.Invalid(field.NewPath("patch"), value, detail)) in patch.go, so the
 * kind and name are empty ("" is invalid) and the details hold only the cause.
 */
export function invalidPatch(value: string, detail: string): StatusError {
  const error: FieldError = { type: 'Invalid', field: 'patch', value, detail };
  return {
    code: 422,
    reason: 'Invalid',
    message: ` "" is invalid: ${fieldErrorMessage(error)}`,
    details: { causes: [{ reason: CAUSE_REASONS.Invalid, message: fieldErrorBody(error), field: 'patch' }] },
  };
}

/**
 * NewGenericServerResponse(422, "", schema.GroupResource{}, "", message, 0, false), which kube-apiserver
 * answers when the patch library fails (a JSON patch test, a missing path): the library's message is dropped
 * for the generic one and the details stay empty.
 */
export function unprocessableGeneric(): StatusError {
  return {
    code: 422,
    reason: 'Invalid',
    message: 'the server rejected our request due to an error in our request',
    details: {},
  };
}
