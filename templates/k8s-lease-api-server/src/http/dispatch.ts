// The request pipeline: record, inject faults, authenticate, route, and turn any thrown bug into a 500 Status.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { serveNamespace, serveNamespaces } from '../namespaces/namespace-handler.js';
import { VERSION } from '../lease-meta.js';
import type { StatusError } from '../status.js';
import { internalError, methodNotAllowed, pathNotFound, routeNotFound, tooManyRequests } from '../status.js';
import { authenticate, callerGroups } from './auth.js';
import { closeAfterReply } from './body.js';
import { admitBody } from './body-admission.js';
import { setAuditId } from './audit-id.js';
import { allowCompression } from './compression.js';
import { classify, flowControlHeaders } from './flow-control.js';
import { requestInfo } from './request-info.js';
import { authorizationFailure } from './authorization.js';
import { applyCors } from './cors.js';
import type { StreamFault } from './faults.js';
import { requestVerb } from './faults.js';
import { serveDelete, serveDeleteCollection } from './handlers/delete.js';
import {
  serveDiscovery,
  serveHealth,
  serveOpenApiIndex,
  serveOpenApiGroupVersion,
  serveOpenApiV2,
  serveVersion,
} from './handlers/discovery.js';
import { negotiateResponse, serveGet, serveList } from './handlers/read.js';
import { serveWatchRequest } from './handlers/watch-request.js';
import { fail } from './answer.js';
import { serveCreate, servePatch, serveUpdate } from './handlers/write.js';
import { parseAccept } from './negotiation.js';
import type { RequestContext } from './request-context.js';
import { parseListRequest, parseQueryBool } from './request-options.js';
import { escapeFieldValue } from '../selectors/field-selector.js';
import { sendJsonText, sendStatus, warningHeaders } from './respond.js';
import type { Route } from './route.js';
import type { OperationContext } from '../operations/context.js';
import { routeFor, underRestfulService } from './route.js';
import { selectRoute } from './route-selection.js';
import type { RequestRecord, ServerState } from './server-state.js';
import { REQUEST_LOG_LIMIT } from './server-state.js';

/** A request RequestInfo calls a resource request: the Leases' (and LeaseCandidates') routes and the namespaces'. */
function isResourceRoute(route: Route): boolean {
  return (
    route.kind === 'collection' || route.kind === 'item' || route.kind === 'namespaces' || route.kind === 'namespace'
  );
}

function isWatchRequest(route: Route, query: URLSearchParams): boolean {
  if (route.kind !== 'collection' && route.kind !== 'item') return false;
  return route.watchPath || (route.kind === 'collection' && parseQueryBool(query.get('watch')) === true);
}

function record(state: ServerState, req: IncomingMessage, res: ServerResponse, url: URL): RequestRecord {
  const entry: RequestRecord = {
    method: req.method ?? 'GET',
    path: url.pathname,
    query: url.search,
    status: 0,
    userAgent: req.headers['user-agent'] ?? '',
    contentType: req.headers['content-type'] ?? '',
    accept: req.headers.accept ?? '',
    user: '',
  };
  state.requestLog.push(entry);
  if (state.requestLog.length > REQUEST_LOG_LIMIT)
    state.requestLog.splice(0, state.requestLog.length - REQUEST_LOG_LIMIT);
  const done = (): void => {
    entry.status = res.statusCode;
  };
  res.once('finish', done);
  res.once('close', done);
  return entry;
}

async function serveCollectionRead(
  ctx: RequestContext,
  namespace: string | undefined,
  forceWatch: boolean,
  name: string | undefined,
  fault: StreamFault | undefined,
): Promise<void> {
  const query = new URLSearchParams(ctx.url.searchParams);
  if (name !== undefined) {
    const existing = query.get('fieldSelector');
    const term = `metadata.name=${escapeFieldValue(name)}`;
    query.set('fieldSelector', existing === null || existing === '' ? term : `${existing},${term}`);
  }
  const request = parseListRequest(query, namespace, forceWatch, ctx.state.watchList, ctx.state.ops.valueStyle);
  const watching = request.ok ? request.value.watch : forceWatch || parseQueryBool(query.get('watch')) === true;
  const denied = authorizationFailure(ctx, watching ? 'watch' : 'list', namespace);
  if (denied !== undefined) return sendStatus(ctx.res, denied);
  // ListResource: the output media type is negotiated before the options are read.
  const representation = negotiateResponse(ctx);
  if (representation === undefined) return;
  if (!request.ok) return fail(ctx, request.error);
  if (!request.value.watch) return serveList(ctx, request.value, representation);
  const { store, resource } = ctx.state.ops;
  return serveWatchRequest(ctx, request.value, representation, { store, resource }, fault);
}

/** The request's context with the operations of the resource it addresses; undefined when that resource is not served. */
function forResource(ctx: RequestContext, key: string): RequestContext | undefined {
  const ops: OperationContext | undefined = ctx.state.resources.get(key);
  if (ops === undefined) return undefined;
  return ops === ctx.state.ops ? ctx : { ...ctx, state: { ...ctx.state, ops } };
}

async function serveRoute(ctx: RequestContext, route: Route, fault: StreamFault | undefined): Promise<void> {
  if (route.kind === 'collection' || route.kind === 'item') {
    const scoped = forResource(ctx, route.resource);
    return scoped === undefined ? sendStatus(ctx.res, routeNotFound()) : serveResource(scoped, route, fault);
  }
  switch (route.kind) {
    case 'versionDiscovery': {
      const document = ctx.state.discovery.versions[route.version];
      return document === undefined
        ? sendStatus(ctx.res, routeNotFound())
        : sendJsonText(ctx.res, 200, document, { Vary: 'Accept' });
    }
    case 'version':
      return serveVersion(ctx);
    case 'health':
      return serveHealth(ctx);
    case 'discovery':
      return serveDiscovery(ctx, route.document);
    case 'openapiIndex':
      return serveOpenApiIndex(ctx);
    case 'openapiDocument':
      return void serveOpenApiGroupVersion(ctx, VERSION);
    case 'openapiGroupVersion':
      return serveOpenApiGroupVersion(ctx, route.version) ? undefined : sendStatus(ctx.res, pathNotFound());
    case 'openapiV2':
      return serveOpenApiV2(ctx);
    case 'unknown':
      return sendStatus(ctx.res, underRestfulService(ctx.url.pathname) ? routeNotFound() : pathNotFound());
    case 'namespaces':
      return serveNamespaces(ctx);
    case 'namespace':
      return serveNamespace(ctx, route.name, route.subresource);
  }
}

/**
 * go-restful's refusal of the request before any handler (route-selection.ts) — after the authorization
 * filter, which runs first in kube-apiserver's chain, so a caller denied the verb still gets its 403.
 */
function routerRefusal(
  ctx: RequestContext,
  route: Extract<Route, { kind: 'collection' | 'item' }>,
  method: string,
): StatusError | undefined {
  const path = { kind: route.kind, namespaced: route.namespace !== undefined, watchPath: route.watchPath };
  const refused = selectRoute(path, method, ctx.req.headers['content-type'] ?? '', ctx.req.headers.accept ?? '');
  if (refused === undefined) return undefined;
  const verb = requestVerb(route, method, isWatchRequest(route, ctx.url.searchParams));
  return authorizationFailure(ctx, verb, route.namespace) ?? refused;
}

async function serveResource(
  ctx: RequestContext,
  route: Extract<Route, { kind: 'collection' | 'item' }>,
  fault: StreamFault | undefined,
): Promise<void> {
  const method = ctx.req.method ?? 'GET';
  const refused = routerRefusal(ctx, route, method);
  if (refused !== undefined) {
    ctx.req.resume();
    return sendStatus(ctx.res, refused);
  }
  switch (route.kind) {
    case 'collection':
      if (method === 'GET') return serveCollectionRead(ctx, route.namespace, route.watchPath, undefined, fault);
      if (route.namespace !== undefined && !route.watchPath && method === 'POST')
        return serveCreate(ctx, route.namespace);
      if (route.namespace !== undefined && !route.watchPath && method === 'DELETE')
        return serveDeleteCollection(ctx, route.namespace);
      return sendStatus(ctx.res, methodNotAllowed());
    case 'item':
      if (route.watchPath) {
        return method === 'GET'
          ? serveCollectionRead(ctx, route.namespace, true, route.name, fault)
          : sendStatus(ctx.res, methodNotAllowed());
      }
      switch (method) {
        case 'GET': {
          const denied = authorizationFailure(ctx, 'get', route.namespace);
          return denied === undefined ? serveGet(ctx, route.namespace, route.name) : sendStatus(ctx.res, denied);
        }
        case 'PUT':
          return serveUpdate(ctx, route.namespace, route.name);
        case 'PATCH':
          return servePatch(ctx, route.namespace, route.name);
        case 'DELETE':
          return serveDelete(ctx, route.namespace, route.name);
        default:
          return sendStatus(ctx.res, methodNotAllowed());
      }
  }
}

/**
 * Serves the request once its user may have its body read (body-admission.ts): a full queue is APF's 429
 * (server/filters/maxinflight.go tooManyRequests: "Too many requests, please try again later.", Retry-After 1)
 * with the body left unread, so the connection closes after it. The seat is held until the request is
 * answered, or, when its body was refused unread, until its connection is closed (rstAvoidanceDelay later,
 * body.ts): APF gives the seat back when the handler returns, but a refused upload still occupies the
 * connection, so one user's stream of refused bodies is paced by it rather than answered as fast as it comes.
 */
async function serveAdmitted(ctx: RequestContext, serve: () => Promise<void>, watch: boolean): Promise<void> {
  const { req, res } = ctx;
  const admission = watch ? undefined : await admitBody(req, ctx.user);
  if (admission?.kind === 'busy') {
    closeAfterReply(req, res);
    return sendStatus(res, tooManyRequests(1));
  }
  if (admission?.kind !== 'admitted') return serve();
  const { release } = admission;
  // A client that went away while waiting has no body left to read.
  if (req.socket.destroyed) return release();
  req.socket.once('close', release);
  try {
    await serve();
  } finally {
    if (res.getHeader('connection') !== 'close') {
      req.socket.off('close', release);
      release();
    }
  }
}

export async function handleRequest(state: ServerState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const entry = record(state, req, res, url);
  try {
    setAuditId(req, res);
    if (applyCors(state.cors, req, res)) return;
    const route = routeFor(url.pathname);
    const latency = state.faults.latencyMs;
    if (latency > 0) await sleep(latency);
    const method = req.method ?? 'GET';
    const watch = isWatchRequest(route, url.searchParams);
    const fault = state.faults.take({
      method,
      headers: req.headers,
      path: url.pathname,
      query: url.searchParams,
      watch,
      verb: requestVerb(route, method, watch),
    });
    if (fault?.kind === 'respond') {
      req.resume();
      return sendJsonText(res, fault.response.code, fault.response.body, fault.response.headers);
    }
    if (fault?.kind === 'reset') {
      if (!fault.afterCommit) return void req.socket.destroy();
      // Handled as usual, but the answer never leaves: the first write of the response kills the connection.
      res.writeHead = (): ServerResponse => {
        req.socket.destroy();
        return res;
      };
    }
    const publicEndpoint = route.kind === 'version' || route.kind === 'health';
    const auth = authenticate(req, state.auth, publicEndpoint);
    // kube-apiserver's warning recorder puts it on whatever the answer is; no handler that adds warnings of its
    // own runs for a request whose token was refused.
    if (auth.warning !== undefined)
      for (const [name, values] of Object.entries(warningHeaders([auth.warning]))) res.setHeader(name, values);
    if (!auth.ok) {
      req.resume();
      return sendStatus(res, auth.error);
    }
    entry.user = auth.user;
    // The APF filter runs after authentication and before authorization: a 403 is classified, a 401 is not.
    const subject = { user: auth.user, groups: callerGroups(req, state.auth, auth.user) };
    for (const [name, value] of Object.entries(
      flowControlHeaders(classify(subject, requestInfo(route, method, watch, url.pathname))),
    ))
      res.setHeader(name, value);
    if (isResourceRoute(route) && !watch) allowCompression(res);
    const ctx: RequestContext = { req, res, url, state, accept: parseAccept(req.headers.accept), user: auth.user };
    await serveAdmitted(ctx, () => serveRoute(ctx, route, fault?.kind === 'stream' ? fault.fault : undefined), watch);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    if (!res.headersSent) sendStatus(res, internalError(message));
    else res.destroy();
  }
}
