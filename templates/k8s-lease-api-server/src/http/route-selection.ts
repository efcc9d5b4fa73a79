// go-restful's route selection for a resource path (github.com/emicklei/go-restful/v3 jsr311.go
// RouterJSR311.detectRoute, which CurlyRouter uses): the routes the apiserver's installer registered for the
// path are filtered by method (405), then by Content-Type against each route's Consumes (415), then by Accept
// against its Produces (406). The refusal goes through apiserver's serviceErrorHandler
// (pkg/server/handler.go): apierrors.NewGenericServerResponse(code, "", {}, "", message, 0, false), a Status
// whose details are empty, written by ErrorNegotiated. No handler runs, so no body is read.
import type { StatusError } from '../status.js';
import { methodNotAllowed } from '../status.js';
import { supportedMediaTypes } from './negotiation.js';

/** Where a resource request lands: its collection, one object, or either under the deprecated /watch/ prefix. */
export interface ResourcePath {
  kind: 'collection' | 'item';
  namespaced: boolean;
  watchPath: boolean;
}

/** A route the installer registers (pkg/endpoints/installer.go registerResourceHandlers). */
interface RouteSpec {
  method: string;
  consumes: readonly string[];
  produces: readonly string[];
}

/** installer.go's PATCH route: Consumes(supportedTypes...) — CBOR apply only with CBORServingAndStorage, off here. */
export const PATCH_CONSUMES: readonly string[] = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
];

/**
 * The routes of a path. GET, PUT, PATCH, POST, DELETE and DELETECOLLECTION produce mediaTypes; LIST and the
 * /watch/ routes produce allMediaTypes (mediaTypes and the stream media types); only PATCH declares Consumes.
 */
function routesFor(path: ResourcePath): RouteSpec[] {
  const media = supportedMediaTypes(false);
  const all = [...media, ...supportedMediaTypes(true)];
  const route = (method: string, produces: readonly string[], consumes: readonly string[] = []): RouteSpec => ({
    method,
    consumes,
    produces,
  });
  if (path.watchPath) return [route('GET', all)];
  if (path.kind === 'item')
    return [route('GET', media), route('PUT', media), route('PATCH', media, PATCH_CONSUMES), route('DELETE', media)];
  // The cluster-wide collection has LIST only; POST and DELETECOLLECTION are per namespace.
  if (!path.namespaced) return [route('GET', all)];
  return [route('GET', all), route('POST', media), route('DELETE', media)];
}

/**
 * go-restful's media-type lists are read clause by clause (split at ","), each cut at its first ";" and
 * trimmed of spaces — no q-values, no wildcards but "*∕*" as a whole, and case-sensitive.
 */
function clauses(header: string): string[] {
  return header.split(',').map((clause) => {
    const semicolon = clause.indexOf(';');
    return (semicolon === -1 ? clause : clause.slice(0, semicolon)).replace(/^ +| +$/g, '');
  });
}

/** Route.matchesContentType: no Consumes takes anything; no Content-Type is application/octet-stream for a PATCH. */
function consumes(route: RouteSpec, contentType: string): boolean {
  if (route.consumes.length === 0) return true;
  if (contentType === '' && ['GET', 'HEAD', 'OPTIONS', 'DELETE', 'TRACE'].includes(route.method)) return true;
  const types = clauses(contentType === '' ? 'application/octet-stream' : contentType);
  return types.some((type) => route.consumes.includes(type));
}

/** Route.matchesAccept: some clause is "*∕*" or exactly one of the produced types; no Accept is "*∕*". */
function produces(route: RouteSpec, accept: string): boolean {
  return clauses(accept === '' ? '*/*' : accept).some((type) => type === '*/*' || route.produces.includes(type));
}

/** serviceErrorHandler's Status: NewGenericServerResponse keeps the router's message for 406 and 415. */
function refusal(code: 406 | 415, reason: string, message: string): StatusError {
  return { code, reason, message, details: {} };
}

/**
 * The router's refusal of a resource request, or undefined when a route takes it. `accept` and
 * `contentType` are the headers as sent ('' when absent).
 */
export function selectRoute(
  path: ResourcePath,
  method: string,
  contentType: string,
  accept: string,
): StatusError | undefined {
  const byMethod = routesFor(path).filter((route) => route.method === method);
  if (byMethod.length === 0) return methodNotAllowed();
  const byType = byMethod.filter((route) => consumes(route, contentType));
  if (byType.length === 0) return refusal(415, 'UnsupportedMediaType', '415: Unsupported Media Type');
  if (byType.some((route) => produces(route, accept))) return undefined;
  const available = byType.flatMap((route) => route.produces).join(', ');
  return refusal(406, 'NotAcceptable', `406: Not Acceptable\n\nAvailable representations: ${available}`);
}
