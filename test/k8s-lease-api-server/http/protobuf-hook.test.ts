// The protobuf encoder's registration: one per process, replaced or removed by setProtobufCodec; response
// negotiation offers application/vnd.kubernetes.protobuf only while one is registered (http/negotiation.test.ts).
import { describe, expect, it } from 'vitest';
import {
  type ProtobufCodec,
  protobufCodec,
  setProtobufCodec,
} from '../../../templates/k8s-lease-api-server/src/http/protobuf-hook.js';

const codec = (tag: number): ProtobufCodec => ({
  encodeObject: () => Uint8Array.of(tag),
  encodeWatchEvent: () => undefined,
});

describe('setProtobufCodec', () => {
  it('registers, replaces and removes the encoder', () => {
    const first = codec(1);
    const second = codec(2);
    setProtobufCodec(first);
    expect(protobufCodec()).toBe(first);
    setProtobufCodec(second);
    expect(protobufCodec()?.encodeObject({})).toEqual(Uint8Array.of(2));
    setProtobufCodec(undefined);
    expect(protobufCodec()).toBeUndefined();
  });
});
