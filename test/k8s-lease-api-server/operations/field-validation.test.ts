// fieldValidation (Strict | Warn | Ignore, Warn by default) on the verbs decode/decode-lease.test.ts does not cover:
// update, YAML bodies and every non-apply patch type, as k8s.io/apiserver/pkg/endpoints/handlers words them
// (create.go/update.go through the strict serializer, patch.go applyJSPatch / strategicPatchObject /
// applyPatchToCurrentObject, rest.go addStrictDecodingWarnings).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import type { JsonBody } from '../helpers.js';
import { NS_BASE, api, create, lease, start } from '../helpers.js';

const PREFIX = 'Lease in version "v1" cannot be handled as a Lease: ';
const YAML = 'application/yaml';
const MERGE = 'application/merge-patch+json';
const STRATEGIC = 'application/strategic-merge-patch+json';
const JSON_PATCH = 'application/json-patch+json';

/** The Warning header texts, unescaped. */
function warnings(headers: Headers): string[] {
  const value = headers.get('warning');
  if (value === null) return [];
  return [...value.matchAll(/299 - "((?:[^"\\]|\\.)*)"/g)].map((m) => (m[1] ?? '').replace(/\\(.)/g, '$1'));
}

const yamlLease = (name: string): string =>
  [
    'apiVersion: coordination.k8s.io/v1',
    'kind: Lease',
    'metadata:',
    `  name: ${name}`,
    'spec:',
    '  holderIdentity: a',
    '  bogus: 1',
    '  holderIdentity: b',
    '',
  ].join('\n');

describe('field validation', () => {
  let server: LeaseApiServer;
  let target: JsonBody;
  beforeAll(async () => {
    server = await start();
    target = await create(server, 'target', { holderIdentity: 'h', leaseDurationSeconds: 10 });
  });
  afterAll(() => server.close());

  describe('update (update.go UpdateResource, through the strict serializer under Strict and Warn)', () => {
    // Lease refuses an unconditional update (store.go, AllowUnconditionalUpdate): each PUT carries the live version.
    let resourceVersion = '';
    beforeEach(async () => {
      const live = await api(server, 'GET', `${NS_BASE}/target`);
      resourceVersion = live.body.metadata?.resourceVersion ?? '';
    });
    const body = (extra: Record<string, unknown>) => ({
      ...lease('target', { holderIdentity: 'h2', ...extra }),
      metadata: { name: 'target', resourceVersion },
    });

    it('Strict: 400 BadRequest naming every unknown field', async () => {
      const res = await api(server, 'PUT', `${NS_BASE}/target?fieldValidation=Strict`, { body: body({ foo: 1 }) });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(`${PREFIX}strict decoding error: unknown field "spec.foo"`);
    });

    it('Warn (the default): stored without the field, one Warning per field', async () => {
      const res = await api(server, 'PUT', `${NS_BASE}/target`, { body: body({ foo: 1 }) });
      expect(res.status).toBe(200);
      expect(warnings(res.headers)).toEqual(['unknown field "spec.foo"']);
      expect(res.body.spec).toEqual({ holderIdentity: 'h2' });
      expect(target.metadata?.uid).toBe(res.body.metadata?.uid);
    });

    it('Ignore: stored without the field, no Warning', async () => {
      const res = await api(server, 'PUT', `${NS_BASE}/target?fieldValidation=Ignore`, { body: body({ foo: 2 }) });
      expect(res.status).toBe(200);
      expect(res.headers.get('warning')).toBeNull();
    });
  });

  // The order strict errors are listed in: sigs.k8s.io/json meets a JSON body's keys in document order; a YAML
  // body's JSON comes from YAMLToJSON, and a JSON or merge patch's result from json-patch v4, both
  // json.Marshal of Go maps (sorted keys); a strategic merge patch's unknown fields are sorted by message
  // (runtime/converter.go FromUnstructuredWithValidation).
  describe('order of strict errors', () => {
    const interleaved = `{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"order"},"spec":{"zz":1,"holderIdentity":"a","holderIdentity":"b","aa":2}}`;
    const inOrder = ['unknown field "spec.zz"', 'duplicate field "spec.holderIdentity"', 'unknown field "spec.aa"'];

    it('a JSON body: unknown and duplicate fields in document order, in the 400 and in the Warning headers', async () => {
      const strict = await api(server, 'POST', `${NS_BASE}?fieldValidation=Strict`, { body: interleaved });
      expect(strict.status).toBe(400);
      expect(strict.body.message).toBe(`${PREFIX}strict decoding error: ${inOrder.join(', ')}`);
      const warned = await api(server, 'POST', NS_BASE, { body: interleaved });
      expect(warned.status).toBe(201);
      expect(warnings(warned.headers)).toEqual(inOrder);
    });

    it('a YAML body: go-yaml’s duplicates, then unknown fields by sorted key', async () => {
      const yaml =
        'apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata:\n  name: yaml-order\n  zz: 1\nspec:\n  zz: 1\n  aa: 2\nbb: 3\n';
      const res = await api(server, 'POST', `${NS_BASE}?fieldValidation=Strict`, { body: yaml, contentType: YAML });
      expect(res.body.message).toBe(
        `${PREFIX}strict decoding error: unknown field "bb", unknown field "metadata.zz", unknown field "spec.aa", unknown field "spec.zz"`,
      );
    });

    it('a merge patch: the patch’s duplicates, then the result’s unknown fields by sorted key', async () => {
      const res = await api(server, 'PATCH', `${NS_BASE}/target`, {
        contentType: MERGE,
        body: '{"spec":{"zz":1,"aa":2},"metadata":{"zz":1},"spec":{"zz":1,"aa":2}}',
      });
      expect(res.status).toBe(200);
      expect(warnings(res.headers)).toEqual([
        'duplicate field "spec"',
        'unknown field "metadata.zz"',
        'unknown field "spec.aa"',
        'unknown field "spec.zz"',
      ]);
    });

    it('a strategic merge patch: unknown fields sorted by message, the path unquoted', async () => {
      const res = await api(server, 'PATCH', `${NS_BASE}/target`, {
        contentType: STRATEGIC,
        body: '{"metadata-x":1,"metadata":{"x":1}}',
      });
      expect(warnings(res.headers)).toEqual(['unknown field "metadata-x"', 'unknown field "metadata.x"']);
    });
  });

  describe('YAML bodies (json.go Serializer.unmarshal: YAMLToJSONStrict first, then the JSON strict errors)', () => {
    it('Strict: go-yaml duplicate keys by line under the YAML prefix, then unknown fields', async () => {
      const res = await api(server, 'POST', `${NS_BASE}?fieldValidation=Strict`, {
        contentType: YAML,
        body: yamlLease('y1'),
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(
        `${PREFIX}strict decoding error: error converting YAML to JSON: yaml: unmarshal errors:\n  line 8: key "holderIdentity" already set in map, unknown field "spec.bogus"`,
      );
    });

    it('Warn: one Warning per go-yaml line (parseYAMLWarnings) and per unknown field; the last duplicate wins', async () => {
      const res = await api(server, 'POST', NS_BASE, { contentType: YAML, body: yamlLease('y2') });
      expect(res.status).toBe(201);
      expect(warnings(res.headers)).toEqual([
        'line 8: key "holderIdentity" already set in map',
        'unknown field "spec.bogus"',
      ]);
      expect(res.body.spec).toEqual({ holderIdentity: 'b' });
    });

    it('reads JSON sent as YAML like go-yaml, duplicates reported by line', async () => {
      const body = '{"metadata":{"name":"y3"},\n"spec":{"holderIdentity":"a",\n"holderIdentity":"b"}}';
      const res = await api(server, 'POST', NS_BASE, { contentType: YAML, body });
      expect(res.status).toBe(201);
      expect(warnings(res.headers)).toEqual(['line 3: key "holderIdentity" already set in map']);
    });
  });

  describe('merge and strategic merge patches (patch.go: a strict error is an Invalid "patch" field, 422)', () => {
    it('merge, Strict: 422 with the patched object quoted and every strict error, the patch’s own first', async () => {
      const body = '{"spec":{"holderIdentity":"x","holderIdentity":"y","foo":1}}';
      const res = await api(server, 'PATCH', `${NS_BASE}/target?fieldValidation=Strict`, { contentType: MERGE, body });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ kind: 'Status', reason: 'Invalid', code: 422 });
      const cause = res.body.details?.causes?.[0];
      expect(res.body.details?.causes).toHaveLength(1);
      expect(cause?.field).toBe('patch');
      expect(cause?.reason).toBe('FieldValueInvalid');
      expect(cause?.message).toMatch(
        /^Invalid value: "\{\\"apiVersion\\":\\"coordination\.k8s\.io\/v1\\",\\"kind\\":\\"Lease\\",/,
      );
      expect(cause?.message).toMatch(
        /\\"spec\\":\{\\"foo\\":1,\\"holderIdentity\\":\\"y\\"\}\}": strict decoding error: duplicate field "spec\.holderIdentity", unknown field "spec\.foo"$/,
      );
      expect(res.body.message).toBe(` "" is invalid: patch: ${cause?.message}`);
      expect(res.body.details?.name).toBeUndefined();
      expect(res.body.details?.kind).toBeUndefined();
    });

    it('merge, Warn: applied without the unknown field, one Warning per strict error', async () => {
      const body = '{"spec":{"holderIdentity":"x","holderIdentity":"w","foo":1}}';
      const res = await api(server, 'PATCH', `${NS_BASE}/target`, { contentType: MERGE, body });
      expect(res.status).toBe(200);
      expect(warnings(res.headers)).toEqual(['duplicate field "spec.holderIdentity"', 'unknown field "spec.foo"']);
      expect(res.body.spec?.['holderIdentity']).toBe('w');
    });

    it('merge, Ignore: applied silently', async () => {
      const res = await api(server, 'PATCH', `${NS_BASE}/target?fieldValidation=Ignore`, {
        contentType: MERGE,
        body: { spec: { foo: 1 } },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('warning')).toBeNull();
    });

    it('strategic, Strict: 422 quoting the decoded patch as Go prints it (fmt %+v of the map)', async () => {
      const body =
        '{"spec":{"foo":1.5,"holderIdentity":"z","leaseDurationSeconds":20},"metadata":{"labels":{"a":"b"}}}';
      const res = await api(server, 'PATCH', `${NS_BASE}/target?fieldValidation=Strict`, {
        contentType: STRATEGIC,
        body,
      });
      expect(res.status).toBe(422);
      expect(res.body.message).toBe(
        ' "" is invalid: patch: Invalid value: "map[metadata:map[labels:map[a:b]] spec:map[foo:1.5 holderIdentity:z leaseDurationSeconds:20]]": strict decoding error: unknown field "spec.foo"',
      );
    });

    it('strategic, Warn: duplicate and unknown fields as Warnings', async () => {
      const body = '{"spec":{"holderIdentity":"s","holderIdentity":"t","foo":1}}';
      const res = await api(server, 'PATCH', `${NS_BASE}/target`, { contentType: STRATEGIC, body });
      expect(res.status).toBe(200);
      expect(warnings(res.headers)).toEqual(['duplicate field "spec.holderIdentity"', 'unknown field "spec.foo"']);
    });

    it('words an undecodable patch per type and directive (applyJSPatch, strategicPatchObject)', async () => {
      const bad = '{"spec":';
      const merge = await api(server, 'PATCH', `${NS_BASE}/target`, { contentType: MERGE, body: bad });
      expect(merge.body.message).toBe('error decoding patch: unexpected end of JSON input');
      const mergeIgnore = await api(server, 'PATCH', `${NS_BASE}/target?fieldValidation=Ignore`, {
        contentType: MERGE,
        body: bad,
      });
      expect(mergeIgnore.body.message).toBe('Invalid JSON Patch');
      const strategic = await api(server, 'PATCH', `${NS_BASE}/target`, { contentType: STRATEGIC, body: bad });
      expect(strategic.body.message).toBe('unexpected end of JSON input');
      for (const res of [merge, mergeIgnore, strategic]) expect(res.status).toBe(400);
    });

    it('a type error in the patched object is an Invalid "patch" field under every directive', async () => {
      const res = await api(server, 'PATCH', `${NS_BASE}/target?fieldValidation=Ignore`, {
        contentType: MERGE,
        body: { spec: { leaseDurationSeconds: 'ten' } },
      });
      expect(res.status).toBe(422);
      expect(res.body.message).toMatch(
        /^ "" is invalid: patch: Invalid value: ".*": json: cannot unmarshal string into Go struct field LeaseSpec\.spec\.leaseDurationSeconds of type int32$/,
      );
    });
  });

  describe('JSON patches (patch.go applyJSPatch: kjson.UnmarshalStrict into []jsonPatchOp)', () => {
    const ops = [{ op: 'replace', path: '/spec/holderIdentity', value: 'j', valeu: 'typo' }];

    it('Strict: the operation’s unknown field, prefixed "json patch", in a 422 "patch" cause', async () => {
      const res = await api(server, 'PATCH', `${NS_BASE}/target?fieldValidation=Strict`, {
        contentType: JSON_PATCH,
        body: ops,
      });
      expect(res.status).toBe(422);
      expect(res.body.details?.causes?.[0]?.field).toBe('patch');
      expect(res.body.message).toMatch(/": strict decoding error: json patch unknown field "\[0\]\.valeu"$/);
    });

    it('Warn: applied, with the Warning', async () => {
      const res = await api(server, 'PATCH', `${NS_BASE}/target`, { contentType: JSON_PATCH, body: ops });
      expect(res.status).toBe(200);
      expect(warnings(res.headers)).toEqual(['json patch unknown field "[0].valeu"']);
      expect(res.body.spec?.['holderIdentity']).toBe('j');
    });

    it('Strict: a duplicate operation field, and a mistyped one as a 400 decoding error', async () => {
      const dup = '[{"op":"replace","path":"/spec/holderIdentity","path":"/spec/holderIdentity","value":"k"}]';
      const res = await api(server, 'PATCH', `${NS_BASE}/target?fieldValidation=Strict`, {
        contentType: JSON_PATCH,
        body: dup,
      });
      expect(res.status).toBe(422);
      expect(res.body.message).toMatch(/strict decoding error: json patch duplicate field "\[0\]\.path"$/);
      const typed = await api(server, 'PATCH', `${NS_BASE}/target?fieldValidation=Strict`, {
        contentType: JSON_PATCH,
        body: [{ op: 7, path: '/spec' }],
      });
      expect(typed.status).toBe(400);
      expect(typed.body.message).toBe(
        'error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.op of type string',
      );
    });

    it('Strict: an unknown field the operations put into the object is reported after the patch’s own', async () => {
      const res = await api(server, 'PATCH', `${NS_BASE}/target?fieldValidation=Strict`, {
        contentType: JSON_PATCH,
        body: [{ op: 'add', path: '/spec/extra', value: 1, x: 0 }],
      });
      expect(res.status).toBe(422);
      expect(res.body.message).toMatch(
        /": strict decoding error: json patch unknown field "\[0\]\.x", unknown field "spec\.extra"$/,
      );
    });
  });
});
