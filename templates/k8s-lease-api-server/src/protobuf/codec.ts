// The Kubernetes protobuf encoder this server plugs into response negotiation (http/protobuf-hook.ts):
// which encoder of objects.ts answers for an object by its kind and apiVersion — Lease, LeaseCandidate
// (per version) and Namespace with their lists, the unversioned v1 Status, and meta.k8s.io's
// PartialObjectMetadata(List) — and the length-prefixed WatchEvent frames of a protobuf watch.
import type { JsonObject, JsonValue } from '../json.js';
import { isJsonObject, objectAt } from '../json.js';
import type { ObjectType, ProtobufCodec } from '../http/protobuf-hook.js';
import type { MetaVersion } from './objects.js';
import {
  encodeObject,
  encodeObjectList,
  encodePartialObjectMetadata,
  encodePartialObjectMetadataList,
  encodeStatus,
} from './objects.js';
import { watchFrame } from './encode.js';
import { messagesOf } from './schema.js';

function metaVersion(apiVersion: string): MetaVersion | undefined {
  if (apiVersion === 'meta.k8s.io/v1') return 'v1';
  if (apiVersion === 'meta.k8s.io/v1beta1') return 'v1beta1';
  return undefined;
}

/** A list's items (Go's nil slice, "items":null, is an empty list). */
function itemsOf(value: JsonValue | undefined): JsonObject[] {
  return Array.isArray(value) ? value.filter(isJsonObject) : [];
}

function encode(object: JsonObject, type: ObjectType): Buffer | undefined {
  const { kind, apiVersion } = type;
  if (kind === 'Status' && apiVersion === 'v1') return encodeStatus(object);
  const meta = metaVersion(apiVersion);
  if (meta !== undefined && kind === 'PartialObjectMetadata') return encodePartialObjectMetadata(object, meta);
  if (meta !== undefined && kind === 'PartialObjectMetadataList')
    return encodePartialObjectMetadataList(itemsOf(object['items']), objectAt(object, 'metadata') ?? {}, meta);
  if (messagesOf(apiVersion, kind) !== undefined) return encodeObject(object, type);
  const itemKind = kind.endsWith('List') ? kind.slice(0, -'List'.length) : undefined;
  if (itemKind !== undefined && messagesOf(apiVersion, itemKind) !== undefined)
    return encodeObjectList(itemsOf(object['items']), objectAt(object, 'metadata') ?? {}, {
      apiVersion,
      kind: itemKind,
    });
  return undefined;
}

function typeOf(object: JsonObject, type: ObjectType | undefined): ObjectType | undefined {
  if (type !== undefined) return type;
  const { kind, apiVersion } = object;
  return typeof kind === 'string' && typeof apiVersion === 'string' ? { kind, apiVersion } : undefined;
}

export const kubernetesProtobufCodec: ProtobufCodec = {
  encodeObject(object, type) {
    const known = typeOf(object, type);
    return known === undefined ? undefined : encode(object, known);
  },
  encodeWatchEvent(eventType, object, type) {
    const known = typeOf(object, type);
    const encoded = known === undefined ? undefined : encode(object, known);
    return encoded === undefined ? undefined : watchFrame(eventType, encoded);
  },
};
