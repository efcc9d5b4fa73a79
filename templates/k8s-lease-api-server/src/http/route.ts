// Maps a request path to what it addresses; everything unknown is a 404 like the real server's mux.
import { API_PREFIX, GROUP, RESOURCE, VERSION } from '../lease-meta.js';

export type DiscoveryDocument = 'api' | 'apiV1' | 'apis' | 'group' | 'groupVersion';

export type Route =
  | { kind: 'version' }
  | { kind: 'health' }
  | { kind: 'discovery'; document: DiscoveryDocument }
  /** The APIResourceList of a group version other than v1 (LeaseCandidate's); 404 unless served. */
  | { kind: 'versionDiscovery'; version: string }
  | { kind: 'openapiIndex' }
  | { kind: 'openapiDocument' }
  /** /openapi/v3/apis/coordination.k8s.io/<version> for a version other than v1; 404 unless served. */
  | { kind: 'openapiGroupVersion'; version: string }
  | { kind: 'openapiV2' }
  /** `resource` is "<version>/<plural>", the key of the served resource table (ServerState.resources). */
  | { kind: 'collection'; resource: string; namespace: string | undefined; watchPath: boolean }
  | { kind: 'item'; resource: string; namespace: string; name: string; watchPath: boolean }
  | { kind: 'namespaces' }
  /** One namespace, or its finalize or status subresource. */
  | { kind: 'namespace'; name: string; subresource: 'finalize' | 'status' | undefined }
  | { kind: 'unknown' };

/** core/v1 namespaces: the one core resource served, so `kubectl create namespace` works. */
const CORE_NAMESPACES = '/api/v1/namespaces';

const STATIC: Record<string, Route> = {
  '/version': { kind: 'version' },
  '/healthz': { kind: 'health' },
  '/livez': { kind: 'health' },
  '/readyz': { kind: 'health' },
  '/api': { kind: 'discovery', document: 'api' },
  '/api/v1': { kind: 'discovery', document: 'apiV1' },
  '/apis': { kind: 'discovery', document: 'apis' },
  [`/apis/${GROUP}`]: { kind: 'discovery', document: 'group' },
  [API_PREFIX]: { kind: 'discovery', document: 'groupVersion' },
  '/openapi/v3': { kind: 'openapiIndex' },
  '/openapi/v2': { kind: 'openapiV2' },
  [`/openapi/v3${API_PREFIX}`]: { kind: 'openapiDocument' },
};

function decode(segment: string): string | undefined {
  try {
    const value = decodeURIComponent(segment);
    return value === '' ? undefined : value;
  } catch {
    return undefined;
  }
}

const GROUP_PREFIX = `/apis/${GROUP}/`;
const PLURAL = /^[a-z]+$/;

function resourceRoute(version: string, segments: string[], watchPath: boolean): Route {
  const plural = segments.length === 1 ? segments[0] : segments[2];
  if (plural === undefined || !PLURAL.test(plural)) return { kind: 'unknown' };
  const resource = `${version}/${plural}`;
  if (segments.length === 1) return { kind: 'collection', resource, namespace: undefined, watchPath };
  if (segments[0] !== 'namespaces') return { kind: 'unknown' };
  const namespace = decode(segments[1] ?? '');
  if (namespace === undefined) return { kind: 'unknown' };
  if (segments.length === 3) return { kind: 'collection', resource, namespace, watchPath };
  const name = decode(segments[3] ?? '');
  if (segments.length === 4 && name !== undefined) return { kind: 'item', resource, namespace, name, watchPath };
  return { kind: 'unknown' };
}

/** The key of the Lease in the resource table. */
export const LEASE_ROUTE_KEY: string = `${VERSION}/${RESOURCE}`;

export function routeFor(pathname: string): Route {
  const path = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  const fixed = STATIC[path];
  if (fixed !== undefined) return fixed;
  if (path === CORE_NAMESPACES) return { kind: 'namespaces' };
  if (path.startsWith(`${CORE_NAMESPACES}/`)) {
    const segments = path.slice(CORE_NAMESPACES.length + 1).split('/');
    const name = decode(segments[0] ?? '');
    const sub = segments[1];
    if (name === undefined || segments.length > 2) return { kind: 'unknown' };
    if (sub === undefined) return { kind: 'namespace', name, subresource: undefined };
    return sub === 'finalize' || sub === 'status' ? { kind: 'namespace', name, subresource: sub } : { kind: 'unknown' };
  }
  if (path.startsWith(`/openapi/v3${GROUP_PREFIX}`)) {
    const version = path.slice(`/openapi/v3${GROUP_PREFIX}`.length);
    return /^v[0-9]+[a-z0-9]*$/.test(version) ? { kind: 'openapiGroupVersion', version } : { kind: 'unknown' };
  }
  if (!path.startsWith(GROUP_PREFIX)) return { kind: 'unknown' };
  const [version = '', ...segments] = path.slice(GROUP_PREFIX.length).split('/');
  if (!/^v[0-9]+[a-z0-9]*$/.test(version)) return { kind: 'unknown' };
  if (segments.length === 0) return { kind: 'versionDiscovery', version };
  if (segments[0] === 'watch') return resourceRoute(version, segments.slice(1), true);
  return resourceRoute(version, segments, false);
}

/**
 * Whether kube-apiserver's director hands the path to go-restful (pkg/server/handler.go director.ServeHTTP):
 * it is under a registered web service's root — the group's (/apis/coordination.k8s.io) or core v1's — so an
 * unknown resource, subresource or version there is go-restful's JSON 404, not the plain mux's.
 */
export function underRestfulService(pathname: string): boolean {
  return pathname.startsWith(`/apis/${GROUP}/`) || pathname.startsWith('/api/v1/');
}
