// /openapi/v2 derived at start-up from the packaged OpenAPI 3 document (templates/k8s-lease-api-server/src/openapi/openapi-v2.ts)
// against each release's committed upstream swagger.json (test/fixtures/upstream/kubernetes/v<release>/): the
// inverse of generator/load/swagger2-to-open-api3.ts must give back kube-apiserver's definitions and operations
// (kube-openapi pkg/builder). The gnostic protobuf form is read back with protobufjs's Reader.
import { readFileSync } from 'node:fs';
import { Reader } from 'protobufjs/minimal.js';
import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '../../../templates/k8s-lease-api-server/src/json.js';
import { openApiV2Document } from '../../../templates/k8s-lease-api-server/src/openapi/openapi-v2.js';
import { openApiV2Protobuf } from '../../../templates/k8s-lease-api-server/src/openapi/openapi-v2-protobuf.js';

const RELEASES = ['1.29.0', '1.30.0', '1.31.1', '1.33.1', '1.34.0', '1.35.0'];
const read = (path: string): JsonObject => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8'));
const upstream = (release: string): JsonObject => read(`../../fixtures/upstream/kubernetes/v${release}/swagger.json`);
const packaged = (release: string): JsonObject => read(`../../../spec/openapi/v${release}.json`);

/** The group versions a release's document has paths for. */
function versionsOf(doc: JsonObject): string[] {
  const paths = Object.keys(doc['paths'] as JsonObject);
  return [...new Set(paths.map((p) => p.split('/')[3] ?? ''))];
}

/**
 * The project's fixups (generator/load/fixups) narrow the meta types' x-kubernetes-group-version-kind to this
 * group, where upstream lists every group's; everything else must match.
 */
function withoutGvk(definition: JsonValue | undefined): JsonValue | undefined {
  if (definition === undefined || typeof definition !== 'object' || Array.isArray(definition) || definition === null)
    return definition;
  const { 'x-kubernetes-group-version-kind': _gvk, ...rest } = definition;
  return rest;
}

/** Upstream's operation with its shared `#/parameters/` references inlined and the parameters in name order. */
function inlined(doc: JsonObject, operation: JsonObject): JsonObject {
  const shared = doc['parameters'] as JsonObject;
  const resolve = (p: JsonValue): JsonValue => {
    const ref = (p as JsonObject)['$ref'];
    return typeof ref === 'string' ? (shared[ref.replace('#/parameters/', '')] ?? p) : p;
  };
  const params = (operation['parameters'] as JsonValue[] | undefined)?.map(resolve);
  return params === undefined ? operation : { ...operation, parameters: byName(params) };
}

function byName(params: JsonValue[]): JsonValue[] {
  const key = (p: JsonValue): string =>
    `${(p as JsonObject)['in'] === 'body' ? 0 : 1}${String((p as JsonObject)['name'])}`;
  return [...params].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/**
 * The packaged document carries the project's fixes of upstream defects (generator/load/fixups/upstream-bugs.ts:
 * declareProseEnums, typePrettyAsBoolean, markProseDeprecations, deleteCollectionReturnsList), which the served
 * v2 document keeps as they describe what the server does; compared without them.
 */
function withoutFixes(parameter: JsonValue): JsonValue {
  const { enum: _enum, ...rest } = parameter as JsonObject;
  return rest['name'] === 'pretty' ? { ...rest, type: 'string' } : rest;
}

function comparable(operation: JsonObject): JsonObject {
  const { deprecated: _deprecated, ...rest } = operation;
  const out: JsonObject = { ...rest };
  const params = operation['parameters'] as JsonValue[] | undefined;
  if (params !== undefined) out['parameters'] = byName(params.map(withoutFixes));
  const sorted = (key: string): string[] => [...((operation[key] as string[] | undefined) ?? [])].sort();
  out['produces'] = sorted('produces');
  out['consumes'] = sorted('consumes');
  if (operation['x-kubernetes-action'] === 'deletecollection') delete out['responses'];
  return out;
}

describe('/openapi/v2 derived from the packaged OpenAPI 3 document', () => {
  it.each(RELEASES)('%s: the definitions are upstream swagger.json definitions', (release) => {
    const doc = packaged(release);
    const v2 = openApiV2Document(
      release,
      versionsOf(doc).map((version) => ({ version, document: doc })),
    );
    const expected = upstream(release)['definitions'] as JsonObject;
    const actual = v2['definitions'] as JsonObject;
    expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
    for (const name of Object.keys(expected))
      expect(withoutGvk(actual[name]), name).toEqual(withoutGvk(expected[name]));
    expect(actual['io.k8s.api.coordination.v1.Lease']).toEqual(expected['io.k8s.api.coordination.v1.Lease']);
  });

  it.each(RELEASES)('%s: every upstream path and operation is served as upstream writes it', (release) => {
    const doc = packaged(release);
    const v2 = openApiV2Document(
      release,
      versionsOf(doc).map((version) => ({ version, document: doc })),
    );
    const source = upstream(release);
    const expected = source['paths'] as JsonObject;
    const actual = v2['paths'] as JsonObject;
    expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
    for (const [path, item] of Object.entries(expected)) {
      for (const [method, operation] of Object.entries(item as JsonObject)) {
        const served = (actual[path] as JsonObject)[method] as JsonObject;
        if (method === 'parameters') {
          const want = inlined(source, { parameters: operation as JsonValue[] })['parameters'] as JsonValue[];
          expect(byName((served as unknown as JsonValue[]).map(withoutFixes)), path).toEqual(
            byName(want.map(withoutFixes)),
          );
          continue;
        }
        expect(comparable(served), `${method} ${path}`).toEqual(comparable(inlined(source, operation as JsonObject)));
      }
    }
  });

  it('serves only the versions asked for, and only the definitions their paths reach', () => {
    const doc = packaged('1.35.0');
    const v2 = openApiV2Document('1.35.0', [{ version: 'v1', document: doc }]);
    expect(Object.keys(v2['paths'] as JsonObject).every((p) => p.startsWith('/apis/coordination.k8s.io/v1/'))).toBe(
      true,
    );
    const names = Object.keys(v2['definitions'] as JsonObject);
    expect(names).toContain('io.k8s.api.coordination.v1.Lease');
    expect(names).toContain('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');
    expect(names.some((n) => n.includes('LeaseCandidate'))).toBe(false);
    expect(v2['info']).toEqual({ title: 'Kubernetes', version: 'v1.35.0' });
  });
});

/** One level of a protobuf message: field number → the length-delimited payloads or varints under it. */
function fields(bytes: Uint8Array): Map<number, (Uint8Array | number)[]> {
  const reader = Reader.create(bytes);
  const out = new Map<number, (Uint8Array | number)[]>();
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    const field = tag >>> 3;
    const wire = tag & 7;
    let value: Uint8Array | number = 0;
    if (wire === 2) value = reader.bytes();
    else if (wire === 0) value = reader.uint32();
    else reader.skipType(wire);
    out.set(field, [...(out.get(field) ?? []), value]);
  }
  return out;
}
const str = (value: Uint8Array | number | undefined): string =>
  value instanceof Uint8Array ? Buffer.from(value).toString('utf8') : '';
const sub = (value: Uint8Array | number | undefined): Map<number, (Uint8Array | number)[]> =>
  fields(value instanceof Uint8Array ? value : new Uint8Array());

describe('/openapi/v2 as gnostic protobuf (OpenAPIv2.proto)', () => {
  const doc = packaged('1.35.0');
  const v2 = openApiV2Document('1.35.0', [{ version: 'v1', document: doc }]);
  const document = fields(openApiV2Protobuf(v2));

  it('carries swagger, info and every definition by name (Document 1, 2, 9)', () => {
    expect(str(document.get(1)?.[0])).toBe('2.0');
    expect(str(sub(document.get(2)?.[0]).get(2)?.[0])).toBe('v1.35.0');
    const named = sub(document.get(9)?.[0]).get(1) ?? [];
    expect(named.map((n) => str(sub(n).get(1)?.[0]))).toEqual(Object.keys(v2['definitions'] as JsonObject));
  });

  it("writes Lease's properties, $ref and group-version-kind extension as kubectl's proto parser reads them", () => {
    const named = sub(document.get(9)?.[0]).get(1) ?? [];
    const lease = named.map(sub).find((n) => str(n.get(1)?.[0]) === 'io.k8s.api.coordination.v1.Lease');
    const schema = sub(lease?.get(2)?.[0]);
    expect(str(schema.get(4)?.[0])).toBe('Lease defines a lease concept.');
    expect(str(sub(schema.get(22)?.[0]).get(1)?.[0])).toBe('object');
    const properties = (sub(schema.get(25)?.[0]).get(1) ?? []).map(sub);
    const spec = properties.find((p) => str(p.get(1)?.[0]) === 'spec');
    expect(str(sub(spec?.get(2)?.[0]).get(1)?.[0])).toBe('#/definitions/io.k8s.api.coordination.v1.LeaseSpec');
    const extension = sub(schema.get(31)?.[0]);
    expect(str(extension.get(1)?.[0])).toBe('x-kubernetes-group-version-kind');
    expect(JSON.parse(str(sub(extension.get(2)?.[0]).get(2)?.[0]))).toEqual([
      { group: 'coordination.k8s.io', kind: 'Lease', version: 'v1' },
    ]);
  });

  it("lists PATCH's fieldValidation query parameter (kubectl ≤ 1.27's server-side validation probe)", () => {
    const paths = (sub(document.get(8)?.[0]).get(2) ?? []).map(sub);
    const item = paths.find(
      (p) => str(p.get(1)?.[0]) === '/apis/coordination.k8s.io/v1/namespaces/{namespace}/leases/{name}',
    );
    const patch = sub(sub(item?.get(2)?.[0]).get(8)?.[0]);
    const names = (patch.get(8) ?? []).map((p) => {
      const nonBody = sub(sub(sub(p).get(1)?.[0]).get(2)?.[0]);
      return str(sub(nonBody.get(3)?.[0]).get(4)?.[0]);
    });
    expect(names).toContain('fieldValidation');
  });
});
