// Response negotiation: which representation kube-apiserver answers in for an Accept header, the
// transformations it applies (PartialObjectMetadata, Tables) and how it words refusals.
import { expect } from 'vitest';
import { parse } from 'yaml';
import type { ConformanceCase, ConformanceStep } from '../case.js';

const LEASES = '/apis/coordination.k8s.io/v1/namespaces/{ns}/leases';
const POM = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';
const POM_LIST = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const NOT_ACCEPTABLE = {
  kind: 'Status',
  status: 'Failure',
  reason: 'NotAcceptable',
  code: 406,
  message:
    'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf',
};

const createLease = (name: string): ConformanceStep => ({
  method: 'POST',
  path: LEASES,
  body: {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name, labels: { app: 'x' } },
    spec: { holderIdentity: 'alice', leaseDurationSeconds: 15 },
  },
  expect: { status: 201 },
});

const get = (path: string, accept: string, expect: ConformanceStep['expect']): ConformanceStep => ({
  method: 'GET',
  path,
  headers: { Accept: accept },
  expect,
});

export const cases: readonly ConformanceCase[] = [
  {
    name: 'a metadata-only GET gets a PartialObjectMetadata of the Lease: kind, apiVersion meta.k8s.io/v1, metadata, no spec',
    source: 'k8s.io/apiserver/pkg/endpoints/handlers/response.go asPartialObjectMetadata',
    steps: [
      createLease('a'),
      get(`${LEASES}/a`, POM, {
        status: 200,
        json: {
          kind: 'PartialObjectMetadata',
          apiVersion: 'meta.k8s.io/v1',
          metadata: { name: 'a', labels: { app: 'x' } },
        },
        check: (r) => expect(Object.keys(r.json as object).sort()).toEqual(['apiVersion', 'kind', 'metadata']),
      }),
    ],
  },
  {
    name: "client-go's metadata List Accept without its protobuf clause gets a JSON PartialObjectMetadataList whose items are PartialObjectMetadata",
    source:
      'k8s.io/apiserver/pkg/endpoints/handlers/response.go asPartialObjectMetadataList; k8s.io/client-go/metadata/metadata.go (its Accept)',
    steps: [
      createLease('a'),
      get(LEASES, 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json', {
        status: 200,
        headers: { 'content-type': 'application/json' },
        json: {
          kind: 'PartialObjectMetadataList',
          apiVersion: 'meta.k8s.io/v1',
          metadata: { resourceVersion: expect.any(String) },
          items: [{ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'a' } }],
        },
      }),
    ],
  },
  {
    name: 'PartialObjectMetadata v1beta1 is served too',
    source:
      'k8s.io/apiserver/pkg/endpoints/handlers/rest.go RequestScope.AllowsMediaTypeTransform (meta.k8s.io v1 and v1beta1)',
    steps: [
      createLease('a'),
      get(`${LEASES}/a`, 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1beta1', {
        status: 200,
        json: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1beta1' },
      }),
    ],
  },
  {
    name: 'PartialObjectMetadataList for a single object is 406 naming the internal type',
    source: 'k8s.io/apiserver/pkg/endpoints/handlers/response.go asPartialObjectMetadataList (newNotAcceptableError)',
    steps: [
      createLease('a'),
      get(`${LEASES}/a`, POM_LIST, {
        status: 406,
        json: {
          reason: 'NotAcceptable',
          message:
            'you requested PartialObjectMetadataList, but the requested object is not a list (*coordination.Lease)',
        },
      }),
    ],
  },
  {
    name: 'PartialObjectMetadata for a list is 406 naming the internal list type',
    source: 'k8s.io/apiserver/pkg/endpoints/handlers/response.go asPartialObjectMetadata (newNotAcceptableError)',
    steps: [
      get(LEASES, POM, {
        status: 406,
        json: {
          reason: 'NotAcceptable',
          message: 'you requested PartialObjectMetadata, but the requested object is a list (*coordination.LeaseList)',
        },
      }),
    ],
  },
  {
    name: 'an Accept the router takes but no serializer accepts (a stream other than watch) is 406 listing json, yaml and protobuf',
    source:
      'k8s.io/apiserver/pkg/endpoints/handlers/negotiation/negotiate.go acceptMediaTypeOptions (stream=watch only); errors.go NewNotAcceptableError; MediaTypesForSerializer (text/html never gets this far: routing.ts)',
    steps: [get(LEASES, 'application/json;stream=other', { status: 406, json: NOT_ACCEPTABLE })],
  },
  {
    name: 'an unknown as= kind is not acceptable (406), not ignored',
    source: 'k8s.io/apiserver/pkg/endpoints/handlers/rest.go RequestScope.AllowsMediaTypeTransform (default: false)',
    steps: [get(LEASES, 'application/json;as=Foo;g=meta.k8s.io;v=v1', { status: 406, json: NOT_ACCEPTABLE })],
  },
  {
    name: 'a Table in protobuf is not acceptable',
    source:
      'k8s.io/apiserver/pkg/endpoints/handlers/rest.go RequestScope.AllowsMediaTypeTransform (Table: json or yaml)',
    steps: [
      get(LEASES, 'application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io', {
        status: 406,
        json: NOT_ACCEPTABLE,
      }),
    ],
  },
  {
    name: 'application/yaml gets the Lease in YAML',
    source:
      'k8s.io/apimachinery/pkg/runtime/serializer/json/json.go (yaml serializer: JSONToYAML); negotiate.go NegotiateOutputMediaType',
    steps: [
      createLease('a'),
      get(`${LEASES}/a`, 'application/yaml', {
        status: 200,
        headers: { 'content-type': 'application/yaml' },
        text: /^apiVersion: coordination\.k8s\.io\/v1\nkind: Lease\nmetadata:\n/,
        check: (r) => expect(parse(r.text)).toMatchObject({ spec: { holderIdentity: 'alice' } }),
      }),
    ],
  },
  {
    name: 'q-values order the clauses: json;q=0.5 loses to yaml',
    source: 'github.com/munnerz/goautoneg ParseAccept (sorted by q), used by negotiate.go NegotiateMediaTypeOptions',
    steps: [
      get(LEASES, 'application/json;q=0.5, application/yaml', {
        status: 200,
        headers: { 'content-type': 'application/yaml' },
        text: /^apiVersion: coordination\.k8s\.io\/v1\nitems: \[\]\nkind: LeaseList\n/,
      }),
    ],
  },
  {
    name: 'a failure is written in YAML to a YAML client',
    source: 'k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/writers.go ErrorNegotiated',
    steps: [
      get(`${LEASES}/missing`, 'application/yaml', {
        status: 404,
        headers: { 'content-type': 'application/yaml' },
        check: (r) => expect(parse(r.text)).toMatchObject({ kind: 'Status', reason: 'NotFound', code: 404 }),
      }),
    ],
  },
  {
    name: 'a create answers in the negotiated representation (PartialObjectMetadata)',
    source: 'k8s.io/apiserver/pkg/endpoints/handlers/create.go createHandler (transformResponseObject)',
    steps: [
      {
        method: 'POST',
        path: LEASES,
        headers: { Accept: POM },
        body: { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'c' }, spec: {} },
        expect: { status: 201, json: { kind: 'PartialObjectMetadata', metadata: { name: 'c' } } },
      },
    ],
  },
  {
    name: 'an invalid includeObject on a Table request is 400',
    source:
      'k8s.io/apiserver/pkg/endpoints/handlers/response.go optionsForTransform; apimachinery meta/v1beta1/validation ValidateTableOptions',
    steps: [
      get(`${LEASES}?includeObject=Everything`, TABLE, {
        status: 400,
        json: {
          reason: 'BadRequest',
          message:
            "Unable to convert to Table as requested: includeObject: Invalid value: \"Everything\": must be 'Metadata', 'Object', 'None', or empty",
        },
      }),
    ],
  },
  {
    name: "a single object's Table carries the object's resourceVersion",
    source: 'k8s.io/kubernetes/pkg/printers/tablegenerator.go GenerateTable (meta.CommonAccessor resourceVersion)',
    steps: [
      createLease('a'),
      get(`${LEASES}/a?includeObject=None`, TABLE, {
        status: 200,
        json: { kind: 'Table', rows: [{ cells: ['a', 'alice', expect.any(String)] }] },
        check: (r) => {
          const table = r.json as { metadata: { resourceVersion: string }; rows: unknown[] };
          expect(Number(table.metadata.resourceVersion)).toBeGreaterThan(0);
          expect(table.rows[0]).not.toHaveProperty('object');
        },
      }),
    ],
  },
  {
    name: 'a get at a resourceVersion the store never reaches is 504 Too large resource version after the wait',
    source:
      'k8s.io/apiserver/pkg/storage/cacher/watch_cache.go waitUntilFreshLocked; storage/errors.go NewTooLargeResourceVersionError',
    steps: [
      get(`${LEASES}?resourceVersion=999999999`, 'application/json', {
        status: 504,
        json: {
          reason: 'Timeout',
          message: expect.stringMatching(/^Timeout: Too large resource version: 999999999, current: \d+$/),
          details: {
            causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
            retryAfterSeconds: 1,
          },
        },
      }),
    ],
  },
];
