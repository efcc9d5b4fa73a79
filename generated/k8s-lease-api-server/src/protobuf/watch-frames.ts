// Copied by lease-api-generator from templates/server/protobuf/watch-frames.ts. DO NOT EDIT: edit that file and run `npm run generate`.
// The frames of a protobuf watch: each event, bookmark and in-stream ERROR as a length-prefixed
// meta.v1.WatchEvent whose object is the enveloped object (or PartialObjectMetadata, or a Status), as
// k8s.io/apiserver/pkg/endpoints/handlers/response.go watchEncoder.doEncode writes them.
import type { JsonObject } from '../json.js';
import type { ResourceInfo } from '../lease-meta.js';
import type { StatusError } from '../status.js';
import { statusObject } from '../status.js';
import { watchFrame } from './encode.js';
import type { ProtobufOutput } from './media.js';
import { encodePartialObjectMetadata, encodeResourceObject, encodeStatus } from './objects.js';

export interface ProtobufWatchFrames {
  event(type: string, object: JsonObject): Buffer;
  bookmark(rv: number, annotations: JsonObject | undefined): Buffer;
  error(status: StatusError): Buffer;
}

export function protobufWatchFrames(resource: ResourceInfo, output: ProtobufOutput): ProtobufWatchFrames {
  const convert = output.convert;
  // A PartialObjectMetadataList conversion fails per event upstream, which then sends the object unconverted.
  const encode = (object: JsonObject): Buffer =>
    convert?.kind === 'PartialObjectMetadata'
      ? encodePartialObjectMetadata(object, convert.version)
      : encodeResourceObject(object, resource);
  return {
    event: (type, object) => watchFrame(type, encode(object)),
    bookmark: (rv, annotations) => {
      const metadata: JsonObject = { resourceVersion: String(rv) };
      if (annotations !== undefined) metadata['annotations'] = annotations;
      return watchFrame('BOOKMARK', encode({ metadata }));
    },
    error: (status) => watchFrame('ERROR', encodeStatus(statusObject(status))),
  };
}
