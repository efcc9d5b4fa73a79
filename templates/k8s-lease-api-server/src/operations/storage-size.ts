// etcd's request size limit as kube-apiserver users meet it. etcd refuses a write whose request exceeds
// --max-request-bytes (1.5 MiB by default) with the gRPC error "etcdserver: request is too large"
// (InvalidArgument). k8s.io/apiserver's storage/etcd3 store passes it through unconverted, so
// responsewriters.ErrorToAPIStatus answers 500 with an empty reason and the etcd text as message (no
// release maps it to 413 up to the newest read, July 2026). Create, update and non-apply patch first
// retry without managedFields (endpoints/handlers/rest.go isTooLargeError); apply does not.
//
// Hand-written approximation: etcd sees the protobuf encoding; the JSON encoding measured here is
// somewhat larger, so an object just under the limit in protobuf may already be refused here.
import type { JsonObject } from '../json.js';
import type { ResourceInfo } from '../lease-meta.js';
import { typedJson } from '../serialize.js';
import type { StatusError } from '../status.js';
import { metadataOf } from './identity.js';

/** etcd's default --max-request-bytes. */
export const ETCD_MAX_REQUEST_BYTES: number = 1.5 * 1024 * 1024;

export const REQUEST_TOO_LARGE: StatusError = {
  code: 500,
  reason: '',
  message: 'etcdserver: request is too large',
};

/** The bytes etcd would be asked to store for `obj` (approximated by its JSON encoding). */
export function storedSize(obj: JsonObject, resource: ResourceInfo): number {
  return Buffer.byteLength(typedJson(obj, resource), 'utf8');
}

export function fitsInEtcd(obj: JsonObject, resource: ResourceInfo): boolean {
  return storedSize(obj, resource) <= ETCD_MAX_REQUEST_BYTES;
}

export function withoutManagedFields(obj: JsonObject): JsonObject {
  const { managedFields: _managed, ...meta } = metadataOf(obj);
  return { ...obj, metadata: meta };
}

/**
 * What is stored for `next`: itself when it fits; without managedFields when only those make it too
 * large and the write may drop them; else the 500 etcd's refusal becomes.
 */
export function sizedForStorage(
  next: JsonObject,
  resource: ResourceInfo,
  mayDropManagedFields: boolean,
): { ok: true; value: JsonObject } | { ok: false; error: StatusError } {
  if (fitsInEtcd(next, resource)) return { ok: true, value: next };
  if (mayDropManagedFields) {
    const stripped = withoutManagedFields(next);
    if (fitsInEtcd(stripped, resource)) return { ok: true, value: stripped };
  }
  return { ok: false, error: REQUEST_TOO_LARGE };
}
