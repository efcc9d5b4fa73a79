// Copied by lease-api-generator from templates/server/protobuf/send.ts. DO NOT EDIT: edit that file and run `npm run generate`.
// Answering in protobuf when the request's Accept negotiates it: typed objects, lists and Status objects,
// including the PartialObjectMetadata(List) conversions and their 406s (k8s.io/apiserver/pkg/endpoints/
// handlers/response.go transformResponseObject, asPartialObjectMetadata, asPartialObjectMetadataList).
import type { ServerResponse } from 'node:http';
import type { JsonObject } from '../json.js';
import type { ResourceInfo } from '../lease-meta.js';
import { typedJson } from '../serialize.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { StatusError } from '../status.js';
import { notAcceptable } from '../status.js';
import { sendBytes, sendJsonText, sendStatus } from '../http/respond.js';
import type { TypeMeta } from './encode.js';
import type { ProtobufOutput } from './media.js';
import { PROTOBUF_CONTENT_TYPE, protobufOutput } from './media.js';
import {
  encodeObject,
  encodeObjectList,
  encodePartialObjectMetadata,
  encodePartialObjectMetadataList,
  encodeStatus,
} from './objects.js';

/** What a handler answers with, before it is encoded. */
export type Answer =
  | { kind: 'object'; obj: JsonObject; typeMeta: TypeMeta }
  | { kind: 'list'; items: readonly JsonObject[]; listMeta: JsonObject; typeMeta: TypeMeta }
  /** A Status that is the answer itself (a delete's Success), not an error. */
  | { kind: 'status'; status: JsonObject };

/** The Go type %T names in the 406 texts: the internal version of the stored kind. */
function goType(typeMeta: TypeMeta, list: boolean): string {
  const pkg = typeMeta.apiVersion.includes('/') ? typeMeta.apiVersion.split('/')[0]?.split('.')[0] : 'core';
  return `*${pkg}.${typeMeta.kind}${list ? 'List' : ''}`;
}

/** The protobuf bytes of an answer under the negotiated output, or the 406 a conversion refuses with. */
export function encodeAnswer(output: ProtobufOutput, answer: Answer): Result<Buffer, StatusError> {
  const convert = output.convert;
  switch (answer.kind) {
    case 'status':
      return ok(encodeStatus(answer.status));
    case 'object':
      if (convert?.kind === 'PartialObjectMetadataList')
        return err(
          notAcceptable(
            `you requested PartialObjectMetadataList, but the requested object is not a list (${goType(answer.typeMeta, false)})`,
          ),
        );
      return ok(
        convert === undefined
          ? encodeObject(answer.obj, answer.typeMeta)
          : encodePartialObjectMetadata(answer.obj, convert.version),
      );
    case 'list':
      if (convert?.kind === 'PartialObjectMetadata')
        return err(
          notAcceptable(
            `you requested PartialObjectMetadata, but the requested object is a list (${goType(answer.typeMeta, true)})`,
          ),
        );
      return ok(
        convert === undefined
          ? encodeObjectList(answer.items, answer.listMeta, answer.typeMeta)
          : encodePartialObjectMetadataList(answer.items, answer.listMeta, convert.version),
      );
  }
}

/**
 * Sends the answer in protobuf when the request's Accept negotiates protobuf and returns true; returns false
 * (sending nothing) when the caller's JSON/YAML path should answer.
 */
export function sendIfProtobuf(
  res: ServerResponse,
  code: number,
  answer: Answer,
  headers: Record<string, string | string[]> = {},
): boolean {
  const output = protobufOutput(res.req?.headers.accept);
  if (output === undefined) return false;
  const encoded = encodeAnswer(output, answer);
  if (encoded.ok) sendBytes(res, code, encoded.value, PROTOBUF_CONTENT_TYPE, headers);
  else sendStatus(res, encoded.error, headers);
  return true;
}

export function resourceTypeMeta(resource: ResourceInfo): TypeMeta {
  return { apiVersion: resource.groupVersion, kind: resource.kind };
}

/** A stored object of a served resource, in protobuf or as typed JSON, whichever Accept negotiates. */
export function sendObject(
  res: ServerResponse,
  code: number,
  obj: JsonObject,
  resource: ResourceInfo,
  headers: Record<string, string | string[]> = {},
): void {
  if (sendIfProtobuf(res, code, { kind: 'object', obj, typeMeta: resourceTypeMeta(resource) }, headers)) return;
  sendJsonText(res, code, typedJson(obj, resource), headers);
}
