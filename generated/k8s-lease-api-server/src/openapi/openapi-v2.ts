// Copied by lease-api-generator from templates/server/openapi/openapi-v2.ts. DO NOT EDIT: edit that file and run `npm run generate`.
// /openapi/v2 for clients that still read it: kubectl ≤ 1.27 downloads it (as gnostic protobuf) before
// every validated write and checks that Lease PATCH accepts `fieldValidation`. Only that much is served.
import type { JsonObject } from '../json.js';
import { API_PREFIX, GROUP, KIND, VERSION } from '../lease-meta.js';
import type { ProtoField } from './protobuf.js';
import { encodeMessage } from './protobuf.js';

/** What clients ask for; the '@' form is not a valid MIME token, so responses use the dotted form. */
export const OPENAPI_V2_PROTOBUF_ACCEPT: readonly string[] = [
  'application/com.github.proto-openapi.spec.v2@v1.0+protobuf',
  'application/com.github.proto-openapi.spec.v2.v1.0+protobuf',
];
export const OPENAPI_V2_PROTOBUF_CONTENT_TYPE = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

const ITEM_PATH = `${API_PREFIX}/namespaces/{namespace}/leases/{name}`;
const PATCH_QUERY_PARAMETERS = ['dryRun', 'fieldManager', 'fieldValidation', 'force'];
const GVK_EXTENSION = 'x-kubernetes-group-version-kind';

// Field numbers of openapi.v2 messages (gnostic OpenAPIv2.proto).
const F = {
  document: { swagger: 1, info: 2, paths: 8 },
  info: { title: 1, version: 2 },
  paths: { path: 2 },
  namedPathItem: { name: 1, value: 2 },
  pathItem: { patch: 8 },
  operation: { operationId: 5, parameters: 8, vendorExtension: 13 },
  parametersItem: { parameter: 1 },
  parameter: { nonBody: 2 },
  nonBody: { query: 3 },
  query: { in: 2, name: 4, type: 6 },
  namedAny: { name: 1, value: 2 },
  any: { yaml: 2 },
};

function queryParameter(name: string): ProtoField {
  const subSchema: ProtoField[] = [
    { field: F.query.in, value: 'query' },
    { field: F.query.name, value: name },
    { field: F.query.type, value: name === 'force' ? 'boolean' : 'string' },
  ];
  return {
    field: F.operation.parameters,
    value: [
      {
        field: F.parametersItem.parameter,
        value: [{ field: F.parameter.nonBody, value: [{ field: F.nonBody.query, value: subSchema }] }],
      },
    ],
  };
}

export function openApiV2Protobuf(release: string): Buffer {
  const gvkYaml = `group: ${GROUP}\nkind: ${KIND}\nversion: ${VERSION}\n`;
  const patch: ProtoField[] = [
    { field: F.operation.operationId, value: 'patchCoordinationV1NamespacedLease' },
    ...PATCH_QUERY_PARAMETERS.map(queryParameter),
    {
      field: F.operation.vendorExtension,
      value: [
        { field: F.namedAny.name, value: GVK_EXTENSION },
        { field: F.namedAny.value, value: [{ field: F.any.yaml, value: gvkYaml }] },
      ],
    },
  ];
  return encodeMessage([
    { field: F.document.swagger, value: '2.0' },
    {
      field: F.document.info,
      value: [
        { field: F.info.title, value: 'Kubernetes' },
        { field: F.info.version, value: `v${release}` },
      ],
    },
    {
      field: F.document.paths,
      value: [
        {
          field: F.paths.path,
          value: [
            { field: F.namedPathItem.name, value: ITEM_PATH },
            { field: F.namedPathItem.value, value: [{ field: F.pathItem.patch, value: patch }] },
          ],
        },
      ],
    },
  ]);
}

export function openApiV2Json(release: string): JsonObject {
  return {
    swagger: '2.0',
    info: { title: 'Kubernetes', version: `v${release}` },
    paths: {
      [ITEM_PATH]: {
        patch: {
          operationId: 'patchCoordinationV1NamespacedLease',
          parameters: PATCH_QUERY_PARAMETERS.map((name) => ({
            in: 'query',
            name,
            type: name === 'force' ? 'boolean' : 'string',
            uniqueItems: true,
          })),
          [GVK_EXTENSION]: { group: GROUP, kind: KIND, version: VERSION },
        },
      },
    },
    definitions: {},
  };
}
