// /openapi/v2 derived at start-up from the packaged OpenAPI 3 document (templates/k8s-lease-api-server/src/openapi/openapi-v2.ts)
// against each release's committed upstream swagger.json (test/fixtures/upstream/kubernetes/v<release>/): the
// inverse of generator/load/swagger2-to-open-api3.ts must give back kube-apiserver's definitions and operations
// (kube-openapi pkg/builder). The gnostic protobuf form: openapi-v2-protobuf.test.ts.
import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '../../../templates/k8s-lease-api-server/src/json.js';
import { openApiV2Document } from '../../../templates/k8s-lease-api-server/src/openapi/openapi-v2.js';
import { packaged, upstream } from '../helpers/openapi-documents.js';

const RELEASES = ['1.29.0', '1.30.0', '1.31.1', '1.33.1', '1.34.0', '1.35.0'];

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
