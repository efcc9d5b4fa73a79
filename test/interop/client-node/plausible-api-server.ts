/**
 * An API-server stand-in (the loopback server of test/helpers/loopback.ts) for the differential test: it
 * records every request verbatim and answers each with a plausible 200 JSON
 * body of the kind the operation returns (APIResourceList, LeaseList, Lease
 * or Status), so that both clients under comparison complete successfully.
 */
import { startLoopback } from '../../helpers/loopback.js';
import type { RecordedRequest } from '../../helpers/loopback.js';

export type { RecordedRequest };

export interface RecordingServer {
  readonly baseUrl: string;
  /** Returns and forgets everything recorded since the last call. */
  take(): RecordedRequest[];
  close(): Promise<void>;
}

const GROUP_VERSION = '/apis/coordination.k8s.io/v1';
const NAMESPACED_ITEM = /^\/apis\/coordination\.k8s\.io\/v1\/namespaces\/([^/]+)\/leases\/([^/]+)$/;
const NAMESPACED_COLLECTION = /^\/apis\/coordination\.k8s\.io\/v1\/namespaces\/([^/]+)\/leases$/;

const lease = (namespace: string, name: string): unknown => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: {
    name: decodeURIComponent(name),
    namespace: decodeURIComponent(namespace),
    uid: '9f6c2f5e-1a1b-4c3d-8e9f-0a1b2c3d4e5f',
    resourceVersion: '4242',
    creationTimestamp: '2024-05-01T11:00:00Z',
  },
  spec: {
    holderIdentity: 'node-a',
    leaseDurationSeconds: 15,
    acquireTime: '2024-05-01T12:00:00.123456Z',
    renewTime: '2024-05-01T12:00:05.654321Z',
    leaseTransitions: 3,
  },
});

const status = (): unknown => ({
  apiVersion: 'v1',
  kind: 'Status',
  metadata: {},
  status: 'Success',
  details: { group: 'coordination.k8s.io', kind: 'leases', name: 'demo' },
});

/** The body a real API server would answer with for this method and path. */
export function plausibleResponse(method: string, path: string): unknown {
  if (method === 'GET' && (path === GROUP_VERSION || path === `${GROUP_VERSION}/`)) {
    return {
      apiVersion: 'v1',
      kind: 'APIResourceList',
      groupVersion: 'coordination.k8s.io/v1',
      resources: [
        {
          name: 'leases',
          singularName: 'lease',
          namespaced: true,
          kind: 'Lease',
          verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
          storageVersionHash: 'gqkMMb/YqFM=',
        },
      ],
    };
  }
  const item = NAMESPACED_ITEM.exec(path);
  if (item !== null) {
    return method === 'DELETE' ? status() : lease(item[1] ?? '', item[2] ?? '');
  }
  const collection = NAMESPACED_COLLECTION.exec(path);
  if (collection !== null && method === 'POST') return lease(collection[1] ?? '', 'created');
  if (collection !== null && method === 'DELETE') return status();
  if ((collection !== null || path === `${GROUP_VERSION}/leases`) && method === 'GET') {
    return {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'LeaseList',
      metadata: { resourceVersion: '4243', continue: '' },
      items: [lease(collection?.[1] ?? 'default', 'demo')],
    };
  }
  return undefined;
}

export async function startPlausibleApiServer(): Promise<RecordingServer> {
  const loopback = await startLoopback();
  loopback.handler = (request, res) => {
    const body = plausibleResponse(request.method, request.url.split('?')[0] ?? '');
    if (body === undefined) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ apiVersion: 'v1', kind: 'Status', status: 'Failure', reason: 'NotFound', code: 404 }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  return {
    baseUrl: loopback.baseUrl,
    take: () => loopback.requests.splice(0),
    close: () => loopback.close(),
  };
}
