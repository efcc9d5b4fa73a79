import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import { applyJsonPatch } from '../../../templates/k8s-lease-api-server/src/patch/json-patch.js';
import { applyMergePatch } from '../../../templates/k8s-lease-api-server/src/patch/merge-patch.js';
import { applyStrategicMergePatch } from '../../../templates/k8s-lease-api-server/src/patch/strategic-merge-patch.js';
import { NS_BASE, api, create, start } from '../helpers.js';

const JSON_PATCH = 'application/json-patch+json';
const MERGE = 'application/merge-patch+json';
const STRATEGIC = 'application/strategic-merge-patch+json';
const owner = (uid: string, name = uid): Record<string, string> => ({ apiVersion: 'v1', kind: 'Pod', name, uid });

describe('patch algorithms', () => {
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

  it('merges RFC 7386 patches, deleting on null', () => {
    expect(applyMergePatch({ a: 1, b: { c: 2, d: 3 }, l: [1] }, { a: null, b: { c: null, e: 4 }, l: [2] })).toEqual({
      b: { d: 3, e: 4 },
      l: [2],
    });
  });

  it('merges ownerReferences by uid and finalizers as a set in strategic merge patches', () => {
    const original = { metadata: { ownerReferences: [owner('a'), owner('b')], finalizers: ['x'] } };
    const merged = applyStrategicMergePatch(original, {
      metadata: {
        ownerReferences: [{ uid: 'b', name: 'renamed' }, owner('c'), { uid: 'a', $patch: 'delete' }],
        finalizers: ['y', 'x'],
      },
    });
    expect(merged.ok && merged.value).toEqual({
      metadata: { ownerReferences: [{ ...owner('b'), name: 'renamed' }, owner('c')], finalizers: ['x', 'y'] },
    });
    const replaced = applyStrategicMergePatch({ spec: { a: 1, b: 2 } }, { spec: { $patch: 'replace', c: 3 } });
    expect(replaced.ok && replaced.value).toEqual({ spec: { c: 3 } });
    const removed = applyStrategicMergePatch(
      { metadata: { finalizers: ['x', 'y'] } },
      { metadata: { '$deleteFromPrimitiveList/finalizers': ['x'] } },
    );
    expect(removed.ok && removed.value).toEqual({ metadata: { finalizers: ['y'] } });
  });
});

describe('PATCH requests', () => {
  let server: LeaseApiServer;
  beforeEach(async () => {
    server = await start();
    await create(server, 'p', { holderIdentity: 'h1', leaseDurationSeconds: 10 }, { labels: { a: '1' } });
  });
  afterEach(() => server.close());

  it('applies a JSON patch', async () => {
    const res = await api(server, 'PATCH', `${NS_BASE}/p`, {
      contentType: JSON_PATCH,
      body: [
        { op: 'test', path: '/spec/holderIdentity', value: 'h1' },
        { op: 'replace', path: '/spec/holderIdentity', value: 'h2' },
        { op: 'add', path: '/metadata/labels/b', value: '2' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.spec?.['holderIdentity']).toBe('h2');
    expect(res.body.metadata?.labels).toEqual({ a: '1', b: '2' });
    expect(res.body.metadata?.generation).toBeUndefined();
  });

  it('answers a failed JSON patch test with the generic 422 of NewGenericServerResponse (patch.go applyJSPatch)', async () => {
    const res = await api(server, 'PATCH', `${NS_BASE}/p`, {
      contentType: JSON_PATCH,
      body: [{ op: 'test', path: '/spec/holderIdentity', value: 'nobody' }],
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'the server rejected our request due to an error in our request',
      reason: 'Invalid',
      details: {},
      code: 422,
    });
  });

  it('applies a merge patch, with null removing a field', async () => {
    const res = await api(server, 'PATCH', `${NS_BASE}/p`, {
      contentType: MERGE,
      body: { spec: { leaseDurationSeconds: null, leaseTransitions: 1 }, metadata: { labels: { a: null } } },
    });
    expect(res.status).toBe(200);
    expect(res.body.spec).toEqual({ holderIdentity: 'h1', leaseTransitions: 1 });
    expect(res.body.metadata?.labels).toBeUndefined();
  });

  it('applies a strategic merge patch merging ownerReferences by uid', async () => {
    await api(server, 'PATCH', `${NS_BASE}/p`, {
      contentType: MERGE,
      body: { metadata: { ownerReferences: [owner('u1')] } },
    });
    const res = await api(server, 'PATCH', `${NS_BASE}/p`, {
      contentType: STRATEGIC,
      body: { metadata: { ownerReferences: [owner('u2')] } },
    });
    expect(res.body.metadata?.ownerReferences?.map((o) => o['uid'])).toEqual(['u1', 'u2']);
    const merged = await api(server, 'PATCH', `${NS_BASE}/p`, {
      contentType: MERGE,
      body: { metadata: { ownerReferences: [owner('u3')] } },
    });
    expect(merged.body.metadata?.ownerReferences?.map((o) => o['uid'])).toEqual(['u3']);
  });

  it('rejects a stale resourceVersion in the patch with 409', async () => {
    const res = await api(server, 'PATCH', `${NS_BASE}/p`, {
      contentType: MERGE,
      body: { metadata: { resourceVersion: '1' }, spec: { holderIdentity: 'x' } },
    });
    expect(res.status).toBe(409);
    expect(res.body.reason).toBe('Conflict');
  });

  it('warns about unknown fields the patch introduces', async () => {
    const res = await api(server, 'PATCH', `${NS_BASE}/p`, { contentType: MERGE, body: { spec: { bogus: 1 } } });
    expect(res.status).toBe(200);
    expect(res.headers.get('warning')).toBe('299 - "unknown field \\"spec.bogus\\""');
    const strict = await api(server, 'PATCH', `${NS_BASE}/p?fieldValidation=Strict`, {
      contentType: MERGE,
      body: { spec: { bogus: 1 } },
    });
    // patch.go applyPatchToCurrentObject: a strict error of the patched object is an Invalid `patch` field.
    expect(strict.status).toBe(422);
    expect(strict.body.details?.causes?.[0]?.field).toBe('patch');
  });

  it('answers 404 for a missing object, 415 for an unknown patch type, 422 for force on non-apply patches', async () => {
    const missing = await api(server, 'PATCH', `${NS_BASE}/nope`, { contentType: MERGE, body: {} });
    expect(missing.status).toBe(404);
    const unsupported = await api(server, 'PATCH', `${NS_BASE}/p`, { contentType: 'application/json', body: {} });
    expect(unsupported.status).toBe(415);
    expect(unsupported.body.message).toBe(
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml',
    );
    const force = await api(server, 'PATCH', `${NS_BASE}/p?force=true`, { contentType: MERGE, body: {} });
    expect(force.status).toBe(422);
    expect(force.body.message).toBe(
      'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
    );
  });

  it('records the patching manager in managedFields', async () => {
    const res = await api(server, 'PATCH', `${NS_BASE}/p?fieldManager=patcher`, {
      contentType: MERGE,
      body: { spec: { holderIdentity: 'h9' } },
    });
    const managers = res.body.metadata?.managedFields ?? [];
    expect(managers.map((m) => m.manager)).toContain('patcher');
    const patcher = managers.find((m) => m.manager === 'patcher');
    expect(patcher?.fieldsV1).toEqual({ 'f:spec': { 'f:holderIdentity': {} } });
    const creator = managers.find((m) => m.manager !== 'patcher');
    expect(creator?.fieldsV1).toEqual({
      'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } },
      'f:spec': { 'f:leaseDurationSeconds': {} },
    });
  });
});
