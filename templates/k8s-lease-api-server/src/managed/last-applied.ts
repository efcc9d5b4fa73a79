// kubectl's last-applied-configuration annotation and server-side apply (apimachinery
// managedfields/internal/lastappliedmanager.go, lastappliedupdater.go, lastapplied.go): when kubectl
// moves an object from client-side to server-side apply, conflicts on fields whose last-applied value
// is still the live one are not conflicts, and the annotation follows each server-side apply.
// Kubernetes behaviour, re-implemented.
import type { JsonObject, JsonValue } from '../json.js';
import { isJsonObject, setOwn } from '../json.js';
import type { FieldSet } from './field-set.js';
import { difference } from './field-set.js';
import { compareValues, toFieldSet } from './typed-value.js';
import type { UpdaterSchema } from './updater.js';

export const KUBECTL = 'kubectl';
export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
/** apimachinery/pkg/api/validation TotalAnnotationSizeLimitB. */
const ANNOTATIONS_SIZE_LIMIT = 256 * 1024;

function annotationsOf(obj: JsonObject): JsonObject | undefined {
  const meta = obj['metadata'];
  const annotations = isJsonObject(meta) ? meta['annotations'] : undefined;
  return isJsonObject(annotations) ? annotations : undefined;
}

function lastAppliedOf(obj: JsonObject): string | undefined {
  const value = annotationsOf(obj)?.[LAST_APPLIED];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The fields the last-applied configuration sets to exactly their live values (allowedConflictsFromLastApplied). */
export function allowedConflictsFromLastApplied(
  schema: UpdaterSchema,
  groupVersion: string,
  live: JsonObject,
): FieldSet | undefined {
  const text = lastAppliedOf(live);
  if (text === undefined) return undefined;
  let parsed: JsonValue;
  try {
    parsed = JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
  if (!isJsonObject(parsed) || parsed['apiVersion'] !== groupVersion) return undefined;
  const { apiVersion: _a, kind: _k, ...lastApplied } = parsed;
  const cmp = compareValues(lastApplied, live, schema.type);
  const set = toFieldSet(lastApplied, schema.type);
  return difference(difference(difference(set, cmp.modified), cmp.added), cmp.removed);
}

function sortedKeys(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (!isJsonObject(value)) return value;
  const out: JsonObject = {};
  for (const key of Object.keys(value).sort()) setOwn(out, key, sortedKeys(value[key] ?? null));
  return out;
}

/** JSON as Go's encoding/json Encoder writes a map: keys sorted, HTML characters escaped, a newline. */
function goJson(value: JsonValue): string {
  const text = JSON.stringify(sortedKeys(value))
    .replaceAll('<', '\\u003c')
    .replaceAll('>', '\\u003e')
    .replaceAll('&', '\\u0026')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029');
  return `${text}\n`;
}

/** buildLastApplied: the applied configuration without its own last-applied annotation. */
function buildLastApplied(raw: JsonObject): string {
  const meta = raw['metadata'];
  if (!isJsonObject(meta) || !isJsonObject(meta['annotations'])) return goJson(raw);
  const { [LAST_APPLIED]: _own, ...annotations } = meta['annotations'];
  return goJson({ ...raw, metadata: { ...meta, annotations } });
}

function annotationsSize(annotations: JsonObject): number {
  let size = 0;
  for (const [key, value] of Object.entries(annotations))
    size += key.length + (typeof value === 'string' ? Buffer.byteLength(value) : 0);
  return size;
}

/** The object with its last-applied annotation set to `raw`, when it has one (lastAppliedUpdater, SetLastApplied). */
export function withLastApplied(obj: JsonObject, raw: JsonObject): JsonObject {
  const current = annotationsOf(obj);
  if (current === undefined || lastAppliedOf(obj) === undefined) return obj;
  const annotations: JsonObject = { ...current, [LAST_APPLIED]: buildLastApplied(raw) };
  // An annotation that would overflow the size limit is dropped instead (ValidateAnnotationsSize).
  if (annotationsSize(annotations) > ANNOTATIONS_SIZE_LIMIT) delete annotations[LAST_APPLIED];
  const meta = isJsonObject(obj['metadata']) ? obj['metadata'] : {};
  return { ...obj, metadata: { ...meta, annotations } };
}
