// Checks that tie a request body to the URL it was sent to, and the preconditions a write carries,
// with kube-apiserver's codes and messages (hand-written: the wording is what clients observe).
import type { JsonObject } from '../json.js';
import { objectAt, stringAt } from '../json.js';
import type { ResourceInfo } from '../lease-meta.js';
import { GROUP, LEASE_RESOURCE } from '../lease-meta.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { StatusError, StatusResource } from '../status.js';
import { badRequest, conflict, staleResourceVersion } from '../status.js';

export function metadataOf(obj: JsonObject): JsonObject {
  return objectAt(obj, 'metadata') ?? {};
}

export function finalizersOf(obj: JsonObject): string[] {
  const value = metadataOf(obj)['finalizers'];
  return Array.isArray(value) ? value.filter((f): f is string => typeof f === 'string') : [];
}

/**
 * Sets the namespace from the URL, rejecting a body that names another; for PUT/PATCH also the name.
 * The order is UpdateResource's: rest.EnsureObjectNamespaceMatchesRequestNamespace, then checkName
 * (endpoints/handlers/rest.go), both before the store is consulted, so a mismatch is 400, never 404.
 */
export function bindToRequest(
  obj: JsonObject,
  namespace: string,
  urlName: string | undefined,
): Result<JsonObject, StatusError> {
  const metadata = metadataOf(obj);
  const bodyNamespace = stringAt(metadata, 'namespace') ?? '';
  if (bodyNamespace !== '' && bodyNamespace !== namespace) {
    return err(badRequest('the namespace of the provided object does not match the namespace sent on the request'));
  }
  if (urlName !== undefined) {
    const bodyName = stringAt(metadata, 'name') ?? '';
    if (bodyName !== urlName)
      return err(badRequest(`the name of the object (${bodyName}) does not match the name on the URL (${urlName})`));
  }
  return ok({ ...obj, metadata: { ...metadata, namespace } });
}

export interface Preconditions {
  uid?: string | undefined;
  resourceVersion?: string | undefined;
}

/** The etcd key kube-apiserver stores an object under (storage prefix /registry, resource prefix = plural). */
export function etcdKey(resource: Pick<ResourceInfo, 'plural'>, namespace: string, name: string): string {
  return `/registry/${resource.plural}/${namespace}/${name}`;
}

/**
 * storage.Preconditions.Check failing inside GuaranteedUpdate/Delete: a StorageError (ErrCodeInvalidObj)
 * that storeerr.InterpretUpdateError/InterpretDeleteError turn into a Conflict quoting its Error().
 */
export function storagePreconditionFailed(
  resource: ResourceInfo,
  namespace: string,
  name: string,
  detail: string,
): StatusError {
  const storageError = `StorageError: invalid object, Code: 4, Key: ${etcdKey(resource, namespace, name)}, ResourceVersion: 0, AdditionalErrorMsg: ${detail}`;
  return conflict(name, storageError, resource);
}

/** storage.Preconditions.Check (k8s.io/apiserver/pkg/storage/interfaces.go): uid first, then resourceVersion. */
export function checkStoragePreconditions(
  live: JsonObject | undefined,
  pre: Preconditions,
  resource: ResourceInfo,
  namespace: string,
  name: string,
): Result<void, StatusError> {
  const meta = live === undefined ? {} : metadataOf(live);
  const uid = stringAt(meta, 'uid') ?? '';
  const rv = stringAt(meta, 'resourceVersion') ?? '';
  if (pre.uid !== undefined && pre.uid !== uid) {
    const detail = `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${uid}`;
    return err(storagePreconditionFailed(resource, namespace, name, detail));
  }
  if (pre.resourceVersion !== undefined && pre.resourceVersion !== rv) {
    const detail = `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${rv}`;
    return err(storagePreconditionFailed(resource, namespace, name, detail));
  }
  return ok(undefined);
}

/**
 * The DeleteOptions preconditions as rest.BeforeDelete checks them, before anything is written: a
 * Conflict on GroupResource{Group, Resource: <Kind>}, so the message names `Lease.coordination.k8s.io`.
 */
export function checkDeletePreconditions(
  existing: JsonObject,
  name: string,
  pre: Preconditions,
  resource: Pick<ResourceInfo, 'kind'>,
): Result<void, StatusError> {
  const meta = metadataOf(existing);
  const uid = stringAt(meta, 'uid') ?? '';
  const rv = stringAt(meta, 'resourceVersion') ?? '';
  const byKind: StatusResource = { plural: resource.kind, qualifiedResource: `${resource.kind}.${GROUP}` };
  if (pre.uid !== undefined && pre.uid !== uid) {
    const why = `the UID in the precondition (${pre.uid}) does not match the UID in record (${uid}). The object might have been deleted and then recreated`;
    return err(conflict(name, why, byKind));
  }
  if (pre.resourceVersion !== undefined && pre.resourceVersion !== rv) {
    const why = `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${rv}). The object might have been modified`;
    return err(conflict(name, why, byKind));
  }
  return ok(undefined);
}

/**
 * Where an update's uid is checked. A PUT's body is the UpdatedObjectInfo's object, whose uid
 * (rest.defaultUpdatedObjectInfo.Preconditions) is a storage precondition: a 409. A patch or apply builds
 * its UpdatedObjectInfo from nil (handlers/patch.go patchResource), so it has none; a uid it changes reaches
 * validation instead (rest.BeforeUpdate, ValidateObjectMetaAccessorUpdate): a 422 "field is immutable".
 */
export type UidCheck = 'precondition' | 'validation';

/**
 * Optimistic concurrency of an update of an existing object (generic registry Store.Update): the uid of
 * a PUT's body is a storage precondition, checked first; then a resourceVersion in the body must be the
 * live one (an empty one is the caller's matter: see AllowUnconditionalUpdate in update.ts).
 */
export function checkUpdatePreconditions(
  incoming: JsonObject,
  existing: JsonObject,
  name: string,
  resource: ResourceInfo = LEASE_RESOURCE,
  uidCheck: UidCheck = 'precondition',
): Result<void, StatusError> {
  const inMeta = metadataOf(incoming);
  const uid = uidCheck === 'precondition' ? (stringAt(inMeta, 'uid') ?? '') : '';
  const namespace = stringAt(metadataOf(existing), 'namespace') ?? '';
  const pre = checkStoragePreconditions(existing, uid === '' ? {} : { uid }, resource, namespace, name);
  if (!pre.ok) return pre;
  const rv = stringAt(inMeta, 'resourceVersion') ?? '';
  if (rv !== '' && rv !== stringAt(metadataOf(existing), 'resourceVersion'))
    return err(staleResourceVersion(name, resource));
  return ok(undefined);
}
