// What the apiserver's RequestInfo resolver (pkg/endpoints/request/requestinfo.go) makes of a routed request,
// as far as filters need it: a resource request's verb, group, resource and namespace, or a path and verb.
import { GROUP } from '../lease-meta.js';
import { requestVerb } from './faults.js';
import type { FlowRequest } from './flow-control.js';
import type { Route } from './route.js';

const COLLECTION_VERBS: Readonly<Record<string, string>> = { GET: 'list', POST: 'create', DELETE: 'deletecollection' };
const ITEM_VERBS: Readonly<Record<string, string>> = { GET: 'get', PUT: 'update', PATCH: 'patch', DELETE: 'delete' };

/** core/v1 namespaces: a namespace's own namespace is its name (requestinfo.go reads /namespaces/{name}). */
function coreNamespaces(verb: string, namespace: string): FlowRequest {
  return { kind: 'resource', verb, group: '', resource: 'namespaces', namespace };
}

/** `watch` as dispatch decides it for the Lease routes (the core namespaces are not watched here). */
export function requestInfo(route: Route, method: string, watch: boolean, pathname: string): FlowRequest {
  const verb = requestVerb(route, method, watch);
  switch (route.kind) {
    case 'collection':
    case 'item':
      return {
        kind: 'resource',
        verb,
        group: GROUP,
        resource: route.resource.split('/')[1] ?? '',
        namespace: route.namespace ?? '',
      };
    case 'namespaces':
      return coreNamespaces(COLLECTION_VERBS[method] ?? verb, '');
    case 'namespace':
      return coreNamespaces(ITEM_VERBS[method] ?? verb, route.name);
    default:
      return { kind: 'nonResource', verb, path: pathname };
  }
}
