// Discovery and OpenAPI as kube-apiserver serves them: ETags and 304s, handler3's hash redirect and immutable
// caching, and the /openapi/v2 definitions kubectl explain reads.
import { expect } from 'vitest';
import type { ConformanceCase, ConformanceResponse } from '../case.js';

const AGGREGATED_V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const AGGREGATED_V2BETA1 = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';
const V2_PROTOBUF = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
/** strconv.Quote of fmt.Sprintf("%X", sha512.Sum512(...)). */
const QUOTED_SHA512 = /^"[0-9A-F]{128}"$/;
const GV_V1 = '/openapi/v3/apis/coordination.k8s.io/v1';
const CLE_1_33 = ['--release', '1.33', '--feature-gates', 'CoordinatedLeaderElection=true'];

const definitionsOf = (response: ConformanceResponse): string[] =>
  Object.keys(((response.json as { definitions?: object }).definitions ?? {}) as object);

export const cases: readonly ConformanceCase[] = [
  {
    name: 'aggregated /apis carries a quoted SHA-512 ETag, Vary: Accept and Cache-Control: public; If-None-Match with it is 304 without a body',
    source: 'k8s.io/apiserver/pkg/endpoints/discovery/aggregated/etag.go ServeHTTPWithETag, calculateETag',
    steps: [
      {
        method: 'GET',
        path: '/apis',
        headers: { Accept: AGGREGATED_V2 },
        expect: {
          status: 200,
          headers: { etag: QUOTED_SHA512, vary: 'Accept', 'cache-control': 'public' },
          json: { kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2' },
        },
      },
      {
        method: 'GET',
        path: '/apis',
        headers: { Accept: AGGREGATED_V2, 'If-None-Match': '{prev.etag}' },
        expect: { status: 304, headers: { etag: '{prev.etag}', vary: 'Accept' }, text: /^$/ },
      },
    ],
  },
  {
    name: 'aggregated /api in v2beta1 carries the same ETag as in v2 (one hash per document, told apart by Vary) and answers 304 to it',
    source: 'k8s.io/apiserver/pkg/endpoints/discovery/aggregated/handler.go fetchFromCache, writeDiscoveryResponse',
    steps: [
      { method: 'GET', path: '/api', headers: { Accept: AGGREGATED_V2 }, expect: { status: 200 } },
      {
        method: 'GET',
        path: '/api',
        headers: { Accept: AGGREGATED_V2BETA1 },
        expect: { status: 200, headers: { etag: '{prev.etag}' }, json: { apiVersion: 'apidiscovery.k8s.io/v2beta1' } },
      },
      {
        method: 'GET',
        path: '/api',
        headers: { Accept: AGGREGATED_V2BETA1, 'If-None-Match': '{prev.etag}' },
        expect: { status: 304 },
      },
    ],
  },
  {
    name: 'an If-None-Match that is not the current ETag gets the whole aggregated document',
    source: 'k8s.io/apiserver/pkg/endpoints/discovery/aggregated/etag.go ServeHTTPWithETag (exact comparison)',
    steps: [
      {
        method: 'GET',
        path: '/apis',
        headers: { Accept: AGGREGATED_V2, 'If-None-Match': '"0000"' },
        expect: { status: 200, json: { kind: 'APIGroupDiscoveryList' } },
      },
    ],
  },
  {
    name: 'legacy discovery documents carry no ETag',
    source:
      'k8s.io/apiserver/pkg/endpoints/discovery/root.go rootAPIsHandler.ServeHTTP (responsewriters.WriteObjectNegotiated)',
    steps: [
      {
        method: 'GET',
        path: '/apis',
        headers: { Accept: 'application/json' },
        expect: { status: 200, headers: { etag: null }, json: { kind: 'APIGroupList' } },
      },
    ],
  },
  {
    name: '/openapi/v2 serves the Lease definitions and paths with an ETag, and 304 to If-None-Match',
    source:
      'k8s.io/kube-openapi/pkg/handler/handler.go RegisterOpenAPIVersionedService (computeETag, http.ServeContent)',
    steps: [
      {
        method: 'GET',
        path: '/openapi/v2',
        headers: { Accept: 'application/json' },
        expect: {
          status: 200,
          headers: { etag: QUOTED_SHA512, vary: 'Accept', 'content-type': 'application/json' },
          json: {
            swagger: '2.0',
            paths: { '/apis/coordination.k8s.io/v1/namespaces/{namespace}/leases/{name}': {} },
            definitions: {
              'io.k8s.api.coordination.v1.Lease': {
                'x-kubernetes-group-version-kind': [{ group: 'coordination.k8s.io', kind: 'Lease', version: 'v1' }],
                properties: { spec: { $ref: '#/definitions/io.k8s.api.coordination.v1.LeaseSpec' } },
              },
              'io.k8s.api.coordination.v1.LeaseList': { required: ['items'] },
              'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': {},
              'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta': {},
            },
          },
          check: (response) => expect(definitionsOf(response).some((n) => n.includes('LeaseCandidate'))).toBe(false),
        },
      },
      {
        method: 'GET',
        path: '/openapi/v2',
        headers: { Accept: 'application/json', 'If-None-Match': '{prev.etag}' },
        expect: { status: 304, headers: { etag: '{prev.etag}' } },
      },
    ],
  },
  {
    name: "/openapi/v2 in gnostic protobuf (kubectl's '@' Accept) answers with the dotted type and the JSON's ETag",
    source:
      'k8s.io/kube-openapi/pkg/handler/handler.go RegisterOpenAPIVersionedService (protoCache re-uses the JSON etag)',
    steps: [
      { method: 'GET', path: '/openapi/v2', headers: { Accept: 'application/json' }, expect: { status: 200 } },
      {
        method: 'GET',
        path: '/openapi/v2',
        headers: { Accept: V2_PROTOBUF },
        expect: {
          status: 200,
          headers: {
            'content-type': 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf',
            etag: '{prev.etag}',
          },
          check: (response) => {
            const bytes = Buffer.from(response.bytes);
            expect(bytes.subarray(0, 5)).toEqual(Buffer.from([0x0a, 0x03, 0x32, 0x2e, 0x30]));
            expect(bytes.includes(Buffer.from('io.k8s.api.coordination.v1.LeaseSpec'))).toBe(true);
          },
        },
      },
    ],
  },
  {
    name: '/openapi/v2 answers 406 to an Accept it cannot serve',
    source: 'k8s.io/kube-openapi/pkg/handler/handler.go RegisterOpenAPIVersionedService (w.WriteHeader(406))',
    steps: [{ method: 'GET', path: '/openapi/v2', headers: { Accept: 'text/plain' }, expect: { status: 406 } }],
  },
  {
    name: 'with the CoordinatedLeaderElection gate /openapi/v2 also defines LeaseCandidate in its served versions',
    source:
      'k8s.io/kube-openapi/pkg/builder/openapi.go BuildOpenAPISpecFromRoutes (definitions of the registered routes)',
    serverArgs: CLE_1_33,
    steps: [
      {
        method: 'GET',
        path: '/openapi/v2',
        expect: {
          status: 200,
          json: {
            paths: { '/apis/coordination.k8s.io/v1beta1/namespaces/{namespace}/leasecandidates/{name}': {} },
            definitions: {
              'io.k8s.api.coordination.v1beta1.LeaseCandidate': {
                'x-kubernetes-group-version-kind': [
                  { group: 'coordination.k8s.io', kind: 'LeaseCandidate', version: 'v1beta1' },
                ],
              },
              'io.k8s.api.coordination.v1alpha2.LeaseCandidateSpec': {},
            },
          },
        },
      },
    ],
  },
  {
    name: "/openapi/v3 lists each group version's serverRelativeURL with the document's hash, and answers 304 to its own ETag",
    source:
      'k8s.io/kube-openapi/pkg/handler3/handler.go buildDiscoveryCacheLocked, constructServerRelativeURL, HandleDiscovery',
    steps: [
      {
        method: 'GET',
        path: '/openapi/v3',
        expect: {
          status: 200,
          headers: { etag: QUOTED_SHA512 },
          json: {
            paths: {
              'apis/coordination.k8s.io/v1': {
                serverRelativeURL: expect.stringMatching(
                  /^\/openapi\/v3\/apis\/coordination\.k8s\.io\/v1\?hash=[0-9A-F]{128}$/,
                ),
              },
            },
          },
        },
      },
      {
        method: 'GET',
        path: '/openapi/v3',
        headers: { 'If-None-Match': '{prev.etag}' },
        expect: { status: 304 },
      },
    ],
  },
  {
    name: "a group version asked for by a stale hash is a 301 to the current hash's URL",
    source: 'k8s.io/kube-openapi/pkg/handler3/handler.go HandleGroupVersion (http.Redirect(w, r, u, 301))',
    steps: [
      { method: 'GET', path: GV_V1, expect: { status: 200, headers: { etag: QUOTED_SHA512 } } },
      {
        method: 'GET',
        path: `${GV_V1}?hash=0123456789ABCDEF`,
        expect: {
          status: 301,
          headers: { location: `${GV_V1}?hash={prev.etag|unquoted}`, etag: '{prev.etag}' },
        },
      },
    ],
  },
  {
    name: 'a group version asked for by its current hash may be cached for good; without a hash it is revalidated by ETag',
    source:
      'k8s.io/kube-openapi/pkg/handler3/handler.go HandleGroupVersion (Cache-Control: public, immutable; Expires)',
    steps: [
      {
        method: 'GET',
        path: GV_V1,
        expect: { status: 200, headers: { 'cache-control': 'no-cache, private', expires: null, vary: 'Accept' } },
      },
      {
        method: 'GET',
        path: `${GV_V1}?hash={prev.etag|unquoted}`,
        expect: {
          status: 200,
          headers: {
            'cache-control': 'public, immutable',
            expires: /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} UTC$/,
            etag: QUOTED_SHA512,
          },
          json: { openapi: '3.0.0' },
        },
      },
      {
        method: 'GET',
        path: `${GV_V1}?hash={prev.etag|unquoted}`,
        headers: { 'If-None-Match': '{prev.etag}' },
        expect: { status: 304, headers: { 'cache-control': 'public, immutable' } },
      },
    ],
  },
];
