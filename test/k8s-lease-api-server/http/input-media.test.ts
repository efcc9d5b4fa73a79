// Which decoder reads a request body: negotiate.go NegotiateInputSerializerForMediaType (an empty
// Content-Type is the first served type, JSON; parameters are ignored; case-insensitive via mime.ParseMediaType)
// and errors.go NewUnsupportedMediaTypeError's 415, listing JSON, YAML and protobuf in the codec factory's order.
import { describe, expect, it } from 'vitest';
import {
  type InputFormat,
  inputFormat,
  unknownFormat,
} from '../../../templates/k8s-lease-api-server/src/http/input-media.js';

describe('inputFormat', () => {
  it.each<[string | undefined, InputFormat | undefined]>([
    [undefined, 'json'],
    ['', 'json'],
    ['application/json', 'json'],
    ['application/json; charset=utf-8', 'json'],
    ['Application/JSON', 'json'],
    ['application/yaml', 'yaml'],
    ['application/vnd.kubernetes.protobuf', 'protobuf'],
    ['text/plain', undefined],
    ['application/merge-patch+json', undefined],
    ['application/*', undefined],
  ])('%j → %j', (header, format) => {
    expect(inputFormat(header)).toBe(format);
  });
});

describe('unknownFormat', () => {
  it('is a 415 UnsupportedMediaType naming the served media types in order', () => {
    expect(unknownFormat()).toEqual({
      code: 415,
      reason: 'UnsupportedMediaType',
      message:
        'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf',
    });
    expect(unknownFormat(['application/json']).message).toBe(
      'the body of the request was in an unknown format - accepted media types include: application/json',
    );
  });
});
