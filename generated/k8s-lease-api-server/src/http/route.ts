// Copied by lease-api-generator from templates/server/http/route.ts. DO NOT EDIT: edit that file and run `npm run generate`.
// Maps a request path to what it addresses; everything unknown is a 404 like the real server's mux.
import { API_PREFIX, GROUP, RESOURCE } from '../lease-meta.js';

export type DiscoveryDocument = 'api' | 'apiV1' | 'apis' | 'group' | 'groupVersion';

export type Route =
  | { kind: 'version' }
  | { kind: 'health' }
  | { kind: 'discovery'; document: DiscoveryDocument }
  | { kind: 'openapiIndex' }
  | { kind: 'openapiDocument' }
  | { kind: 'openapiV2' }
  | { kind: 'collection'; namespace: string | undefined; watchPath: boolean }
  | { kind: 'item'; namespace: string; name: string; watchPath: boolean }
  | { kind: 'namespaces' }
  | { kind: 'namespace'; name: string }
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

function resourceRoute(segments: string[], watchPath: boolean): Route {
  if (segments.length === 1 && segments[0] === RESOURCE) return { kind: 'collection', namespace: undefined, watchPath };
  if (segments[0] !== 'namespaces' || segments[2] !== RESOURCE) return { kind: 'unknown' };
  const namespace = decode(segments[1] ?? '');
  if (namespace === undefined) return { kind: 'unknown' };
  if (segments.length === 3) return { kind: 'collection', namespace, watchPath };
  const name = decode(segments[3] ?? '');
  if (segments.length === 4 && name !== undefined) return { kind: 'item', namespace, name, watchPath };
  return { kind: 'unknown' };
}

export function routeFor(pathname: string): Route {
  const path = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  const fixed = STATIC[path];
  if (fixed !== undefined) return fixed;
  if (path === CORE_NAMESPACES) return { kind: 'namespaces' };
  if (path.startsWith(`${CORE_NAMESPACES}/`)) {
    const segments = path.slice(CORE_NAMESPACES.length + 1).split('/');
    const name = decode(segments[0] ?? '');
    return segments.length === 1 && name !== undefined ? { kind: 'namespace', name } : { kind: 'unknown' };
  }
  if (!path.startsWith(`${API_PREFIX}/`)) return { kind: 'unknown' };
  const segments = path.slice(API_PREFIX.length + 1).split('/');
  if (segments[0] === 'watch') return resourceRoute(segments.slice(1), true);
  return resourceRoute(segments, false);
}
