// Protobuf request bodies turned into what the JSON path would have decoded, or into kube-apiserver's 400
// (endpoints/handlers rest.go transformDecodeError: "the object provided is unrecognized (must be of type Lease):
// <err> (<summarizeData>)" for an unreadable envelope, "<Kind> in version "v1" cannot be handled as a <Kind>:
// <err>" once the kind is known; delete.go quoting the error as it is), the envelope's TypeMeta defaulted from
// the endpoint (serializer/protobuf copyKindDefaults). Bodies are built with the test's own wire encoder.
import { describe, expect, it } from 'vitest';
import { LEASE_RESOURCE } from '../../../templates/k8s-lease-api-server/src/lease-meta.js';
import {
  decodeDeleteOptionsBody,
  decodeNamespaceProtobuf,
  decodeResourceBody,
} from '../../../templates/k8s-lease-api-server/src/protobuf/request-body.js';
import { concat, envelope, int, msg, str } from '../helpers/protobuf-wire.js';

const LEASE_RAW = concat(msg(1, str(1, 'a')), msg(2, str(1, 'h'), int(2, 15)));
const MAGIC = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);

function message(result: { ok: true } | { ok: false; error: { message: string } }): string {
  return result.ok ? 'decoded' : result.error.message;
}

describe('decodeResourceBody', () => {
  it('decodes a Lease with the envelope type meta first', () => {
    expect(decodeResourceBody(envelope('coordination.k8s.io/v1', 'Lease', LEASE_RAW), LEASE_RESOURCE)).toEqual({
      ok: true,
      value: {
        value: {
          apiVersion: 'coordination.k8s.io/v1',
          kind: 'Lease',
          metadata: { name: 'a' },
          spec: { holderIdentity: 'h', leaseDurationSeconds: 15 },
        },
        numbers: new Map(),
      },
    });
  });

  it('leaves the type meta out when the envelope has none, for the JSON path to default', () => {
    const decoded = decodeResourceBody(envelope('', '', LEASE_RAW), LEASE_RESOURCE);
    expect(decoded.ok && Object.keys(decoded.value.value)).toEqual(['metadata', 'spec']);
  });

  it('hands a foreign kind back as just its type meta', () => {
    expect(decodeResourceBody(envelope('v1', 'Pod', LEASE_RAW), LEASE_RESOURCE)).toEqual({
      ok: true,
      value: { value: { apiVersion: 'v1', kind: 'Pod' }, numbers: new Map() },
    });
  });

  it.each<[string, Uint8Array, string]>([
    [
      'an empty body',
      new Uint8Array(),
      'the object provided is unrecognized (must be of type Lease): empty data (<empty>)',
    ],
    ['the magic alone', MAGIC, 'the object provided is unrecognized (must be of type Lease): empty body (6b387300)'],
    [
      'a Lease whose spec is cut short',
      envelope('coordination.k8s.io/v1', 'Lease', concat(Uint8Array.of(0x12, 0x05), str(1, 'h'))),
      'Lease in version "v1" cannot be handled as a Lease: unexpected EOF',
    ],
  ])('answers %s with the 400 of transformDecodeError', (_what, body, text) => {
    expect(message(decodeResourceBody(body, LEASE_RESOURCE))).toBe(text);
  });
});

describe('decodeNamespaceProtobuf', () => {
  it('decodes a core/v1 Namespace and refuses another kind or version', () => {
    const ns = decodeNamespaceProtobuf(envelope('v1', 'Namespace', msg(1, str(1, 'team'))));
    expect(ns.ok && ns.value.value).toMatchObject({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } });
    expect(message(decodeNamespaceProtobuf(envelope('v1', 'Lease', new Uint8Array())))).toBe(
      'Lease in version "v1" cannot be handled as a Namespace: no kind "Lease" is registered for version "v1" in scheme "pkg/api/legacyscheme/scheme.go:30"',
    );
    expect(message(decodeNamespaceProtobuf(envelope('v2', 'Namespace', new Uint8Array())))).toBe(
      'the API version in the data (v2) does not match the expected API version (v1)',
    );
  });
});

describe('decodeDeleteOptionsBody', () => {
  it('decodes DeleteOptions in any group version, and refuses another kind as the meta-internal scheme does', () => {
    const options = decodeDeleteOptionsBody(envelope('coordination.k8s.io/v1', 'DeleteOptions', str(4, 'Orphan')));
    expect(options.ok && options.value.value).toEqual({ propagationPolicy: 'Orphan' });
    expect(message(decodeDeleteOptionsBody(envelope('', 'Lease', new Uint8Array())))).toBe(
      'no kind "Lease" is registered for version "meta.k8s.io/v1" in scheme "k8s.io/apimachinery/pkg/apis/meta/internalversion/scheme/register.go:27"',
    );
  });
});
