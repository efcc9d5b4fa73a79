// Request paths as kube-apiserver's mux and RequestInfoFactory (k8s.io/apiserver/pkg/endpoints/request/
// requestinfo.go NewRequestInfo) read them: /apis/<group>/<version>[/watch][/namespaces/<ns>]/<resource>[/<name>],
// the deprecated /watch/ prefix setting Verb watch, and everything else a 404 of the mux.
import { describe, expect, it } from 'vitest';
import { LEASE_ROUTE_KEY, type Route, routeFor } from '../../../templates/k8s-lease-api-server/src/http/route.js';

const V1 = '/apis/coordination.k8s.io/v1';

describe('routeFor', () => {
  it.each<[string, Route]>([
    ['/version', { kind: 'version' }],
    ['/healthz', { kind: 'health' }],
    ['/readyz/', { kind: 'health' }],
    ['/api', { kind: 'discovery', document: 'api' }],
    ['/apis', { kind: 'discovery', document: 'apis' }],
    ['/apis/coordination.k8s.io', { kind: 'discovery', document: 'group' }],
    [V1, { kind: 'discovery', document: 'groupVersion' }],
    ['/apis/coordination.k8s.io/v1beta1', { kind: 'versionDiscovery', version: 'v1beta1' }],
    ['/openapi/v3', { kind: 'openapiIndex' }],
    [`/openapi/v3${V1}`, { kind: 'openapiDocument' }],
    ['/openapi/v3/apis/coordination.k8s.io/v1alpha2', { kind: 'openapiGroupVersion', version: 'v1alpha2' }],
    ['/openapi/v2', { kind: 'openapiV2' }],
    ['/api/v1/namespaces', { kind: 'namespaces' }],
    ['/api/v1/namespaces/team-a', { kind: 'namespace', name: 'team-a', subresource: undefined }],
    // The subresources kube-apiserver registers for namespaces (storage_core.go: namespaces/finalize, /status).
    ['/api/v1/namespaces/team-a/finalize', { kind: 'namespace', name: 'team-a', subresource: 'finalize' }],
    ['/api/v1/namespaces/team-a/status', { kind: 'namespace', name: 'team-a', subresource: 'status' }],
    ['/api/v1/namespaces/team-a/other', { kind: 'unknown' }],
    ['/api/v1/namespaces/team-a/finalize/x', { kind: 'unknown' }],
  ])('%s → %j', (path, route) => {
    expect(routeFor(path)).toEqual(route);
  });

  it.each<[string, Route]>([
    [`${V1}/leases`, { kind: 'collection', resource: LEASE_ROUTE_KEY, namespace: undefined, watchPath: false }],
    [
      `${V1}/namespaces/other/leases`,
      { kind: 'collection', resource: 'v1/leases', namespace: 'other', watchPath: false },
    ],
    [
      `${V1}/namespaces/other/leases/foo`,
      { kind: 'item', resource: 'v1/leases', namespace: 'other', name: 'foo', watchPath: false },
    ],
    [`${V1}/watch/leases`, { kind: 'collection', resource: 'v1/leases', namespace: undefined, watchPath: true }],
    [
      `${V1}/watch/namespaces/other/leases/foo`,
      { kind: 'item', resource: 'v1/leases', namespace: 'other', name: 'foo', watchPath: true },
    ],
    [
      '/apis/coordination.k8s.io/v1beta1/namespaces/kube-system/leasecandidates/c',
      { kind: 'item', resource: 'v1beta1/leasecandidates', namespace: 'kube-system', name: 'c', watchPath: false },
    ],
    [
      `${V1}/namespaces/other/leases/a%2Fb`,
      { kind: 'item', resource: 'v1/leases', namespace: 'other', name: 'a/b', watchPath: false },
    ],
    [
      `${V1}/namespaces/other/leases/`,
      { kind: 'collection', resource: 'v1/leases', namespace: 'other', watchPath: false },
    ],
  ])('%s → %j', (path, route) => {
    expect(routeFor(path)).toEqual(route);
  });

  it.each([
    '/',
    '/apis/apps/v1/deployments',
    '/apis/coordination.k8s.io/banana/leases',
    `${V1}/namespaces/other/leases/foo/status`,
    `${V1}/namespaces/other`,
    `${V1}/other/x/leases`,
    `${V1}/namespaces/%zz/leases`,
    `${V1}/namespaces/other/Leases`,
    '/api/v1/namespaces/a/b',
    '/api/v1/pods',
    '/openapi/v3/apis/coordination.k8s.io/latest',
  ])('%s is unknown (404)', (path) => {
    expect(routeFor(path)).toEqual({ kind: 'unknown' });
  });
});
