// Query-parameter (and DeleteOptions body) parsing and validation, with ListOptions/CreateOptions/…
// failures reported as the Invalid statuses the real server returns.
import type { JsonValue } from '../json.js';
import { isJsonObject, objectAt, stringAt } from '../json.js';
import type { FieldValidation, WriteOptions } from '../operations/context.js';
import type { ListQuery } from '../operations/list.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import { parseFieldSelector } from '../selectors/field-selector.js';
import { parseLabelSelector } from '../selectors/label-selector.js';
import type { FieldError, StatusError } from '../status.js';
import { badRequest, invalidOptions } from '../status.js';
import type { DeleteOptions } from '../operations/delete.js';
import { parseJsonStrict } from '../decode/json-parser.js';

export interface WatchFlags {
  watch: boolean;
  allowWatchBookmarks: boolean;
  sendInitialEvents: boolean | undefined;
  timeoutSeconds: number | undefined;
}

export interface ListRequest extends ListQuery, WatchFlags {}

function boolParam(query: URLSearchParams, name: string): Result<boolean | undefined, StatusError> {
  const value = query.get(name);
  if (value === null) return ok(undefined);
  if (value === 'true' || value === '1') return ok(true);
  if (value === 'false' || value === '0' || value === '') return ok(false);
  return err(badRequest(`invalid boolean value for ${name}: ${JSON.stringify(value)}`));
}

function intParam(query: URLSearchParams, name: string): Result<number | undefined, StatusError> {
  const value = query.get(name);
  if (value === null || value === '') return ok(undefined);
  if (!/^-?\d+$/.test(value)) return err(badRequest(`${name}: invalid value ${JSON.stringify(value)}: must be an integer`));
  return ok(Number(value));
}

function validateListRequest(r: ListRequest, rawMatch: string): FieldError[] {
  const errors: FieldError[] = [];
  const rv = r.resourceVersion ?? '';
  const hasContinue = (r.continueToken ?? '') !== '';
  if (r.watch) {
    if (r.sendInitialEvents !== undefined) {
      if (rawMatch !== 'NotOlderThan') {
        errors.push({ type: 'Forbidden', field: 'resourceVersionMatch', detail: 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan' });
      }
      if (r.sendInitialEvents && !r.allowWatchBookmarks) {
        errors.push({ type: 'Forbidden', field: 'allowWatchBookmarks', detail: 'allowWatchBookmarks must be set to true when sendInitialEvents is true' });
      }
    }
    if (rawMatch !== '') {
      if (r.sendInitialEvents === undefined) {
        errors.push({ type: 'Forbidden', field: 'resourceVersionMatch', detail: 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided' });
      }
      if (rawMatch !== 'NotOlderThan') errors.push({ type: 'NotSupported', field: 'resourceVersionMatch', value: rawMatch, supported: ['NotOlderThan'] });
      if (hasContinue) errors.push({ type: 'Forbidden', field: 'resourceVersionMatch', detail: 'resourceVersionMatch is forbidden when continue is provided' });
    }
    return errors;
  }
  if (rawMatch !== '') {
    if (rv === '') errors.push({ type: 'Forbidden', field: 'resourceVersionMatch', detail: 'resourceVersionMatch is forbidden unless resourceVersion is provided' });
    if (hasContinue) errors.push({ type: 'Forbidden', field: 'resourceVersionMatch', detail: 'resourceVersionMatch is forbidden when continue is provided' });
    if (rawMatch !== 'Exact' && rawMatch !== 'NotOlderThan') {
      errors.push({ type: 'NotSupported', field: 'resourceVersionMatch', value: rawMatch, supported: ['Exact', 'NotOlderThan', ''] });
    }
    if (rawMatch === 'Exact' && rv === '0') {
      errors.push({ type: 'Forbidden', field: 'resourceVersionMatch', detail: 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"' });
    }
  }
  if (r.sendInitialEvents !== undefined) errors.push({ type: 'Forbidden', field: 'sendInitialEvents', detail: 'sendInitialEvents is forbidden for list' });
  return errors;
}

/** Parses list/watch query parameters for a collection (namespace === undefined: all namespaces). */
export function parseListRequest(query: URLSearchParams, namespace: string | undefined, forceWatch: boolean): Result<ListRequest, StatusError> {
  const labelText = query.get('labelSelector') ?? '';
  const labels = parseLabelSelector(labelText);
  if (!labels.ok) return err(badRequest(labels.error));
  const fields = parseFieldSelector(query.get('fieldSelector') ?? '');
  if (!fields.ok) return err(badRequest(fields.error));
  const watch = boolParam(query, 'watch');
  const bookmarks = boolParam(query, 'allowWatchBookmarks');
  const initial = boolParam(query, 'sendInitialEvents');
  const limit = intParam(query, 'limit');
  const timeout = intParam(query, 'timeoutSeconds');
  if (!watch.ok) return watch;
  if (!bookmarks.ok) return bookmarks;
  if (!initial.ok) return initial;
  if (!limit.ok) return limit;
  if (!timeout.ok) return timeout;
  const rawMatch = query.get('resourceVersionMatch') ?? '';
  const request: ListRequest = {
    namespace,
    labels: labels.value,
    fields: fields.value,
    limit: limit.value,
    continueToken: query.get('continue') ?? undefined,
    resourceVersion: query.get('resourceVersion') ?? undefined,
    resourceVersionMatch: rawMatch === 'Exact' || rawMatch === 'NotOlderThan' ? rawMatch : undefined,
    watch: forceWatch || watch.value === true,
    allowWatchBookmarks: bookmarks.value === true,
    sendInitialEvents: initial.value,
    timeoutSeconds: timeout.value,
  };
  const errors = validateListRequest(request, rawMatch);
  return errors.length === 0 ? ok(request) : err(invalidOptions('ListOptions', errors));
}

function dryRunOf(values: string[], optionsKind: string): Result<boolean, StatusError> {
  if (values.length === 0) return ok(false);
  if (values.every((v) => v === 'All')) return ok(true);
  return err(invalidOptions(optionsKind, [{ type: 'NotSupported', field: 'dryRun', value: values, supported: ['All'] }]));
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

export function parseWriteOptions(query: URLSearchParams, userAgent: string | undefined, kind: WriteKind, isApply: boolean): Result<WriteRequest, StatusError> {
  const optionsKind = `${kind}Options`;
  const dryRun = dryRunOf(query.getAll('dryRun'), optionsKind);
  if (!dryRun.ok) return dryRun;
  const errors: FieldError[] = [];
  const rawValidation = query.get('fieldValidation') ?? '';
  const fieldValidation: FieldValidation = rawValidation === 'Strict' || rawValidation === 'Ignore' ? rawValidation : 'Warn';
  if (rawValidation !== '' && rawValidation !== 'Strict' && rawValidation !== 'Ignore' && rawValidation !== 'Warn') {
    errors.push({ type: 'NotSupported', field: 'fieldValidation', value: rawValidation, supported: ['', 'Ignore', 'Strict', 'Warn'] });
  }
  const explicit = query.get('fieldManager');
  if (explicit !== null && explicit.length > 128) {
    errors.push({ type: 'TooLong', field: 'fieldManager', detail: 'may not be more than 128 bytes' });
  }
  const badChar = explicit === null ? -1 : explicit.search(/[\u0000-\u001f\u007f]/);
  if (explicit !== null && badChar >= 0) {
    errors.push({ type: 'Invalid', field: 'fieldManager', value: explicit, detail: `invalid character (at position ${badChar})` });
  }
  const force = boolParam(query, 'force');
  if (!force.ok) return force;
  if (kind === 'Patch' && !isApply && force.value !== undefined) {
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
    force: force.value === true,
    explicitManager: explicit !== null && explicit !== '',
  });
}

const PROPAGATION_POLICIES = ['Background', 'Foreground', 'Orphan'];

/** DeleteOptions from the body (if any) overlaid with query parameters. */
export function parseDeleteOptions(query: URLSearchParams, body: string): Result<DeleteOptions, StatusError> {
  let fromBody: JsonValue = {};
  if (body.trim() !== '') {
    const parsed = parseJsonStrict(body);
    if (!parsed.ok) return err(badRequest(`couldn't get version/kind; json parse error: ${parsed.error}`));
    fromBody = parsed.value.value;
    if (!isJsonObject(fromBody)) return err(badRequest('the body of a delete request must be a DeleteOptions object'));
  }
  const bodyObj = isJsonObject(fromBody) ? fromBody : {};
  const bodyDryRun = Array.isArray(bodyObj['dryRun']) ? bodyObj['dryRun'].filter((v): v is string => typeof v === 'string') : [];
  const dryRun = dryRunOf([...query.getAll('dryRun'), ...bodyDryRun], 'DeleteOptions');
  if (!dryRun.ok) return dryRun;
  const grace = intParam(query, 'gracePeriodSeconds');
  if (!grace.ok) return grace;
  const bodyGrace = bodyObj['gracePeriodSeconds'];
  const policy = query.get('propagationPolicy') ?? stringAt(bodyObj, 'propagationPolicy');
  if (policy !== undefined && policy !== '' && !PROPAGATION_POLICIES.includes(policy)) {
    return err(invalidOptions('DeleteOptions', [{ type: 'NotSupported', field: 'propagationPolicy', value: policy, supported: PROPAGATION_POLICIES }]));
  }
  const pre = objectAt(bodyObj, 'preconditions');
  return ok({
    dryRun: dryRun.value,
    gracePeriodSeconds: grace.value ?? (typeof bodyGrace === 'number' ? bodyGrace : undefined),
    preconditions: { uid: stringAt(pre, 'uid'), resourceVersion: stringAt(pre, 'resourceVersion') },
  });
}
