// metadata.managedFields ⇄ field sets by manager, as apimachinery's managedfields/internal/managedfields.go
// decodes, identifies and encodes them (Kubernetes behaviour, re-implemented).
import type { JsonObject, JsonValue } from '../json.js';
import { isJsonObject } from '../json.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { FieldSet } from './field-set.js';
import { fromFieldsV1, toFieldsV1 } from './field-set.js';
import type { ManagedFields } from './updater.js';

export interface Managed {
  fields: ManagedFields;
  /** Each manager's last change, RFC 3339 (absent when the entry had none). */
  times: Map<string, string>;
}

export function emptyManaged(): Managed {
  return { fields: new Map(), times: new Map() };
}

export interface ManagerInfo {
  manager: string;
  operation: string;
  apiVersion?: string | undefined;
  subresource?: string | undefined;
}

/**
 * The identifier apiserver keys a manager by (BuildManagerIdentifier): the entry's JSON without time and
 * fields, fields in ManagedFieldsEntry's order, empty ones omitted; Apply entries drop their apiVersion.
 */
export function managerIdentifier(info: ManagerInfo): string {
  const out: JsonObject = {};
  if (info.manager !== '') out['manager'] = info.manager;
  if (info.operation !== '') out['operation'] = info.operation;
  if (info.operation !== 'Apply' && info.apiVersion !== undefined && info.apiVersion !== '')
    out['apiVersion'] = info.apiVersion;
  if (info.subresource !== undefined && info.subresource !== '') out['subresource'] = info.subresource;
  return JSON.stringify(out);
}

export function parseIdentifier(identifier: string): ManagerInfo {
  let parsed: JsonValue;
  try {
    parsed = JSON.parse(identifier) as JsonValue;
  } catch {
    return { manager: identifier, operation: '' };
  }
  const text = (key: string): string => {
    const value = isJsonObject(parsed) ? parsed[key] : undefined;
    return typeof value === 'string' ? value : '';
  };
  const info: ManagerInfo = { manager: text('manager'), operation: text('operation') };
  if (text('apiVersion') !== '') info.apiVersion = text('apiVersion');
  if (text('subresource') !== '') info.subresource = text('subresource');
  return info;
}

function textAt(entry: JsonObject, key: string): string {
  const value = entry[key];
  return typeof value === 'string' ? value : '';
}

// Stored objects are immutable, so a stored managedFields array is decoded once; callers never mutate
// a decoded Managed (every step builds new maps).
const decodedCache = new WeakMap<JsonValue[], Result<Managed, string>>();

/** Decodes managedFields (DecodeManagedFields); a later entry with the same identifier replaces an earlier one. */
export function decodeManagedFields(value: JsonValue | undefined): Result<Managed, string> {
  if (!Array.isArray(value)) return ok(emptyManaged());
  const cached = decodedCache.get(value);
  if (cached !== undefined) return cached;
  const decoded = decodeEntries(value);
  decodedCache.set(value, decoded);
  return decoded;
}

// A write's managedFields are a new array (a patch copies the live object's), so the cache above misses on every
// write; a 500 KB fieldsV1 then costs ~0.5 s a write to decode and re-encode. Sets are also cached by their
// fieldsV1's JSON text (one linear JSON.stringify), so the same content decodes to the same set, whose encoding
// toFieldsV1 caches in turn. Bounded: at most DECODED_SETS_MAX texts of DECODED_SETS_CHARS characters in all.
const DECODED_SETS_MAX = 256;
const DECODED_SETS_CHARS = 32 * 1024 * 1024;
const decodedSets = new Map<string, FieldSet>();
let decodedSetsChars = 0;

function decodedSet(fields: JsonValue | undefined): Result<FieldSet, string> {
  if (fields === undefined || !isJsonObject(fields)) return fromFieldsV1(fields);
  const text = JSON.stringify(fields);
  const known = decodedSets.get(text);
  if (known !== undefined) {
    // Least recently used first: a hit moves to the end.
    decodedSets.delete(text);
    decodedSets.set(text, known);
    return ok(known);
  }
  const decoded = fromFieldsV1(fields);
  if (decoded.ok) remember(text, decoded.value);
  return decoded;
}

function remember(text: string, set: FieldSet): void {
  if (text.length > DECODED_SETS_CHARS) return;
  decodedSets.set(text, set);
  decodedSetsChars += text.length;
  for (const oldest of decodedSets.keys()) {
    if (decodedSets.size <= DECODED_SETS_MAX && decodedSetsChars <= DECODED_SETS_CHARS) break;
    decodedSets.delete(oldest);
    decodedSetsChars -= oldest.length;
  }
}

// Encodings whose text is already remembered: the next write sends this very content back.
const rememberedEncodings = new WeakSet<JsonObject>();

/** toFieldsV1, with the encoding's text remembered as decoding to `set`, so the next write's decode is a look-up. */
function encodedSet(set: FieldSet): JsonObject {
  const encoded = toFieldsV1(set);
  if (!rememberedEncodings.has(encoded)) {
    rememberedEncodings.add(encoded);
    const text = JSON.stringify(encoded);
    if (!decodedSets.has(text)) remember(text, set);
  }
  return encoded;
}

function decodeEntries(value: JsonValue[]): Result<Managed, string> {
  const managed = emptyManaged();
  for (const [i, entry] of value.entries()) {
    if (!isJsonObject(entry)) return err(`managed fields entry ${i} is not an object`);
    const operation = textAt(entry, 'operation');
    if (operation !== 'Apply' && operation !== 'Update') return err('operation must be `Apply` or `Update`');
    const apiVersion = textAt(entry, 'apiVersion');
    if (apiVersion === '') return err('apiVersion must not be empty');
    const fieldsType = textAt(entry, 'fieldsType');
    if (fieldsType === '') return err(`missing fieldsType in managed fields entry ${i}`);
    if (fieldsType !== 'FieldsV1')
      return err(`invalid fieldsType ${JSON.stringify(fieldsType)} in managed fields entry ${i}`);
    const set = decodedSet(entry['fieldsV1'] ?? undefined);
    if (!set.ok) return err(`error decoding versioned set: error decoding set: ${set.error}`);
    const id = managerIdentifier({
      manager: textAt(entry, 'manager'),
      operation,
      apiVersion,
      subresource: textAt(entry, 'subresource'),
    });
    managed.fields.set(id, { set: set.value, apiVersion, applied: operation === 'Apply' });
    const time = textAt(entry, 'time');
    if (time !== '') managed.times.set(id, time);
    else managed.times.delete(id);
  }
  return ok(managed);
}

/**
 * A request's managedFields that mean "reset" (isResetManagedFields): an empty list, or a list of one
 * entry with nothing set.
 */
export function isResetManagedFields(value: JsonValue | undefined): boolean {
  if (!Array.isArray(value)) return false;
  if (value.length === 0) return true;
  const only = value[0];
  return (
    value.length === 1 &&
    isJsonObject(only) &&
    Object.entries(only).every(([key, v]) => v === null || (v === '' && key !== 'fieldsV1'))
  );
}

function seconds(time: string | undefined): number {
  if (time === undefined) return 0;
  const ms = Date.parse(time);
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function textOf(entry: JsonObject, key: string): string {
  const value = entry[key];
  return typeof value === 'string' ? value : '';
}

/** sortEncodedManagedFields: Apply before Update, then by time in whole seconds, manager, apiVersion, subresource. */
export function sortEncodedManagedFields(entries: JsonObject[]): JsonObject[] {
  const key = (e: JsonObject, k: string) => textOf(e, k);
  return [...entries].sort(
    (p, q) =>
      compareText(key(p, 'operation'), key(q, 'operation')) ||
      seconds(p['time'] === undefined ? undefined : key(p, 'time')) -
        seconds(q['time'] === undefined ? undefined : key(q, 'time')) ||
      compareText(key(p, 'manager'), key(q, 'manager')) ||
      compareText(key(p, 'apiVersion'), key(q, 'apiVersion')) ||
      compareText(key(p, 'subresource'), key(q, 'subresource')),
  );
}

/** Encodes field sets back into managedFields (encodeManagedFields), sorted as sortEncodedManagedFields does. */
export function encodeManagedFields(managed: Managed): JsonObject[] | undefined {
  if (managed.fields.size === 0) return undefined;
  const entries = [...managed.fields].map(([id, versioned]) => {
    const info = parseIdentifier(id);
    // ManagedFieldsEntry's JSON: every field omitempty, in the struct's order.
    const out: JsonObject = {};
    if (info.manager !== '') out['manager'] = info.manager;
    out['operation'] = versioned.applied ? 'Apply' : info.operation;
    out['apiVersion'] = versioned.apiVersion;
    const time = managed.times.get(id);
    if (time !== undefined) out['time'] = time;
    out['fieldsType'] = 'FieldsV1';
    out['fieldsV1'] = encodedSet(versioned.set);
    if (info.subresource !== undefined) out['subresource'] = info.subresource;
    return out;
  });
  return sortEncodedManagedFields(entries);
}
