import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import { NS_BASE, api, create, start } from '../helpers.js';

const JSON_PATCH = 'application/json-patch+json';
const MERGE = 'application/merge-patch+json';
const STRATEGIC = 'application/strategic-merge-patch+json';
const owner = (uid: string, name = uid): Record<string, string> => ({ apiVersion: 'v1', kind: 'Pod', name, uid });

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

  // patch.go patchResource builds its UpdatedObjectInfo from nil (no uid precondition), so a uid the patch
  // changes reaches rest.BeforeUpdate's ValidateObjectMetaAccessorUpdate: 422 "field is immutable", where a
  // PUT carrying the same uid is the storage precondition's 409.
  it('refuses a uid change by every patch type and by apply as immutable (422), by PUT as a failed precondition (409)', async () => {
    const uid = (await api(server, 'GET', `${NS_BASE}/p`)).body.metadata?.uid ?? '';
    const message =
      'Lease.coordination.k8s.io "p" is invalid: metadata.uid: Invalid value: "other-uid": field is immutable';
    const attempts: Array<[string, unknown, string]> = [
      [JSON_PATCH, [{ op: 'replace', path: '/metadata/uid', value: 'other-uid' }], ''],
      [MERGE, { metadata: { uid: 'other-uid' } }, ''],
      [STRATEGIC, { metadata: { uid: 'other-uid' } }, ''],
      [
        'application/apply-patch+yaml',
        { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'p', uid: 'other-uid' } },
        '?fieldManager=applier',
      ],
    ];
    for (const [contentType, body, query] of attempts) {
      const res = await api(server, 'PATCH', `${NS_BASE}/p${query}`, { contentType, body });
      expect(res.status, contentType).toBe(422);
      expect(res.body.message, contentType).toBe(message);
      expect(res.body.details?.causes, contentType).toEqual([
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: "other-uid": field is immutable',
          field: 'metadata.uid',
        },
      ]);
    }
    const same = await api(server, 'PATCH', `${NS_BASE}/p`, { contentType: MERGE, body: { metadata: { uid } } });
    expect(same.status).toBe(200);
    const current = (await api(server, 'GET', `${NS_BASE}/p`)).body;
    const put = await api(server, 'PUT', `${NS_BASE}/p`, {
      body: { ...current, metadata: { ...current.metadata, uid: 'other-uid' } },
    });
    expect(put.status).toBe(409);
    expect(put.body.message).toContain(
      `Precondition failed: UID in precondition: other-uid, UID in object meta: ${uid}`,
    );
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
    // go-restful refuses it before the handler: the PATCH route Consumes only the patch types (jsr311.go detectRoute).
    expect(unsupported.body.message).toBe('415: Unsupported Media Type');
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
