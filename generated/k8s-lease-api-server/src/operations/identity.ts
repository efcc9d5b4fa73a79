// Copied by lease-api-generator from templates/server/operations/identity.ts. DO NOT EDIT: edit that file and run `npm run generate`.
// Checks that tie a request body to the URL it was sent to, and the preconditions it carries.
import type { JsonObject } from '../json.js';
import { objectAt, stringAt } from '../json.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { StatusError, StatusResource } from '../status.js';
import { badRequest, conflict, staleResourceVersion } from '../status.js';

export function metadataOf(obj: JsonObject): JsonObject {
  return objectAt(obj, 'metadata') ?? {};
}

/** Sets the namespace from the URL, rejecting a body that names another; for PUT/PATCH also the name. */
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

/** The uid/resourceVersion preconditions of DeleteOptions, with the real server's messages. */
export function checkDeletePreconditions(
  existing: JsonObject,
  name: string,
  pre: Preconditions,
  resource?: StatusResource,
): Result<void, StatusError> {
  const meta = metadataOf(existing);
  const uid = stringAt(meta, 'uid') ?? '';
  const rv = stringAt(meta, 'resourceVersion') ?? '';
  if (pre.uid !== undefined && pre.uid !== uid) {
    return err(
      conflict(name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${uid}`, resource),
    );
  }
  if (pre.resourceVersion !== undefined && pre.resourceVersion !== rv) {
    return err(
      conflict(
        name,
        `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${rv}`,
        resource,
      ),
    );
  }
  return ok(undefined);
}

/** Optimistic concurrency for updates: a resourceVersion in the body must be the live one. */
export function checkUpdatePreconditions(
  incoming: JsonObject,
  existing: JsonObject,
  name: string,
  resource?: StatusResource,
): Result<void, StatusError> {
  const inMeta = metadataOf(incoming);
  const liveMeta = metadataOf(existing);
  const rv = stringAt(inMeta, 'resourceVersion') ?? '';
  if (rv !== '' && rv !== stringAt(liveMeta, 'resourceVersion')) return err(staleResourceVersion(name, resource));
  const uid = stringAt(inMeta, 'uid') ?? '';
  const liveUid = stringAt(liveMeta, 'uid') ?? '';
  if (uid !== '' && uid !== liveUid) {
    return err(
      conflict(name, `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${liveUid}`, resource),
    );
  }
  return ok(undefined);
}
