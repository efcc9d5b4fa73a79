// Query-parameter (and DeleteOptions body) parsing and validation, with ListOptions/CreateOptions/…
// failures reported as the Invalid statuses the real server returns.
import type { JsonObject, JsonValue } from '../json.js';
import { isJsonObject, objectAt, stringAt } from '../json.js';
import type { FieldValidation, WriteOptions } from '../operations/context.js';
import type { ListQuery } from '../operations/list.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import { leaseFieldRequirements, parseFieldSelector } from '../selectors/field-selector.js';
import type { StyledValue, ValueStyle } from '../field-value.js';
import { parseLabelSelector } from '../selectors/label-selector.js';
import { parseInt64 } from '../selectors/strconv.js';
import type { FieldError, StatusError } from '../status.js';
import { badRequest, boundedMessage, invalidOptions } from '../status.js';
import type { DeleteOptions, PropagationPolicy } from '../operations/delete.js';

export interface WatchFlags {
  watch: boolean;
  allowWatchBookmarks: boolean;
  sendInitialEvents: boolean | undefined;
  /** As sent (int64); watchTimeoutMs turns it into the stream's lifetime. */
  timeoutSeconds: bigint | undefined;
}

export interface ListRequest extends ListQuery, WatchFlags {}

/**
 * A boolean query value as apimachinery's Convert_Slice_string_To_bool reads it: only "0" and "false"
 * (any case, by Unicode simple folding) are false; anything else, "" included, is true. undefined when absent.
 */
export function parseQueryBool(value: string | null): boolean | undefined {
  if (value === null) return undefined;
  return !(value === '0' || equalFoldFalse(value));
}

// strings.EqualFold(value, "false"): rune by rune; 'ſ' (U+017F) folds to 's', the only non-ASCII rune that can.
function equalFoldFalse(value: string): boolean {
  const runes = [...value];
  return runes.length === 5 && runes.every((r, i) => r.toUpperCase() === 'FALSE'[i]);
}

function boolParam(query: URLSearchParams, name: string): boolean | undefined {
  return parseQueryBool(query.get(name));
}

/** Convert_Slice_string_To_Pointer_int64: absent is unset; anything present must be strconv.ParseInt-able. */
function intParam(query: URLSearchParams, name: string): Result<bigint | undefined, StatusError> {
  const value = query.get(name);
  if (value === null) return ok(undefined);
  const parsed = parseInt64(value);
  return parsed.ok ? parsed : err(badRequest(parsed.error));
}

/** kube-apiserver's --min-request-timeout default, in seconds. */
export const MIN_REQUEST_TIMEOUT_SECONDS = 1800;

/**
 * How long a watch stays open, as ListResource computes it: time.Duration(timeoutSeconds) * time.Second
 * (int64 nanoseconds, wrapping on overflow as Go's multiplication does); zero or unset means
 * minRequestTimeout * (1 + random); a negative duration is an already expired context, so the watch ends at once.
 */
export function watchTimeoutMs(timeoutSeconds: bigint | undefined, random: number): number {
  const nanos = timeoutSeconds === undefined ? 0n : BigInt.asIntN(64, timeoutSeconds * 1_000_000_000n);
  if (nanos === 0n) return MIN_REQUEST_TIMEOUT_SECONDS * 1000 * (random + 1);
  return nanos < 0n ? 0 : Number(nanos / 1_000_000n);
}

function validateListRequest(r: ListRequest, rawMatch: string, watchListEnabled: boolean): FieldError[] {
  const errors: FieldError[] = [];
  const rv = r.resourceVersion ?? '';
  const hasContinue = (r.continueToken ?? '') !== '';
  if (r.watch) {
    if (r.sendInitialEvents !== undefined) {
      if (rawMatch !== 'NotOlderThan') {
        errors.push({
          type: 'Forbidden',
          field: 'resourceVersionMatch',
          detail: 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
        });
      }
      if (!watchListEnabled) {
        errors.push({
          type: 'Forbidden',
          field: 'sendInitialEvents',
          detail: 'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
        });
      }
      // No allowWatchBookmarks requirement: validateWatchOptions leaves it out for backward compatibility
      // (validation_test.go "watch-sendInitialEvents-no-allowWatchBookmark"); such a watch gets no end bookmark.
    }
    if (rawMatch !== '') {
      if (r.sendInitialEvents === undefined) {
        errors.push({
          type: 'Forbidden',
          field: 'resourceVersionMatch',
          detail: 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
        });
      }
      if (rawMatch !== 'NotOlderThan')
        errors.push({
          type: 'NotSupported',
          field: 'resourceVersionMatch',
          value: rawMatch,
          supported: ['NotOlderThan'],
        });
      if (hasContinue)
        errors.push({
          type: 'Forbidden',
          field: 'resourceVersionMatch',
          detail: 'resourceVersionMatch is forbidden when continue is provided',
        });
    }
    return errors;
  }
  if (rawMatch !== '') {
    if (rv === '')
      errors.push({
        type: 'Forbidden',
        field: 'resourceVersionMatch',
        detail: 'resourceVersionMatch is forbidden unless resourceVersion is provided',
      });
    if (hasContinue)
      errors.push({
        type: 'Forbidden',
        field: 'resourceVersionMatch',
        detail: 'resourceVersionMatch is forbidden when continue is provided',
      });
    if (rawMatch !== 'Exact' && rawMatch !== 'NotOlderThan') {
      errors.push({
        type: 'NotSupported',
        field: 'resourceVersionMatch',
        value: rawMatch,
        supported: ['Exact', 'NotOlderThan', ''],
      });
    }
    if (rawMatch === 'Exact' && rv === '0') {
      errors.push({
        type: 'Forbidden',
        field: 'resourceVersionMatch',
        detail: 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
      });
    }
  }
  if (r.sendInitialEvents !== undefined)
    errors.push({ type: 'Forbidden', field: 'sendInitialEvents', detail: 'sendInitialEvents is forbidden for list' });
  return errors;
}

/**
 * Parses list/watch query parameters for a collection (namespace === undefined: all namespaces) in
 * ListResource's order: decoding (ints in ListOptions field order, then the label and field selectors'
 * syntax) answers 400, then ListOptions validation 422, then the field-label conversion 400.
 * `watchListEnabled` is the release's WatchList gate, which ValidateListOptions is given
 * (handlers/get.go ListResource and delete.go DeleteCollection alike).
 */
export function parseListRequest(
  query: URLSearchParams,
  namespace: string | undefined,
  forceWatch: boolean,
  watchListEnabled: boolean,
  style: ValueStyle,
): Result<ListRequest, StatusError> {
  const timeout = intParam(query, 'timeoutSeconds');
  if (!timeout.ok) return timeout;
  const limit = intParam(query, 'limit');
  if (!limit.ok) return limit;
  const labels = parseLabelSelector(query.get('labelSelector') ?? '', style);
  // A selector's error quotes it (up to the 1 MiB a request line may have): the message is cut past
  // MAX_STATUS_MESSAGE_CHARS, as an Invalid Status's is.
  if (!labels.ok) return err(badRequest(boundedMessage(labels.error)));
  const terms = parseFieldSelector(query.get('fieldSelector') ?? '');
  if (!terms.ok) return err(badRequest(boundedMessage(terms.error)));
  const rawMatch = query.get('resourceVersionMatch') ?? '';
  const request: ListRequest = {
    namespace,
    labels: labels.value,
    fields: [],
    limit: limit.value === undefined ? undefined : Number(limit.value),
    continueToken: query.get('continue') ?? undefined,
    resourceVersion: query.get('resourceVersion') ?? undefined,
    resourceVersionMatch: rawMatch === 'Exact' || rawMatch === 'NotOlderThan' ? rawMatch : undefined,
    watch: forceWatch || boolParam(query, 'watch') === true,
    allowWatchBookmarks: boolParam(query, 'allowWatchBookmarks') === true,
    sendInitialEvents: boolParam(query, 'sendInitialEvents'),
    timeoutSeconds: timeout.value,
  };
  const errors = validateListRequest(request, rawMatch, watchListEnabled);
  if (errors.length > 0) return err(invalidOptions('ListOptions', errors));
  const fields = leaseFieldRequirements(terms.value);
  if (!fields.ok) return err(badRequest(fields.error));
  return ok({ ...request, fields: fields.value });
}

/** ValidateDryRun: the bad value is the whole []string, rendered as the release renders one. */
function dryRunOf(values: string[], optionsKind: string, style: ValueStyle): Result<boolean, StatusError> {
  if (values.length === 0) return ok(false);
  if (values.every((v) => v === 'All')) return ok(true);
  const value: StyledValue = { style, goType: '[]string', items: values };
  return err(invalidOptions(optionsKind, [{ type: 'NotSupported', field: 'dryRun', value, supported: ['All'] }]));
}

/** The default field manager is the User-Agent's product token, as the API server derives it. */
export function managerFromUserAgent(userAgent: string | undefined): string {
  const prefix = (userAgent ?? '').split('/')[0]?.trim() ?? '';
  return (prefix === '' ? 'unknown' : prefix).slice(0, 128);
}

export interface WriteRequest extends WriteOptions {
  force: boolean;
  explicitManager: boolean;
}

export type WriteKind = 'Create' | 'Update' | 'Patch';

export function parseWriteOptions(
  query: URLSearchParams,
  userAgent: string | undefined,
  kind: WriteKind,
  isApply: boolean,
  style: ValueStyle,
): Result<WriteRequest, StatusError> {
  const optionsKind = `${kind}Options`;
  const dryRun = dryRunOf(query.getAll('dryRun'), optionsKind, style);
  if (!dryRun.ok) return dryRun;
  const errors: FieldError[] = [];
  const rawValidation = query.get('fieldValidation') ?? '';
  const fieldValidation: FieldValidation =
    rawValidation === 'Strict' || rawValidation === 'Ignore' ? rawValidation : 'Warn';
  if (rawValidation !== '' && rawValidation !== 'Strict' && rawValidation !== 'Ignore' && rawValidation !== 'Warn') {
    errors.push({
      type: 'NotSupported',
      field: 'fieldValidation',
      value: rawValidation,
      supported: ['', 'Ignore', 'Strict', 'Warn'],
    });
  }
  const explicit = query.get('fieldManager');
  if (explicit !== null && explicit.length > 128) {
    errors.push({ type: 'TooLong', field: 'fieldManager', detail: 'may not be more than 128 bytes' });
  }
  const badChar = explicit === null ? -1 : explicit.search(/[\u0000-\u001f\u007f]/);
  if (explicit !== null && badChar >= 0) {
    errors.push({
      type: 'Invalid',
      field: 'fieldManager',
      value: explicit,
      detail: `invalid character (at position ${badChar})`,
    });
  }
  const force = boolParam(query, 'force');
  if (kind === 'Patch' && !isApply && force !== undefined) {
    errors.push({ type: 'Forbidden', field: 'force', detail: 'may not be specified for non-apply patch' });
  }
  if (isApply && (explicit === null || explicit === '')) {
    errors.push({ type: 'Required', field: 'fieldManager', detail: 'is required for apply patch' });
  }
  if (errors.length > 0) return err(invalidOptions(optionsKind, errors));
  return ok({
    dryRun: dryRun.value,
    fieldValidation,
    fieldManager: explicit !== null && explicit !== '' ? explicit : managerFromUserAgent(userAgent),
    force: force === true,
    explicitManager: explicit !== null && explicit !== '',
  });
}

const PROPAGATION_POLICIES: readonly PropagationPolicy[] = ['Foreground', 'Background', 'Orphan'];

function isPropagationPolicy(value: string): value is PropagationPolicy {
  return (PROPAGATION_POLICIES as readonly string[]).includes(value);
}

type GoKind = 'string' | 'int64' | 'bool' | 'strings' | 'preconditions';

// metav1.DeleteOptions and metav1.Preconditions as Go's encoding/json sees them: JSON kind and Go type name per field.
const DELETE_OPTIONS_FIELDS: ReadonlyMap<string, [GoKind, string]> = new Map([
  ['gracePeriodSeconds', ['int64', 'int64']],
  ['preconditions', ['preconditions', 'v1.Preconditions']],
  ['orphanDependents', ['bool', 'bool']],
  ['propagationPolicy', ['string', 'v1.DeletionPropagation']],
  ['dryRun', ['strings', '[]string']],
  ['ignoreStoreReadErrorWithClusterBreakingPotential', ['bool', 'bool']],
]);
const PRECONDITIONS_FIELDS: ReadonlyMap<string, [GoKind, string]> = new Map([
  ['uid', ['string', 'types.UID']],
  ['resourceVersion', ['string', 'string']],
]);

function jsonKindName(value: JsonValue): string {
  if (Array.isArray(value)) return 'array';
  if (isJsonObject(value)) return 'object';
  return typeof value === 'boolean' ? 'bool' : typeof value;
}

/**
 * The first type mismatch of a DeleteOptions body in key order, worded as Go's json.UnmarshalTypeError
 * ("Go struct field <innermost struct>.<field path>"); null leaves a field unset. Hand-written: it is
 * what DeleteResource's decode into metav1.DeleteOptions rejects, and the message reaches clients.
 */
function deleteOptionsTypeError(
  value: JsonObject,
  fields: ReadonlyMap<string, [GoKind, string]>,
  struct: string,
  prefix: string,
  numbers: ReadonlyMap<string, string>,
): string | undefined {
  for (const [key, child] of Object.entries(value)) {
    const field = fields.get(key);
    if (field === undefined || child === null) continue;
    const [kind, goType] = field;
    const path = `${prefix}${key}`;
    const mismatch = (shown: string, type: string = goType): string =>
      `json: cannot unmarshal ${shown} into Go struct field ${struct}.${path} of type ${type}`;
    switch (kind) {
      case 'string':
      case 'bool':
        if (jsonKindName(child) !== (kind === 'bool' ? 'bool' : 'string')) return mismatch(jsonKindName(child));
        break;
      case 'int64': {
        // Go runs strconv.ParseInt on the literal, so a fraction, an exponent or an overflow names the literal.
        if (typeof child !== 'number') return mismatch(jsonKindName(child));
        const literal = numbers.get(path) ?? String(child);
        if (!parseInt64(literal).ok) return mismatch(`number ${literal}`);
        break;
      }
      case 'strings': {
        if (!Array.isArray(child)) return mismatch(jsonKindName(child));
        const bad = child.find((item) => item !== null && typeof item !== 'string');
        if (bad !== undefined) return mismatch(jsonKindName(bad), 'string');
        break;
      }
      case 'preconditions': {
        if (!isJsonObject(child)) return mismatch(jsonKindName(child));
        const inner = deleteOptionsTypeError(child, PRECONDITIONS_FIELDS, 'Preconditions', `${path}.`, numbers);
        if (inner !== undefined) return inner;
        break;
      }
    }
  }
  return undefined;
}

/** DeleteOptions from an already decoded body (JSON, YAML or protobuf), or from the query when there is none. */
export function deleteOptionsFrom(
  rawQuery: URLSearchParams,
  fromBody: JsonObject | undefined,
  style: ValueStyle,
  numbers: ReadonlyMap<string, string> = new Map(),
): Result<DeleteOptions, StatusError> {
  const hasBody = fromBody !== undefined;
  if (hasBody) {
    // A body Go cannot decode fails the whole request before anything is deleted (400 since kubernetes#133358).
    const typeError = deleteOptionsTypeError(fromBody, DELETE_OPTIONS_FIELDS, 'DeleteOptions', '', numbers);
    if (typeError !== undefined) return err(badRequest(typeError));
  }
  const query = hasBody ? new URLSearchParams() : rawQuery;
  const bodyObj = fromBody ?? {};
  const bodyDryRun = Array.isArray(bodyObj['dryRun'])
    ? bodyObj['dryRun'].filter((v): v is string => typeof v === 'string')
    : [];
  const dryRun = dryRunOf([...query.getAll('dryRun'), ...bodyDryRun], 'DeleteOptions', style);
  if (!dryRun.ok) return dryRun;
  const grace = intParam(query, 'gracePeriodSeconds');
  if (!grace.ok) return grace;
  const bodyGrace = bodyObj['gracePeriodSeconds'];
  const rawPolicy = query.get('propagationPolicy') ?? stringAt(bodyObj, 'propagationPolicy');
  const policy = rawPolicy === '' ? undefined : rawPolicy;
  const rawOrphan = hasBody ? bodyObj['orphanDependents'] : boolParam(query, 'orphanDependents');
  const orphanDependents = typeof rawOrphan === 'boolean' ? rawOrphan : undefined;
  // ValidateDeleteOptions (apimachinery meta/v1/validation): both set, then an unknown policy; the
  // supported list ends in "nil", as upstream spells it.
  const errors: FieldError[] = [];
  if (orphanDependents !== undefined && policy !== undefined) {
    errors.push({
      type: 'Invalid',
      field: 'propagationPolicy',
      value: policy,
      detail: 'orphanDependents and deletionPropagation cannot be both set',
    });
  }
  if (policy !== undefined && !isPropagationPolicy(policy)) {
    errors.push({
      type: 'NotSupported',
      field: 'propagationPolicy',
      value: policy,
      supported: [...PROPAGATION_POLICIES, 'nil'],
    });
  }
  if (errors.length > 0) return err(invalidOptions('DeleteOptions', errors));
  const pre = objectAt(bodyObj, 'preconditions');
  return ok({
    dryRun: dryRun.value,
    gracePeriodSeconds:
      grace.value !== undefined ? Number(grace.value) : typeof bodyGrace === 'number' ? bodyGrace : undefined,
    preconditions: { uid: stringAt(pre, 'uid'), resourceVersion: stringAt(pre, 'resourceVersion') },
    propagationPolicy: policy !== undefined && isPropagationPolicy(policy) ? policy : undefined,
    orphanDependents,
  });
}
