// JSON Patch failures: evanphx/json-patch v4's semantics and wording (patch.go of gopkg.in/evanphx/json-patch.v4)
// at the algorithm, and what kube-apiserver makes of them over HTTP (k8s.io/apiserver/pkg/endpoints/handlers/
// patch.go applyJSPatch): 400 for a patch that does not decode, 413 past 10000 operations, and for any failure
// while applying, NewGenericServerResponse(422), whose generic message replaces evanphx's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonValue } from '../../../templates/k8s-lease-api-server/src/json.js';
import type { LeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import { applyJsonPatch } from '../../../templates/k8s-lease-api-server/src/patch/json-patch.js';
import { NS_BASE, api, create, start } from '../helpers.js';

const JSON_PATCH = 'application/json-patch+json';
const GENERIC = 'the server rejected our request due to an error in our request';

const doc = { spec: { holder: 'a', list: [1, 2] }, metadata: { name: 'x' } };

function failure(patch: JsonValue): string {
  const result = applyJsonPatch(doc, patch);
  return result.ok ? 'applied' : `${result.error.code} ${result.error.message}`;
}

function applied(patch: JsonValue): JsonValue | undefined {
  const result = applyJsonPatch(doc, patch);
  return result.ok ? result.value : undefined;
}

describe('evanphx/json-patch v4 wording (patch.go add/remove/replace/move/copy/test)', () => {
  it.each([
    [[{ op: 'test', path: '/spec/holder', value: 'b' }], '422 testing value /spec/holder failed: test failed'],
    [
      [{ op: 'test', path: '/nope/x', value: null }],
      '422 test operation does not apply: is missing path: /nope/x: missing value',
    ],
    [
      [{ op: 'test', path: '/spec/list/5', value: 1 }],
      "422 error in test for path: '/spec/list/5': Unable to access invalid index: 5: invalid index referenced",
    ],
    [
      [{ op: 'add', path: '/spec/list/5', value: 1 }],
      "422 error in add for path: '/spec/list/5': Unable to access invalid index: 5: invalid index referenced",
    ],
    [
      [{ op: 'add', path: '/spec/list/x', value: 1 }],
      `422 error in add for path: '/spec/list/x': value was not a proper array index: 'x': strconv.Atoi: parsing "x": invalid syntax`,
    ],
    [[{ op: 'add', path: '', value: {} }], '422 add operation does not apply: doc is missing path: "": missing value'],
    [[{ op: 'add' }], '422 add operation failed to decode path: missing value'],
    [
      [{ op: 'remove', path: '/spec/nope' }],
      "422 error in remove for path: '/spec/nope': Unable to remove nonexistent key: nope: missing value",
    ],
    [
      [{ op: 'replace', path: 7 }],
      '422 replace operation failed to decode path: json: cannot unmarshal number into Go value of type string',
    ],
    [[{ op: 'replace', path: '', value: 1 }], '422 replace operation value must be object or array: %!w(<nil>)'],
    [
      [{ op: 'replace', path: '/spec/list/9', value: 1 }],
      '422 replace operation does not apply: doc is missing key: /spec/list/9: missing value',
    ],
    [
      [{ op: 'move', from: '/spec/nope', path: '/spec/x' }],
      "422 error in move for path: 'nope': Unable to remove nonexistent key: nope: missing value",
    ],
    [
      [{ op: 'move', path: '/spec/x' }],
      '422 move operation failed to decode from: operation, missing from field: missing value',
    ],
    [
      [{ op: 'copy', from: '/nope/x', path: '/spec/x' }],
      '422 copy operation does not apply: doc is missing from path: /nope/x: missing value',
    ],
    [
      [{ op: 'copy', from: '/spec', path: '/nope/x' }],
      '422 copy operation does not apply: doc is missing destination path: /nope/x: missing value',
    ],
    [[{ op: 'frob', path: '/spec' }], '422 Unexpected kind: frob'],
    [[{ path: '/spec' }], '422 Unexpected kind: unknown'],
    [{ op: 'add' }, '400 json: cannot unmarshal object into Go value of type jsonpatch.Patch'],
    [['add'], '400 json: cannot unmarshal string into Go value of type jsonpatch.Operation'],
  ] as [JsonValue, string][])('%j → %s', (patch, expected) => {
    expect(failure(patch)).toBe(expected);
  });

  it('keeps v4’s departures from RFC 6902: replace adds a missing key, copy of a missing key copies null, add without value adds null', () => {
    expect(applied([{ op: 'replace', path: '/spec/new', value: 1 }])).toMatchObject({ spec: { new: 1 } });
    expect(applied([{ op: 'copy', from: '/spec/nope', path: '/spec/c' }])).toMatchObject({ spec: { c: null } });
    expect(applied([{ op: 'add', path: '/spec/n' }])).toMatchObject({ spec: { n: null } });
    expect(applied(null)).toEqual(doc);
  });

  it('reads negative indices from the end and +1 as 1 (strconv.Atoi)', () => {
    expect(applied([{ op: 'replace', path: '/spec/list/-1', value: 9 }])).toMatchObject({ spec: { list: [1, 9] } });
    expect(applied([{ op: 'remove', path: '/spec/list/+1' }])).toMatchObject({ spec: { list: [1] } });
    expect(applied([{ op: 'test', path: '/spec/list/-2', value: 1 }])).toEqual(doc);
  });
});

describe('JSON patch failures over HTTP (patch.go applyJSPatch)', () => {
  let server: LeaseApiServer;
  beforeAll(async () => {
    server = await start();
    await create(server, 'p', { holderIdentity: 'h' });
  });
  afterAll(() => server.close());

  it('answers any failure while applying with the generic 422 of NewGenericServerResponse, empty details', async () => {
    for (const body of [
      [{ op: 'test', path: '/spec/holderIdentity', value: 'other' }],
      [{ op: 'remove', path: '/spec/nope' }],
      [{ op: 'add', path: '/nope/x', value: 1 }],
    ]) {
      const res = await api(server, 'PATCH', `${NS_BASE}/p`, { contentType: JSON_PATCH, body });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: GENERIC,
        reason: 'Invalid',
        details: {},
        code: 422,
      });
    }
    expect((await api(server, 'GET', `${NS_BASE}/p`)).body.spec).toEqual({ holderIdentity: 'h' });
  });

  it('answers a patch that is not an operation list 400 with DecodePatch’s error (under Ignore, no strict decode first)', async () => {
    const res = await api(server, 'PATCH', `${NS_BASE}/p?fieldValidation=Ignore`, {
      contentType: JSON_PATCH,
      body: { op: 'add' },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
    const strict = await api(server, 'PATCH', `${NS_BASE}/p`, { contentType: JSON_PATCH, body: { op: 'add' } });
    expect(strict.body.message).toBe(
      'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp',
    );
  });
});

describe('applyJsonPatch', () => {
  it('applies RFC 6902 operations in order, including test, move and copy', () => {
    const doc = { a: { b: 1 }, list: [1, 2] };
    const result = applyJsonPatch(doc, [
      { op: 'test', path: '/a/b', value: 1 },
      { op: 'add', path: '/list/-', value: 3 },
      { op: 'copy', from: '/a', path: '/c' },
      { op: 'move', from: '/a/b', path: '/moved' },
      { op: 'replace', path: '/list/0', value: 0 },
      { op: 'remove', path: '/list/1' },
    ]);
    expect(result.ok && result.value).toEqual({ a: {}, list: [0, 3], c: { b: 1 }, moved: 1 });
    expect(doc).toEqual({ a: { b: 1 }, list: [1, 2] });
  });

  it('reports failures with the wording of evanphx/json-patch', () => {
    const test = applyJsonPatch({ a: 1 }, [{ op: 'test', path: '/a', value: 2 }]);
    expect(test.ok ? undefined : test.error).toEqual({ code: 422, message: 'testing value /a failed: test failed' });
    const remove = applyJsonPatch({}, [{ op: 'remove', path: '/x' }]);
    expect(remove.ok ? '' : remove.error.message).toBe(
      "error in remove for path: '/x': Unable to remove nonexistent key: x: missing value",
    );
    // evanphx v4's partialDoc.get never fails, so a replace of a missing key adds it.
    const replace = applyJsonPatch({}, [{ op: 'replace', path: '/x', value: 1 }]);
    expect(replace.ok && replace.value).toEqual({ x: 1 });
    const notArray = applyJsonPatch({}, { op: 'add' });
    expect(notArray.ok ? 0 : notArray.error.code).toBe(400);
  });
});
