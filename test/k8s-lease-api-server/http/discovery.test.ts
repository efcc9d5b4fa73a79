import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import { startLeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import { BASE, api, openApi130, start } from '../helpers.js';

const AGGREGATED_V2 =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';
const AGGREGATED_V2BETA1 = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';

describe('discovery', () => {
  let server: LeaseApiServer;
  beforeAll(async () => {
    server = await start({ release: '1.31.1' });
  });
  afterAll(() => server.close());

  it('serves /version for the configured release', async () => {
    const res = await api(server, 'GET', '/version');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ major: '1', minor: '31', gitVersion: 'v1.31.1', platform: 'linux/amd64' });
  });

  it('serves /api and an /api/v1 listing only namespaces and their subresources, with the verbs served', async () => {
    const apiRes = await api(server, 'GET', '/api');
    expect(apiRes.body).toMatchObject({ kind: 'APIVersions', versions: ['v1'] });
    const v1 = await api(server, 'GET', '/api/v1');
    expect(v1.body).toEqual({
      kind: 'APIResourceList',
      groupVersion: 'v1',
      resources: [
        {
          name: 'namespaces',
          singularName: 'namespace',
          namespaced: false,
          kind: 'Namespace',
          verbs: ['create', 'delete', 'get', 'list', 'watch'],
          shortNames: ['ns'],
          storageVersionHash: 'Q3oi5N2YM8M=',
        },
        // storage_core.go registers namespaces/finalize and namespaces/status; subresources have no singularName.
        { name: 'namespaces/finalize', singularName: '', namespaced: false, kind: 'Namespace', verbs: ['update'] },
        { name: 'namespaces/status', singularName: '', namespaced: false, kind: 'Namespace', verbs: ['get'] },
      ],
    });
  });

  it('lists coordination.k8s.io/v1 as the preferred version in /apis and /apis/coordination.k8s.io', async () => {
    const preferred = { groupVersion: 'coordination.k8s.io/v1', version: 'v1' };
    const groups = await api(server, 'GET', '/apis');
    expect(groups.body).toEqual({
      kind: 'APIGroupList',
      apiVersion: 'v1',
      groups: [{ name: 'coordination.k8s.io', versions: [preferred], preferredVersion: preferred }],
    });
    const group = await api(server, 'GET', '/apis/coordination.k8s.io');
    expect(group.body).toMatchObject({ kind: 'APIGroup', name: 'coordination.k8s.io', preferredVersion: preferred });
  });

  it('describes the leases resource in the group-version resource list', async () => {
    for (const path of [BASE, `${BASE}/`]) {
      const res = await api(server, 'GET', path);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ kind: 'APIResourceList', groupVersion: 'coordination.k8s.io/v1' });
      expect(res.body['resources']).toEqual([
        expect.objectContaining({
          name: 'leases',
          singularName: 'lease',
          namespaced: true,
          kind: 'Lease',
          verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
        }),
      ]);
    }
  });

  it('serves aggregated discovery v2 and v2beta1 when asked, with the matching content type', async () => {
    const v2 = await api(server, 'GET', '/apis', { headers: { Accept: AGGREGATED_V2 } });
    expect(v2.headers.get('content-type')).toBe('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
    expect(v2.body).toMatchObject({ kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2' });
    expect(v2.body.items).toEqual([
      {
        metadata: { creationTimestamp: null, name: 'coordination.k8s.io' },
        versions: [
          {
            version: 'v1',
            freshness: 'Current',
            resources: [
              expect.objectContaining({
                resource: 'leases',
                scope: 'Namespaced',
                singularResource: 'lease',
                responseKind: { group: '', version: '', kind: 'Lease' },
              }),
            ],
          },
        ],
      },
    ]);
    const core = await api(server, 'GET', '/api', { headers: { Accept: AGGREGATED_V2BETA1 } });
    expect(core.headers.get('content-type')).toContain('v=v2beta1');
    expect(core.body).toMatchObject({
      apiVersion: 'apidiscovery.k8s.io/v2beta1',
      items: [
        {
          versions: [
            {
              version: 'v1',
              resources: [
                {
                  resource: 'namespaces',
                  responseKind: { group: '', version: '', kind: 'Namespace' },
                  scope: 'Cluster',
                  singularResource: 'namespace',
                  verbs: ['create', 'delete', 'get', 'list', 'watch'],
                  shortNames: ['ns'],
                  subresources: [
                    { subresource: 'finalize', verbs: ['update'] },
                    { subresource: 'status', verbs: ['get'] },
                  ],
                },
              ],
            },
          ],
        },
      ],
    });
  });

  it('falls back to the legacy documents when aggregated discovery is disabled', async () => {
    const legacy = await startLeaseApiServer({ aggregatedDiscovery: false });
    try {
      const res = await api(legacy, 'GET', '/apis', { headers: { Accept: AGGREGATED_V2 } });
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(res.body.kind).toBe('APIGroupList');
    } finally {
      await legacy.close();
    }
  });

  it('serves the OpenAPI v3 index and the coordination.k8s.io/v1 document it points to', async () => {
    const index = await api(server, 'GET', '/openapi/v3');
    const entry = (index.body['paths'] as Record<string, { serverRelativeURL: string }>)['apis/coordination.k8s.io/v1'];
    expect(entry?.serverRelativeURL).toMatch(/^\/openapi\/v3\/apis\/coordination\.k8s\.io\/v1\?hash=[0-9A-F]{128}$/);
    const doc = await api(server, 'GET', entry?.serverRelativeURL ?? '');
    expect(doc.status).toBe(200);
    expect(doc.headers.get('cache-control')).toBe('public, immutable');
    expect(Object.keys(doc.body['paths'] as object)).toContain(
      '/apis/coordination.k8s.io/v1/namespaces/{namespace}/leases/{name}',
    );
    const etag = doc.headers.get('etag') ?? '';
    const cached = await api(server, 'GET', '/openapi/v3/apis/coordination.k8s.io/v1', {
      headers: { 'If-None-Match': etag },
    });
    expect(cached.status).toBe(304);
  });

  it('serves a built-in OpenAPI document when none is given', async () => {
    const bare = await startLeaseApiServer();
    try {
      const doc = await api(bare, 'GET', '/openapi/v3/apis/coordination.k8s.io/v1');
      const schemas = (doc.body['components'] as { schemas: Record<string, { properties?: Record<string, unknown> }> })
        .schemas;
      expect(Object.keys(schemas['io.k8s.api.coordination.v1.LeaseSpec']?.properties ?? {})).toContain(
        'preferredHolder',
      );
    } finally {
      await bare.close();
    }
  });

  it('serves /openapi/v2 as gnostic protobuf for old kubectl and as JSON otherwise', async () => {
    const pb = await fetch(`${server.url}/openapi/v2`, {
      headers: { Accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' },
    });
    expect(pb.headers.get('content-type')).toBe('application/com.github.proto-openapi.spec.v2.v1.0+protobuf');
    const bytes = Buffer.from(await pb.arrayBuffer());
    expect(bytes.subarray(0, 5)).toEqual(Buffer.from([0x0a, 0x03, 0x32, 0x2e, 0x30]));
    expect(bytes.includes(Buffer.from('fieldValidation'))).toBe(true);
    const json = await api(server, 'GET', '/openapi/v2');
    expect(json.body['swagger']).toBe('2.0');
  });

  it('answers health probes and 404s unknown paths with a Status', async () => {
    const health = await fetch(`${server.url}/healthz`);
    expect(await health.text()).toBe('ok');
    const missing = await api(server, 'GET', '/apis/apps/v1');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      reason: 'NotFound',
      code: 404,
    });
  });

  it('keeps serving the caller-provided document byte-for-byte in content', async () => {
    const doc = openApi130();
    const custom = await startLeaseApiServer({ openapi: doc });
    try {
      const served = await api(custom, 'GET', '/openapi/v3/apis/coordination.k8s.io/v1');
      expect(served.body).toEqual(doc);
    } finally {
      await custom.close();
    }
  });
});
