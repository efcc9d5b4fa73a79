// fieldValidation (Strict | Warn | Ignore; Warn when absent) on create, update and each non-apply patch type,
// for JSON and YAML bodies, as kube-apiserver's handlers answer it; and JSON patch failures as its patch
// handler answers them.
import type { ConformanceCase } from '../case.js';

const LEASES = '/apis/coordination.k8s.io/v1/namespaces/{ns}/leases';
const PREFIX = 'Lease in version "v1" cannot be handled as a Lease: ';
const YAML = { 'Content-Type': 'application/yaml' };
const MERGE = { 'Content-Type': 'application/merge-patch+json' };
const STRATEGIC = { 'Content-Type': 'application/strategic-merge-patch+json' };
const JSON_PATCH = { 'Content-Type': 'application/json-patch+json' };

const lease = (name: string, spec: Record<string, unknown> = { holderIdentity: 'alice' }) => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name },
  spec,
});

/** A step creating Lease `name` for a case to patch or update. */
const setUp = (name: string) => ({ method: 'POST' as const, path: LEASES, body: lease(name), expect: { status: 201 } });

const yamlWithDuplicate = (name: string): string =>
  `apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata:\n  name: ${name}\nspec:\n  holderIdentity: a\n  bogus: 1\n  holderIdentity: b\n`;

/** A create body whose unknown and repeated fields alternate: spec.zz, spec.holderIdentity (again), spec.aa. */
const interleaved = (name: string): string =>
  `{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"${name}"},"spec":{"zz":1,"holderIdentity":"a","holderIdentity":"b","aa":2}}`;
const INTERLEAVED_ERRORS = 'unknown field "spec.zz", duplicate field "spec.holderIdentity", unknown field "spec.aa"';
const DECODE_GO =
  'sigs.k8s.io/json internal/golang/encoding/json decode.go decodeState.object, kubernetes_patch.go saveStrictError';

export const cases: readonly ConformanceCase[] = [
  {
    name: 'a Strict JSON create lists unknown and duplicate fields in the order the decoder meets them',
    source: `${DECODE_GO} (strict errors saved at each key, in document order); k8s.io/apimachinery/pkg/runtime/serializer/json/json.go Serializer.unmarshal`,
    steps: [
      {
        method: 'POST',
        path: `${LEASES}?fieldValidation=Strict`,
        headers: { 'Content-Type': 'application/json' },
        body: interleaved('strict-order'),
        expect: { status: 400, json: { message: `${PREFIX}strict decoding error: ${INTERLEAVED_ERRORS}` } },
      },
    ],
  },
  {
    name: 'a JSON create under Warn warns once per strict error, in the same order',
    source: `${DECODE_GO}; k8s.io/apiserver/pkg/endpoints/handlers/rest.go addStrictDecodingWarnings`,
    steps: [
      {
        method: 'POST',
        path: LEASES,
        headers: { 'Content-Type': 'application/json' },
        body: interleaved('warn-order'),
        expect: {
          status: 201,
          headers: {
            warning:
              '299 - "unknown field \\"spec.zz\\"", 299 - "duplicate field \\"spec.holderIdentity\\"", 299 - "unknown field \\"spec.aa\\""',
          },
        },
      },
    ],
  },
  {
    name: 'a Strict YAML create lists unknown fields by sorted key, as YAMLToJSON marshals a Go map',
    source:
      'sigs.k8s.io/yaml yaml.go yamlToJSONTarget (json.Marshal of map[string]interface{}); k8s.io/apimachinery/pkg/runtime/serializer/json/json.go Serializer.unmarshal',
    steps: [
      {
        method: 'POST',
        path: `${LEASES}?fieldValidation=Strict`,
        headers: YAML,
        body: 'apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata:\n  name: yaml-order\n  zz: 1\nspec:\n  zz: 1\n  aa: 2\nbb: 3\n',
        expect: {
          status: 400,
          json: {
            message: `${PREFIX}strict decoding error: unknown field "bb", unknown field "metadata.zz", unknown field "spec.aa", unknown field "spec.zz"`,
          },
        },
      },
    ],
  },
  {
    name: 'a merge patch under Warn warns about the patch’s duplicates, then the result’s unknown fields by sorted key',
    source:
      'k8s.io/apiserver/pkg/endpoints/handlers/patch.go jsonPatcher.applyPatchToCurrentObject (appliedStrictErrs first); gopkg.in/evanphx/json-patch.v4 merge.go MergePatch (json.Marshal of the merged map)',
    steps: [
      setUp('merge-order'),
      {
        method: 'PATCH',
        path: `${LEASES}/merge-order`,
        headers: MERGE,
        body: '{"spec":{"zz":1},"metadata":{"zz":1},"spec":{"zz":1,"aa":2}}',
        expect: {
          status: 200,
          headers: {
            warning:
              '299 - "duplicate field \\"spec\\"", 299 - "unknown field \\"metadata.zz\\"", 299 - "unknown field \\"spec.aa\\"", 299 - "unknown field \\"spec.zz\\""',
          },
        },
      },
    ],
  },
  {
    name: 'a Strict update with an unknown field is 400 with the strict decoding error',
    source: 'k8s.io/apiserver/pkg/endpoints/handlers/update.go UpdateResource (StrictSerializer; transformDecodeError)',
    steps: [
      setUp('u'),
      {
        method: 'PUT',
        path: `${LEASES}/u?fieldValidation=Strict`,
        body: lease('u', { holderIdentity: 'bob', foo: 1 }),
        expect: {
          status: 400,
          json: { reason: 'BadRequest', message: `${PREFIX}strict decoding error: unknown field "spec.foo"` },
        },
      },
    ],
  },
  {
    name: 'a Strict YAML create with a repeated key is 400 with go-yaml’s line under YAMLToJSONStrict’s prefix',
    source:
      'k8s.io/apimachinery/pkg/runtime/serializer/json/json.go Serializer.unmarshal (yaml.YAMLToJSONStrict, then kjson.UnmarshalStrict)',
    steps: [
      {
        method: 'POST',
        path: `${LEASES}?fieldValidation=Strict`,
        headers: YAML,
        body: yamlWithDuplicate('strict-yaml'),
        expect: {
          status: 400,
          json: {
            message: `${PREFIX}strict decoding error: error converting YAML to JSON: yaml: unmarshal errors:\n  line 8: key "holderIdentity" already set in map, unknown field "spec.bogus"`,
          },
        },
      },
    ],
  },
  {
    name: 'a YAML create under Warn (the default) warns once per go-yaml line and per unknown field',
    source: 'k8s.io/apiserver/pkg/endpoints/handlers/rest.go addStrictDecodingWarnings / parseYAMLWarnings',
    steps: [
      {
        method: 'POST',
        path: LEASES,
        headers: YAML,
        body: yamlWithDuplicate('w'),
        expect: {
          status: 201,
          headers: {
            warning:
              '299 - "line 8: key \\"holderIdentity\\" already set in map", 299 - "unknown field \\"spec.bogus\\""',
          },
          json: { spec: { holderIdentity: 'b' } },
        },
      },
    ],
  },
  {
    name: 'a Strict merge patch with an unknown field is 422 Invalid with one "patch" cause quoting the patched object',
    source:
      'k8s.io/apiserver/pkg/endpoints/handlers/patch.go jsonPatcher.applyPatchToCurrentObject (field.Invalid(field.NewPath("patch"), …))',
    steps: [
      setUp('m'),
      {
        method: 'PATCH',
        path: `${LEASES}/m?fieldValidation=Strict`,
        headers: MERGE,
        body: '{"spec":{"holderIdentity":"x","holderIdentity":"y","foo":1}}',
        expect: {
          status: 422,
          json: { reason: 'Invalid', details: { causes: [{ reason: 'FieldValueInvalid', field: 'patch' }] } },
          check: (response) => {
            const message = String((response.json as Record<string, unknown>)['message']);
            const head = ' "" is invalid: patch: Invalid value: "{\\"apiVersion\\":\\"coordination.k8s.io/v1\\"';
            const tail = '": strict decoding error: duplicate field "spec.holderIdentity", unknown field "spec.foo"';
            if (!message.startsWith(head) || !message.endsWith(tail)) throw new Error(`message ${message}`);
          },
        },
      },
    ],
  },
  {
    name: 'a merge patch under Warn applies, warning about the patch’s duplicate and the result’s unknown field',
    source:
      'k8s.io/apiserver/pkg/endpoints/handlers/patch.go jsonPatcher.applyJSPatch (kjson.UnmarshalStrict) and addStrictDecodingWarnings',
    steps: [
      setUp('mw'),
      {
        method: 'PATCH',
        path: `${LEASES}/mw`,
        headers: MERGE,
        body: '{"spec":{"holderIdentity":"x","holderIdentity":"y","foo":1}}',
        expect: {
          status: 200,
          headers: {
            warning: '299 - "duplicate field \\"spec.holderIdentity\\"", 299 - "unknown field \\"spec.foo\\""',
          },
          json: { spec: { holderIdentity: 'y' } },
        },
      },
    ],
  },
  {
    name: 'a Strict strategic merge patch with an unknown field is 422 quoting the decoded patch as Go’s %+v',
    source: 'k8s.io/apiserver/pkg/endpoints/handlers/patch.go applyPatchToObject (fmt.Sprintf("%+v", patchMap))',
    steps: [
      setUp('s'),
      {
        method: 'PATCH',
        path: `${LEASES}/s?fieldValidation=Strict`,
        headers: STRATEGIC,
        body: { spec: { foo: 1, holderIdentity: 'z' } },
        expect: {
          status: 422,
          json: {
            message:
              ' "" is invalid: patch: Invalid value: "map[spec:map[foo:1 holderIdentity:z]]": strict decoding error: unknown field "spec.foo"',
            details: { causes: [{ field: 'patch' }] },
          },
        },
      },
    ],
  },
  {
    name: 'a merge patch under Ignore applies silently',
    source: 'k8s.io/apiserver/pkg/endpoints/handlers/patch.go (Ignore: the non-strict serializer, no strict decoding)',
    steps: [
      setUp('i'),
      {
        method: 'PATCH',
        path: `${LEASES}/i?fieldValidation=Ignore`,
        headers: MERGE,
        body: { spec: { foo: 1 } },
        expect: { status: 200, headers: { warning: null } },
      },
    ],
  },
  {
    name: 'a JSON patch operation’s unknown field warns as "json patch unknown field" under Warn',
    source:
      'k8s.io/apiserver/pkg/endpoints/handlers/patch.go jsonPatcher.applyJSPatch ([]jsonPatchOp, fmt.Errorf("json patch %v", e))',
    steps: [
      setUp('j'),
      {
        method: 'PATCH',
        path: `${LEASES}/j`,
        headers: JSON_PATCH,
        body: [{ op: 'replace', path: '/spec/holderIdentity', value: 'bob', valeu: 'typo' }],
        expect: {
          status: 200,
          headers: { warning: '299 - "json patch unknown field \\"[0].valeu\\""' },
          json: { spec: { holderIdentity: 'bob' } },
        },
      },
    ],
  },
  {
    name: 'a failed JSON patch test is 422 with NewGenericServerResponse’s message and empty details',
    source:
      'k8s.io/apiserver/pkg/endpoints/handlers/patch.go applyJSPatch (errors.NewGenericServerResponse(http.StatusUnprocessableEntity, …)); k8s.io/apimachinery/pkg/api/errors NewGenericServerResponse',
    steps: [
      setUp('t'),
      {
        method: 'PATCH',
        path: `${LEASES}/t`,
        headers: JSON_PATCH,
        body: [{ op: 'test', path: '/spec/holderIdentity', value: 'nobody' }],
        expect: {
          status: 422,
          check: (response) => {
            const body = response.json as Record<string, unknown>;
            if (body['message'] !== 'the server rejected our request due to an error in our request')
              throw new Error(`message ${String(body['message'])}`);
            if (JSON.stringify(body['details']) !== '{}') throw new Error(`details ${JSON.stringify(body['details'])}`);
            if (body['reason'] !== 'Invalid') throw new Error(`reason ${String(body['reason'])}`);
          },
        },
      },
    ],
  },
  {
    name: 'a JSON patch replace of a missing key adds it, as evanphx/json-patch v4 does',
    source: 'gopkg.in/evanphx/json-patch.v4 patch.go Patch.replace (partialDoc.get never fails)',
    steps: [
      setUp('r'),
      {
        method: 'PATCH',
        path: `${LEASES}/r`,
        headers: JSON_PATCH,
        body: [{ op: 'replace', path: '/spec/leaseDurationSeconds', value: 30 }],
        expect: { status: 200, json: { spec: { holderIdentity: 'alice', leaseDurationSeconds: 30 } } },
      },
    ],
  },
];
