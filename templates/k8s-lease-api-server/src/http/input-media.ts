// Which decoder reads a request body, and the 415 for a Content-Type no decoder reads. Written from
// k8s.io/apiserver/pkg/endpoints/handlers/negotiation/negotiate.go NegotiateInputSerializerForMediaType and
// errors.go errUnsupportedMediaType: an empty Content-Type means the first served type (JSON); the 415 lists
// the served media types in the codec factory's order, which for every kind served here (and for the
// meta-internal codecs that decode DeleteOptions) is JSON, YAML, protobuf.
import type { StatusError } from '../status.js';
import { unsupportedMediaType } from '../status.js';
import { CONTENT_TYPES, contentType } from './negotiation.js';

export type InputFormat = 'json' | 'yaml' | 'protobuf';

export const INPUT_MEDIA_TYPES: readonly string[] = [CONTENT_TYPES.json, CONTENT_TYPES.yaml, CONTENT_TYPES.protobuf];

const FORMATS: Readonly<Record<string, InputFormat>> = {
  '': 'json',
  [CONTENT_TYPES.json]: 'json',
  [CONTENT_TYPES.yaml]: 'yaml',
  [CONTENT_TYPES.protobuf]: 'protobuf',
};

/** The body's format by its Content-Type header, or undefined for one the server does not read. */
export function inputFormat(header: string | undefined): InputFormat | undefined {
  return FORMATS[contentType(header)];
}

export function unknownFormat(accepted: readonly string[] = INPUT_MEDIA_TYPES): StatusError {
  return unsupportedMediaType(
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
  );
}
