// The protobuf answers' envelopes, as runtime/serializer/protobuf Serializer.Encode writes them: the magic
// "k8s\0", then runtime.Unknown {typeMeta {apiVersion = 1, kind = 2} = 1, raw = 2, contentEncoding = 3,
// contentType = 4}; a list under <Kind>List, a Status as the unversioned v1 Status, PartialObjectMetadata(List)
// in meta.k8s.io. Read with the test's own wire decoder (test/k8s-lease-api-server/helpers/protobuf-wire.ts), not the server's.
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../templates/k8s-lease-api-server/src/json.js';
import {
  encodeObject,
  encodeObjectList,
  encodePartialObjectMetadata,
  encodePartialObjectMetadataList,
  encodeStatus,
} from '../../../templates/k8s-lease-api-server/src/protobuf/objects.js';
import { notFound, statusObject } from '../../../templates/k8s-lease-api-server/src/status.js';
import { num, openEnvelope, readStatus, sub, subs, text } from '../helpers/protobuf-wire.js';

const LEASE: JsonObject = {
  metadata: { name: 'a', namespace: 'default', resourceVersion: '7' },
  spec: { holderIdentity: 'h', leaseDurationSeconds: 15 },
};
const LEASE_TYPE = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' };

describe('encodeObject', () => {
  it('envelopes the Lease with its type meta, writing the four Unknown fields in order', () => {
    const opened = openEnvelope(encodeObject(LEASE, LEASE_TYPE));
    expect([opened.apiVersion, opened.kind]).toEqual(['coordination.k8s.io/v1', 'Lease']);
    expect(opened.order).toEqual([1, 2, 3, 4]);
    const meta = sub(opened.raw, 1) ?? new Uint8Array();
    const spec = sub(opened.raw, 2) ?? new Uint8Array();
    expect([text(meta, 1), text(meta, 3), text(meta, 6)]).toEqual(['a', 'default', '7']);
    expect([text(spec, 1), num(spec, 2)]).toEqual(['h', 15]);
  });

  it('refuses a kind it has no message for', () => {
    expect(() => encodeObject(LEASE, { apiVersion: 'apps/v1', kind: 'Deployment' })).toThrow(
      'no protobuf message for kind Deployment',
    );
  });
});

describe('encodeObjectList', () => {
  it('writes <Kind>List with the list metadata and each item', () => {
    const opened = openEnvelope(
      encodeObjectList(
        [LEASE, { ...LEASE, metadata: { name: 'b' } }],
        { resourceVersion: '9', continue: 'c' },
        LEASE_TYPE,
      ),
    );
    expect(opened.kind).toBe('LeaseList');
    const listMeta = sub(opened.raw, 1) ?? new Uint8Array();
    expect([text(listMeta, 2), text(listMeta, 3)]).toEqual(['9', 'c']);
    expect(subs(opened.raw, 2).map((item) => text(sub(item, 1) ?? new Uint8Array(), 1))).toEqual(['a', 'b']);
  });
});

describe('encodeStatus', () => {
  it('writes a failure Status as the unversioned v1 Status', () => {
    expect(readStatus(encodeStatus(statusObject(notFound('a'))))).toMatchObject({
      apiVersion: 'v1',
      kind: 'Status',
      status: 'Failure',
      message: 'leases.coordination.k8s.io "a" not found',
      reason: 'NotFound',
      code: 404,
    });
  });
});

describe('PartialObjectMetadata', () => {
  it('carries only the metadata, in meta.k8s.io of the version asked for', () => {
    const one = openEnvelope(encodePartialObjectMetadata(LEASE, 'v1beta1'));
    expect([one.apiVersion, one.kind]).toEqual(['meta.k8s.io/v1beta1', 'PartialObjectMetadata']);
    expect(text(sub(one.raw, 1) ?? new Uint8Array(), 1)).toBe('a');
    expect(sub(one.raw, 2)).toBeUndefined();
    const list = openEnvelope(encodePartialObjectMetadataList([LEASE], { resourceVersion: '9' }, 'v1'));
    expect([list.apiVersion, list.kind]).toEqual(['meta.k8s.io/v1', 'PartialObjectMetadataList']);
    expect(subs(list.raw, 2)).toHaveLength(1);
  });
});
