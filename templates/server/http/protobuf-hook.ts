// Where a Kubernetes protobuf encoder plugs into response negotiation. kube-apiserver serves every
// built-in type in application/vnd.kubernetes.protobuf; this server offers that media type only
// while an encoder is registered here (until then a protobuf-only Accept is a 406 that still lists
// protobuf, as upstream's list does, and `protobuf, json` falls through to JSON).
import type { JsonObject } from '../json.js';

export interface ProtobufCodec {
  /**
   * One response body (the "k8s\0" envelope around the object) for an object whose kind and
   * apiVersion are set — a Lease, a list, a PartialObjectMetadata(List) or a Status — or undefined
   * when the encoder does not know that kind (the caller then answers 406).
   */
  encodeObject(object: JsonObject): Uint8Array | undefined;
}

let registered: ProtobufCodec | undefined;

/** Registers (or, with undefined, removes) the protobuf encoder for every server in this process. */
export function setProtobufCodec(codec: ProtobufCodec | undefined): void {
  registered = codec;
}

export function protobufCodec(): ProtobufCodec | undefined {
  return registered;
}
