// The stored shape of a Lease: Go's field order and omitempty rules, so output looks like the real server's.
import type { JsonObject, JsonValue } from './json.js';
import { isJsonObject, objectAt } from './json.js';

const META_ORDER = [
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
];
const SPEC_ORDER = [
  'holderIdentity',
  'leaseDurationSeconds',
  'acquireTime',
  'renewTime',
  'leaseTransitions',
  'strategy',
  'preferredHolder',
];
const OWNER_ORDER = ['apiVersion', 'kind', 'name', 'uid', 'controller', 'blockOwnerDeletion'];
const MANAGED_ORDER = ['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1', 'subresource'];

function isEmpty(value: JsonValue | undefined): boolean {
  if (value === undefined || value === null || value === '' || value === 0) return true;
  if (Array.isArray(value)) return value.length === 0;
  return isJsonObject(value) && Object.keys(value).length === 0;
}

function ordered(obj: JsonObject, order: string[], omitEmpty: (key: string, value: JsonValue) => boolean): JsonObject {
  const out: JsonObject = {};
  for (const key of order) {
    const value = obj[key];
    if (value !== undefined && !omitEmpty(key, value)) out[key] = value;
  }
  for (const [key, value] of Object.entries(obj)) {
    if (!order.includes(key) && !omitEmpty(key, value)) out[key] = value;
  }
  return out;
}

function orderList(value: JsonValue | undefined, order: string[]): JsonValue | undefined {
  if (!Array.isArray(value)) return value;
  return value.map((item) => (isJsonObject(item) ? ordered(item, order, (_k, v) => v === null) : item));
}

export function canonicalMetadata(metadata: JsonObject): JsonObject {
  const withLists: JsonObject = { ...metadata };
  const owners = orderList(metadata['ownerReferences'], OWNER_ORDER);
  if (owners !== undefined) withLists['ownerReferences'] = owners;
  const managed = orderList(metadata['managedFields'], MANAGED_ORDER);
  if (managed !== undefined) withLists['managedFields'] = managed;
  // creationTimestamp is a non-pointer struct in Go: it marshals as null rather than disappearing.
  // deletionGracePeriodSeconds is a *int64: a 0 (what Store.Delete's markAsDeleting sets) is kept.
  return ordered(
    withLists,
    META_ORDER,
    (key, value) =>
      key !== 'creationTimestamp' && !(key === 'deletionGracePeriodSeconds' && value === 0) && isEmpty(value),
  );
}

/** Returns the bare stored form (no kind/apiVersion): metadata then spec, always with a spec object. */
export function canonicalLease(obj: JsonObject): JsonObject {
  const rawMeta = objectAt(obj, 'metadata') ?? {};
  const metadata = canonicalMetadata(
    Object.hasOwn(rawMeta, 'creationTimestamp') ? rawMeta : { ...rawMeta, creationTimestamp: null },
  );
  const spec = ordered(objectAt(obj, 'spec') ?? {}, SPEC_ORDER, (_k, v) => v === null);
  const out: JsonObject = { metadata, spec };
  for (const [key, value] of Object.entries(obj)) {
    if (key !== 'metadata' && key !== 'spec' && key !== 'kind' && key !== 'apiVersion') out[key] = value;
  }
  return out;
}
