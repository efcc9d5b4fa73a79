// Watches: each event's object in the negotiated representation, the initial-events-end bookmark, the
// stream media types, and a watch from a resourceVersion the server has not reached.
import { expect } from 'vitest';
import { parse } from 'yaml';
import type { ConformanceCase, ConformanceStep } from '../case.js';

const LEASES = '/apis/coordination.k8s.io/v1/namespaces/{ns}/leases';
const WATCH_LIST = 'watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

const createLease = (name: string): ConformanceStep => ({
  method: 'POST',
  path: LEASES,
  body: { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name }, spec: { holderIdentity: name } },
  expect: { status: 201 },
});

/** A watch-list request read up to its first event and the initial-events-end bookmark. */
const watchListOfTwo: ConformanceStep = { method: 'GET', path: `${LEASES}?${WATCH_LIST}`, readEvents: 2 };

type Event = { type: string; object: Record<string, unknown> };
const events = (json: unknown): Event[] => json as Event[];

export const cases: readonly ConformanceCase[] = [
  {
    name: 'a JSON metadata informer watch gets PartialObjectMetadata events, then the initial-events-end BOOKMARK as PartialObjectMetadata',
    source:
      'k8s.io/apiserver/pkg/endpoints/handlers/response.go watchEmbeddedEncoder.doEncode (doTransformObject per event); storage/cacher/cacher.go setInitialEventsEndBookmarkIfRequested',
    steps: [
      createLease('a'),
      {
        method: 'GET',
        path: `${LEASES}?${WATCH_LIST}`,
        headers: {
          // client-go/metadata's Accept without its first, protobuf, clause (which is served in protobuf).
          Accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json',
        },
        readEvents: 2,
        expect: {
          status: 200,
          json: [
            {
              type: 'ADDED',
              object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'a' } },
            },
            {
              type: 'BOOKMARK',
              object: {
                kind: 'PartialObjectMetadata',
                apiVersion: 'meta.k8s.io/v1',
                metadata: { annotations: { 'k8s.io/initial-events-end': 'true' } },
              },
            },
          ],
          // A metadata informer decodes PartialObjectMetadata only: nothing but type and object meta.
          check: (r) => {
            for (const event of events(r.json))
              expect(Object.keys(event.object).sort()).toEqual(['apiVersion', 'kind', 'metadata']);
          },
        },
      },
    ],
  },
  {
    name: 'a Table watch sends column definitions in its first event only',
    source:
      'k8s.io/apiserver/pkg/endpoints/handlers/response.go watchEmbeddedEncoder.doEncode (tableOptions.NoHeaders after the first)',
    steps: [
      createLease('a'),
      createLease('b'),
      {
        method: 'GET',
        path: `${LEASES}?watch=true`,
        headers: { Accept: TABLE },
        readEvents: 2,
        expect: {
          status: 200,
          json: [
            { type: 'ADDED', object: { kind: 'Table', rows: [{ cells: ['a', 'a', expect.any(String)] }] } },
            {
              type: 'ADDED',
              object: { kind: 'Table', columnDefinitions: null, rows: [{ cells: ['b', 'b', expect.any(String)] }] },
            },
          ],
          check: (r) => expect(events(r.json)[0]?.object['columnDefinitions']).toHaveLength(3),
        },
      },
    ],
  },
  {
    name: 'a YAML watch is 406 listing the stream media types (written in YAML, as ErrorNegotiated negotiates it)',
    source:
      'k8s.io/apiserver/pkg/endpoints/handlers/negotiation/negotiate.go NegotiateOutputMediaTypeStream; watch.go serveWatchHandler',
    steps: [
      {
        method: 'GET',
        path: `${LEASES}?watch=true`,
        headers: { Accept: 'application/yaml' },
        expect: {
          status: 406,
          headers: { 'content-type': 'application/yaml' },
          check: (r) =>
            expect(parse(r.text)).toMatchObject({
              reason: 'NotAcceptable',
              message:
                'only the following media types are accepted: application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch',
            }),
        },
      },
    ],
  },
  {
    name: 'an invalid includeObject on a Table watch is 400',
    source: 'k8s.io/apiserver/pkg/endpoints/handlers/watch.go serveWatchHandler (optionsForTransform)',
    steps: [
      {
        method: 'GET',
        path: `${LEASES}?watch=true&includeObject=All`,
        headers: { Accept: TABLE },
        expect: {
          status: 400,
          json: {
            message:
              "Unable to convert to Table as requested: includeObject: Invalid value: \"All\": must be 'Metadata', 'Object', 'None', or empty",
          },
        },
      },
    ],
  },
  {
    name: 'a sendInitialEvents watch from a resourceVersion never reached gets one ERROR event: 504 Too large resource version',
    source:
      'k8s.io/apiserver/pkg/storage/cacher/cacher.go Watch (waitUntilWatchCacheFreshAndForceAllEvents → newErrWatcher); watch_cache.go waitUntilFreshLocked; storage/errors.go NewTooLargeResourceVersionError',
    steps: [
      {
        method: 'GET',
        path: `${LEASES}?${WATCH_LIST}&resourceVersion=999999999`,
        readEvents: 2,
        expect: {
          status: 200,
          json: [
            {
              type: 'ERROR',
              object: {
                kind: 'Status',
                status: 'Failure',
                reason: 'Timeout',
                code: 504,
                message: expect.stringMatching(/^Timeout: Too large resource version: 999999999, current: \d+$/),
                details: {
                  causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
                  retryAfterSeconds: 1,
                },
              },
            },
          ],
          check: (r) => expect(events(r.json)).toHaveLength(1),
        },
      },
    ],
  },
  {
    name: 'a watch from no resourceVersion with bookmarks is a watch-list: its initial events end with the annotated BOOKMARK',
    source:
      'k8s.io/apimachinery/pkg/apis/meta/internalversion/defaults.go SetListOptionsDefaults (WatchList on by default from 1.34); apiserver endpoints/handlers/get.go listOpts',
    steps: [
      createLease('a'),
      {
        method: 'GET',
        path: `${LEASES}?watch=true&allowWatchBookmarks=true`,
        readEvents: 2,
        expect: {
          status: 200,
          json: [
            { type: 'ADDED', object: { metadata: { name: 'a' } } },
            { type: 'BOOKMARK', object: { metadata: { annotations: { 'k8s.io/initial-events-end': 'true' } } } },
          ],
        },
      },
    ],
  },
  {
    name: 'sendInitialEvents without resourceVersionMatch=NotOlderThan is 422',
    source: 'k8s.io/apimachinery/pkg/apis/meta/internalversion/validation/validation.go validateWatchOptions',
    steps: [
      {
        method: 'GET',
        path: `${LEASES}?watch=true&sendInitialEvents=true&allowWatchBookmarks=true`,
        expect: {
          status: 422,
          json: {
            reason: 'Invalid',
            message:
              'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
          },
        },
      },
    ],
  },
  {
    name: 'sendInitialEvents without allowWatchBookmarks is valid: the initial events, no end bookmark',
    source:
      'k8s.io/apimachinery/pkg/apis/meta/internalversion/validation/validation_test.go "watch-sendInitialEvents-no-allowWatchBookmark"; cacher.go setInitialEventsEndBookmarkIfRequested',
    steps: [
      createLease('a'),
      {
        method: 'GET',
        path: `${LEASES}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&timeoutSeconds=1`,
        readEvents: 2,
        expect: {
          status: 200,
          json: [{ type: 'ADDED', object: { kind: 'Lease', metadata: { name: 'a' } } }],
          check: (r) => expect(events(r.json)).toHaveLength(1),
        },
      },
    ],
  },
  {
    name: "a 1.33 watch's BOOKMARK carries an empty Lease: spec {} and creationTimestamp null",
    source:
      'k8s.io/apiserver/pkg/storage/cacher/cacher.go dispatchEvents (bookmark object from newFunc, only its resourceVersion set); apimachinery meta/v1 types.go ObjectMeta.CreationTimestamp (omitempty, Time marshals zero as null)',
    // 1.33's WatchList gate is off by default; on, so that the watch-list request is served.
    serverArgs: ['--release', '1.33', '--feature-gates', 'WatchList=true'],
    steps: [
      createLease('a'),
      {
        ...watchListOfTwo,
        expect: {
          status: 200,
          check: (r) => {
            const bookmark = r.text.split('\n')[1] ?? '';
            expect(bookmark).toMatch(
              /^\{"type":"BOOKMARK","object":\{"kind":"Lease","apiVersion":"coordination\.k8s\.io\/v1","metadata":\{"resourceVersion":"\d+","creationTimestamp":null,"annotations":\{"k8s\.io\/initial-events-end":"true"\}\},"spec":\{\}\}\}$/,
            );
          },
        },
      },
    ],
  },
  {
    name: "from 1.34 a watch's BOOKMARK has no creationTimestamp, still spec {}",
    source:
      'kubernetes/kubernetes#130989 (1.34: ObjectMeta.CreationTimestamp omitzero); storage/cacher/cacher.go dispatchEvents',
    steps: [
      createLease('a'),
      {
        ...watchListOfTwo,
        expect: {
          status: 200,
          json: [{ type: 'ADDED' }, { type: 'BOOKMARK', object: { kind: 'Lease', spec: {} } }],
          check: (r) => {
            const metadata = events(r.json)[1]?.object['metadata'];
            expect(Object.keys(metadata as object)).toEqual(['resourceVersion', 'annotations']);
          },
        },
      },
    ],
  },
];
