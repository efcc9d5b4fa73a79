// Where a Kubernetes protobuf encoder plugs into response negotiation. kube-apiserver serves every
// built-in type in application/vnd.kubernetes.protobuf; this server offers that media type (for
// responses and for watches) only while an encoder is registered here. server.ts registers the one in
// protobuf/codec.ts when it is loaded; without one, a protobuf-only Accept is a 406 that still lists
// protobuf, as upstream's list does, and `protobuf, json` falls through to JSON.
import type { JsonObject } from '../json.js';

/** The kind and apiVersion of an object given without them. */
export interface ObjectType {
  apiVersion: string;
  kind: string;
}

export interface ProtobufCodec {
  /**
   * One response body (the "k8s\0" envelope around the object) for an object whose kind and
   * apiVersion are set — a Lease, a list, a PartialObjectMetadata(List) or a Status — or, with `type`,
   * for a stored object that lacks them; undefined when the encoder does not know that kind (the
   * caller then answers 406).
   */
  encodeObject(object: JsonObject, type?: ObjectType): Uint8Array | undefined;
  /**
   * One frame of an application/vnd.kubernetes.protobuf;stream=watch response for an event whose
   * object is given as to encodeObject; undefined when the encoder does not know its kind.
   */
  encodeWatchEvent(eventType: string, object: JsonObject, type?: ObjectType): Uint8Array | undefined;
}

let registered: ProtobufCodec | undefined;

/** Registers (or, with undefined, removes) the protobuf encoder for every server in this process. */
export function setProtobufCodec(codec: ProtobufCodec | undefined): void {
  registered = codec;
}

export function protobufCodec(): ProtobufCodec | undefined {
  return registered;
}
