// The typed objects the server answers with in protobuf: which message encodes which kind, and the TypeMeta
// the envelope carries (the served group version and kind; Status is the unversioned v1 Status;
// PartialObjectMetadata(List) is meta.k8s.io's).
import type { JsonObject } from '../json.js';
import type { MessageName } from './schema.js';
import { messagesOf as schemaMessagesOf } from './schema.js';
import type { TypeMeta } from './encode.js';
import { encodeCached, encodeList, encodeMessage, envelope } from './encode.js';

function messagesOf(typeMeta: TypeMeta): { item: MessageName; list: MessageName } {
  const found = schemaMessagesOf(typeMeta.apiVersion, typeMeta.kind);
  if (found === undefined) throw new Error(`no protobuf message for kind ${typeMeta.kind}`);
  return found;
}

/** A stored object, enveloped with its kind and the group version it is served in. */
export function encodeObject(obj: JsonObject, typeMeta: TypeMeta): Buffer {
  return envelope(typeMeta, encodeCached(messagesOf(typeMeta).item, obj));
}

/** A list: listKind in the resource's group version, ListMeta (resourceVersion, continue, remainingItemCount). */
export function encodeObjectList(items: readonly JsonObject[], listMeta: JsonObject, typeMeta: TypeMeta): Buffer {
  const { item } = messagesOf(typeMeta);
  return envelope({ apiVersion: typeMeta.apiVersion, kind: `${typeMeta.kind}List` }, encodeList(item, listMeta, items));
}

/** A meta.v1 Status (the JSON form statusObject renders), as kube-apiserver encodes errors for protobuf clients. */
export function encodeStatus(status: JsonObject): Buffer {
  return envelope({ apiVersion: 'v1', kind: 'Status' }, encodeMessage('Status', status));
}

export type MetaVersion = 'v1' | 'v1beta1';

/** as=PartialObjectMetadata;g=meta.k8s.io;v=…: the object's metadata only. */
export function encodePartialObjectMetadata(obj: JsonObject, version: MetaVersion): Buffer {
  return envelope(
    { apiVersion: `meta.k8s.io/${version}`, kind: 'PartialObjectMetadata' },
    encodeMessage('PartialObjectMetadata', { metadata: obj['metadata'] ?? {} }),
  );
}

/** as=PartialObjectMetadataList;g=meta.k8s.io;v=…: the list's metadata and each item's. */
export function encodePartialObjectMetadataList(
  items: readonly JsonObject[],
  listMeta: JsonObject,
  version: MetaVersion,
): Buffer {
  return envelope(
    { apiVersion: `meta.k8s.io/${version}`, kind: 'PartialObjectMetadataList' },
    encodeList(
      'PartialObjectMetadata',
      listMeta,
      items.map((obj) => ({ metadata: obj['metadata'] ?? {} })),
    ),
  );
}
