// Kubernetes protobuf (application/vnd.kubernetes.protobuf) as client-go ≥ 1.32 speaks it for Leases: bodies
// built byte for byte as its typed client marshals them (test/k8s-lease-api-server/helpers/protobuf-wire.ts, independent of the
// server's schema), answers decoded with the same independent decoder. Protobuf bodies are sent as they are
// (no {ns} substitution), so they leave metadata.namespace empty and the URL names the namespace.
import { expect } from 'vitest';
import {
  bytes,
  concat,
  envelope,
  frames,
  int,
  msg,
  num,
  openEnvelope,
  readStatus,
  readTimestamp,
  str,
  sub,
  text,
  timestamp,
} from '../../helpers/protobuf-wire.js';
import type { ConformanceCase, ConformanceResponse } from '../case.js';

const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const LEASES = '/apis/coordination.k8s.io/v1/namespaces/{ns}/leases';
const EMPTY = new Uint8Array(0);
/** What client-go's typed clients send once they prefer protobuf (rest/request.go UseProtobufAsDefault). */
const CLIENT_GO = { 'Content-Type': PROTOBUF, Accept: `${PROTOBUF},application/json` };

/** gogo's ObjectMeta: name, then the value fields 2-8 written even when empty (8: the zero Time, empty). */
function objectMeta(name: string, resourceVersion = ''): Uint8Array {
  return concat(
    str(1, name),
    str(2, ''),
    str(3, ''),
    str(4, ''),
    str(5, ''),
    str(6, resourceVersion),
    int(7, 0),
    bytes(8, EMPTY),
  );
}

/** resourcelock LeaderElectionRecordToLeaseSpec: every pointer set except strategy and preferredHolder. */
function leaseLockBody(name: string, holder: string, resourceVersion = ''): Uint8Array {
  const spec = concat(
    str(1, holder),
    int(2, 15),
    timestamp(3, 1772359200, 123456000),
    timestamp(4, 1772359201, 654321000),
    int(5, 0),
  );
  return envelope('coordination.k8s.io/v1', 'Lease', concat(msg(1, objectMeta(name, resourceVersion)), msg(2, spec)));
}

const json = (name: string) => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name },
  spec: { holderIdentity: 'json-holder', leaseDurationSeconds: 15 },
});

function expectStatus(response: ConformanceResponse, expected: Record<string, unknown>): void {
  expect(response.headers.get('content-type')).toBe(PROTOBUF);
  expect(readStatus(response.bytes)).toMatchObject({ apiVersion: 'v1', kind: 'Status', ...expected });
}

export const cases: readonly ConformanceCase[] = [
  {
    name: "client-go LeaseLock's protobuf create answers 201 with the Lease in protobuf",
    source:
      'k8s.io/client-go/tools/leaderelection/resourcelock/leaselock.go Create; k8s.io/apiserver/pkg/endpoints/handlers/create.go createHandler; k8s.io/apimachinery/pkg/runtime/serializer/protobuf/protobuf.go Serializer.Encode',
    steps: [
      {
        method: 'POST',
        path: LEASES,
        headers: CLIENT_GO,
        body: leaseLockBody('lock', 'node-a'),
        expect: {
          status: 201,
          headers: { 'content-type': PROTOBUF },
          check: ({ bytes: body }) => {
            const opened = openEnvelope(body);
            expect([opened.apiVersion, opened.kind, opened.order]).toEqual([
              'coordination.k8s.io/v1',
              'Lease',
              [1, 2, 3, 4],
            ]);
            const meta = sub(opened.raw, 1) ?? EMPTY;
            expect(text(meta, 1)).toBe('lock');
            expect(text(meta, 3)).toMatch(/^conformance-\d+$/);
            expect(text(meta, 6)).toMatch(/^\d+$/);
            const spec = sub(opened.raw, 2) ?? EMPTY;
            expect([text(spec, 1), num(spec, 2), num(spec, 5)]).toEqual(['node-a', 15, 0]);
            expect(readTimestamp(sub(spec, 4))).toEqual({ seconds: 1772359201, nanos: 654321000 });
          },
        },
      },
      {
        method: 'GET',
        path: `${LEASES}/lock`,
        expect: {
          status: 200,
          json: {
            spec: { acquireTime: '2026-03-01T10:00:00.123456Z', renewTime: '2026-03-01T10:00:01.654321Z' },
          },
        },
      },
    ],
  },
  {
    name: 'a protobuf renewal with a stale resourceVersion is 409 Conflict, as a protobuf Status',
    source:
      'k8s.io/apiserver/pkg/endpoints/handlers/update.go UpdateResource; k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/writers.go ErrorNegotiated',
    steps: [
      { method: 'POST', path: LEASES, body: json('lock'), expect: { status: 201 } },
      {
        method: 'PUT',
        path: `${LEASES}/lock`,
        headers: CLIENT_GO,
        body: leaseLockBody('lock', 'node-b', '1'),
        expect: {
          status: 409,
          check: (response) =>
            expectStatus(response, {
              status: 'Failure',
              reason: 'Conflict',
              code: 409,
              message:
                'Operation cannot be fulfilled on leases.coordination.k8s.io "lock": the object has been modified; please apply your changes to the latest version and try again',
            }),
        },
      },
    ],
  },
  {
    name: 'a protobuf replace without resourceVersion is 422 (Leases allow no unconditional update), as a protobuf Status',
    source:
      'k8s.io/kubernetes/pkg/registry/coordination/lease/strategy.go AllowUnconditionalUpdate (false); k8s.io/apiserver/pkg/registry/rest/update.go BeforeUpdate; responsewriters/writers.go ErrorNegotiated',
    steps: [
      { method: 'POST', path: LEASES, body: json('lock'), expect: { status: 201 } },
      {
        method: 'PUT',
        path: `${LEASES}/lock`,
        headers: CLIENT_GO,
        body: leaseLockBody('lock', 'node-b'),
        expect: {
          status: 422,
          check: (response) =>
            expectStatus(response, {
              status: 'Failure',
              reason: 'Invalid',
              code: 422,
              message:
                'leases.coordination.k8s.io "lock" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update',
            }),
        },
      },
    ],
  },
  {
    name: "client-go's typed Delete sends DeleteOptions in protobuf; the answer is a Success Status in protobuf",
    source:
      'k8s.io/client-go/gentype/type.go Client.Delete (Body(&opts)); k8s.io/apiserver/pkg/endpoints/handlers/delete.go DeleteResource',
    steps: [
      { method: 'POST', path: LEASES, body: json('gone'), expect: { status: 201 } },
      {
        method: 'DELETE',
        path: `${LEASES}/gone`,
        headers: CLIENT_GO,
        // DeleteOptions{PropagationPolicy: Background, GracePeriodSeconds: 0} in the client's group version.
        body: envelope('coordination.k8s.io/v1', 'DeleteOptions', concat(int(1, 0), str(4, 'Background'))),
        expect: {
          status: 200,
          check: (response) => {
            expectStatus(response, { status: 'Success' });
            const details = readStatus(response.bytes).details ?? EMPTY;
            expect([text(details, 1), text(details, 2), text(details, 3)]).toEqual([
              'gone',
              'coordination.k8s.io',
              'leases',
            ]);
          },
        },
      },
      { method: 'GET', path: `${LEASES}/gone`, expect: { status: 404 } },
    ],
  },
  {
    name: 'a DeleteOptions body of another kind is 400 with the meta scheme’s not-registered error',
    source: 'k8s.io/apiserver/pkg/endpoints/handlers/delete.go DeleteResource (errors.NewBadRequest(err.Error()))',
    steps: [
      { method: 'POST', path: LEASES, body: json('kept'), expect: { status: 201 } },
      {
        method: 'DELETE',
        path: `${LEASES}/kept`,
        headers: { 'Content-Type': PROTOBUF },
        body: envelope('coordination.k8s.io/v1', 'Lease', EMPTY),
        expect: {
          status: 400,
          json: {
            reason: 'BadRequest',
            message:
              'no kind "Lease" is registered for version "coordination.k8s.io/v1" in scheme "k8s.io/apimachinery/pkg/apis/meta/internalversion/scheme/register.go:27"',
          },
        },
      },
      { method: 'GET', path: `${LEASES}/kept`, expect: { status: 200 } },
    ],
  },
  {
    name: 'a truncated protobuf body is 400 naming the expected type and showing the body in hex',
    source:
      'k8s.io/apiserver/pkg/endpoints/handlers/rest.go transformDecodeError and summarizeData; gogo generated Unmarshal (io.ErrUnexpectedEOF)',
    steps: [
      {
        method: 'POST',
        path: LEASES,
        headers: { 'Content-Type': PROTOBUF },
        body: Uint8Array.of(0x6b, 0x38, 0x73, 0x00, 0x0a, 0x80),
        expect: {
          status: 400,
          json: {
            kind: 'Status',
            reason: 'BadRequest',
            code: 400,
            message: 'the object provided is unrecognized (must be of type Lease): unexpected EOF (6b3873000a80)',
          },
        },
      },
    ],
  },
  {
    name: 'a Lease message gogo cannot read is 400 "Lease in version \\"v1\\" cannot be handled as a Lease"',
    source:
      'k8s.io/apiserver/pkg/endpoints/handlers/rest.go transformDecodeError; k8s.io/api/coordination/v1/generated.pb.go LeaseSpec.Unmarshal',
    steps: [
      {
        method: 'POST',
        path: LEASES,
        headers: { 'Content-Type': PROTOBUF },
        // leaseDurationSeconds (2) sent length-delimited.
        body: envelope('coordination.k8s.io/v1', 'Lease', msg(2, bytes(2, EMPTY))),
        expect: {
          status: 400,
          json: {
            message:
              'Lease in version "v1" cannot be handled as a Lease: proto: wrong wireType = 2 for field LeaseDurationSeconds',
          },
        },
      },
      {
        method: 'POST',
        path: LEASES,
        headers: { 'Content-Type': PROTOBUF },
        body: envelope('coordination.k8s.io/v1', 'Lease', Uint8Array.of(0x0c)),
        expect: {
          status: 400,
          json: {
            message:
              'Lease in version "v1" cannot be handled as a Lease: proto: Lease: wiretype end group for non-group',
          },
        },
      },
    ],
  },
  {
    name: 'a body in an unknown format is 415 listing JSON, YAML and protobuf',
    source:
      'k8s.io/apiserver/pkg/endpoints/handlers/negotiation/negotiate.go NegotiateInputSerializerForMediaType; errors.go errUnsupportedMediaType',
    steps: [
      {
        method: 'POST',
        path: LEASES,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'a=b',
        expect: {
          status: 415,
          json: {
            reason: 'UnsupportedMediaType',
            message:
              'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf',
          },
        },
      },
    ],
  },
  {
    name: 'a protobuf read of a missing Lease is a protobuf 404 Status',
    source:
      'k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/writers.go ErrorNegotiated; k8s.io/apimachinery/pkg/api/errors NewNotFound',
    steps: [
      {
        method: 'GET',
        path: `${LEASES}/missing`,
        headers: { Accept: `${PROTOBUF},application/json` },
        expect: {
          status: 404,
          check: (response) =>
            expectStatus(response, {
              status: 'Failure',
              reason: 'NotFound',
              code: 404,
              message: 'leases.coordination.k8s.io "missing" not found',
            }),
        },
      },
    ],
  },
  {
    name: 'a protobuf list is a LeaseList envelope whose ListMeta writes its value fields',
    source:
      'k8s.io/api/coordination/v1/generated.pb.go LeaseList.Marshal; k8s.io/apimachinery/pkg/apis/meta/v1/generated.pb.go ListMeta.Marshal',
    steps: [
      { method: 'POST', path: LEASES, body: json('a'), expect: { status: 201 } },
      { method: 'POST', path: LEASES, body: json('b'), expect: { status: 201 } },
      {
        method: 'GET',
        path: LEASES,
        headers: { Accept: PROTOBUF },
        expect: {
          status: 200,
          check: ({ bytes: body }) => {
            const opened = openEnvelope(body);
            expect([opened.apiVersion, opened.kind]).toEqual(['coordination.k8s.io/v1', 'LeaseList']);
            const listMeta = sub(opened.raw, 1) ?? EMPTY;
            expect(text(listMeta, 1)).toBe('');
            expect(text(listMeta, 2)).toMatch(/^\d+$/);
            expect(text(listMeta, 3)).toBe('');
          },
        },
      },
    ],
  },
  {
    name: 'a protobuf watch is length-prefixed WatchEvents (no envelope) holding enveloped Leases',
    source:
      'k8s.io/apiserver/pkg/endpoints/handlers/watch.go serveWatchHandler (";stream=watch"); response.go watchEncoder.doEncode; k8s.io/apimachinery/pkg/runtime/serializer/codec_factory.go (protobuf StreamSerializer is the raw serializer)',
    steps: [
      { method: 'POST', path: LEASES, body: json('w'), expect: { status: 201 } },
      {
        method: 'GET',
        path: `${LEASES}?watch=true&timeoutSeconds=1`,
        headers: { Accept: `${PROTOBUF},application/json` },
        expect: {
          status: 200,
          headers: { 'content-type': `${PROTOBUF};stream=watch` },
          check: ({ bytes: body }) => {
            const { frames: events, rest } = frames(body);
            expect(rest.length).toBe(0);
            expect(events.map((event) => text(event, 1))).toEqual(['ADDED']);
            const object = openEnvelope(sub(sub(events[0] ?? EMPTY, 2) ?? EMPTY, 1) ?? EMPTY);
            expect([object.apiVersion, object.kind]).toEqual(['coordination.k8s.io/v1', 'Lease']);
            expect(text(sub(object.raw, 1) ?? EMPTY, 1)).toBe('w');
          },
        },
      },
    ],
  },
  {
    name: "client-go's metadata watch gets protobuf PartialObjectMetadata frames, the initial-events-end bookmark included",
    source:
      'k8s.io/client-go/metadata/metadata.go Watch (its Accept); k8s.io/apiserver/pkg/endpoints/handlers/response.go watchEmbeddedEncoder.doEncode (doTransformObject per event); storage/cacher/cacher.go setInitialEventsEndBookmarkIfRequested',
    steps: [
      { method: 'POST', path: LEASES, body: json('m'), expect: { status: 201 } },
      {
        method: 'GET',
        path: `${LEASES}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=1`,
        headers: {
          Accept: `${PROTOBUF};as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json`,
        },
        expect: {
          status: 200,
          headers: { 'content-type': `${PROTOBUF};stream=watch` },
          check: ({ bytes: body }) => {
            const { frames: events } = frames(body);
            expect(events.slice(0, 2).map((event) => text(event, 1))).toEqual(['ADDED', 'BOOKMARK']);
            const objects = events.slice(0, 2).map((event) => openEnvelope(sub(sub(event, 2) ?? EMPTY, 1) ?? EMPTY));
            for (const object of objects)
              expect([object.apiVersion, object.kind, sub(object.raw, 2)]).toEqual([
                'meta.k8s.io/v1',
                'PartialObjectMetadata',
                undefined,
              ]);
            expect(text(sub(objects[0]?.raw ?? EMPTY, 1) ?? EMPTY, 1)).toBe('m');
            // ObjectMeta.annotations (12): the map entry k8s.io/initial-events-end=true.
            const annotation = sub(sub(objects[1]?.raw ?? EMPTY, 1) ?? EMPTY, 12) ?? EMPTY;
            expect([text(annotation, 1), text(annotation, 2)]).toEqual(['k8s.io/initial-events-end', 'true']);
          },
        },
      },
    ],
  },
];
