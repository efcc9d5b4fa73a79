// Answering a resource request in the representation the client negotiated — transformResponseObject
// in k8s.io/apiserver/pkg/endpoints/handlers/response.go: TableOptions read and validated first, then
// the object (or list) transformed to the requested target, then written in JSON, YAML or protobuf.
// Failures go out as ErrorNegotiated would write them.
import type { JsonObject } from '../json.js';
import type { ResourceInfo } from '../lease-meta.js';
import { typedJson } from '../serialize.js';
import type { StatusError } from '../status.js';
import type { Representation } from './negotiation.js';
import type { ObjectType } from './protobuf-hook.js';
import { isPrettyPrint } from './negotiation.js';
import type { RequestContext } from './request-context.js';
import type { Payload } from './respond.js';
import { payloadOf, payloadOfJson, sendRepresented, sendStatus } from './respond.js';
import type { Subject } from './transform.js';
import { tableOptionsFor, transformObject } from './transform.js';

/** A failure Status in the request's negotiated media type. */
export function fail(ctx: RequestContext, error: StatusError, headers: Record<string, string | string[]> = {}): void {
  sendStatus(ctx.res, error, headers);
}

/**
 * Sends `subject` as `representation` asks; `plain` is the untransformed response (the cached JSON
 * of a stored object, or a list's JSON), used when no transformation was asked for.
 */
export function answer(
  ctx: RequestContext,
  code: number,
  representation: Representation,
  subject: Subject,
  plain: Payload,
  headers: Record<string, string | string[]> = {},
  resource: ResourceInfo = ctx.state.ops.resource,
): void {
  const pretty = representation.pretty || isPrettyPrint(ctx.url.searchParams, ctx.req.headers['user-agent']);
  const shape = { mediaType: representation.mediaType, pretty };
  const target = representation.target;
  if (target === undefined) return sendRepresented(ctx.res, code, shape, plain, headers);
  const options = tableOptionsFor(target, ctx.url.searchParams);
  if (!options.ok) return fail(ctx, options.error, headers);
  const transformed = transformObject(subject, target, options.value, {
    resource,
    now: ctx.state.ops.now(),
  });
  if (!transformed.ok) return fail(ctx, transformed.error, headers);
  sendRepresented(ctx.res, code, shape, payloadOf(transformed.value), headers);
}

/** The kind and apiVersion a resource's objects are served with. */
export function resourceType(resource: ResourceInfo): ObjectType {
  return { apiVersion: resource.groupVersion, kind: resource.kind };
}

/** A stored object as a single-object answer (create, update, patch, get). */
export function sendObject(
  ctx: RequestContext,
  code: number,
  representation: Representation,
  object: JsonObject,
  headers: Record<string, string | string[]> = {},
): void {
  const { resource } = ctx.state.ops;
  const plain = payloadOfJson(typedJson(object, resource), () => object, resourceType(resource));
  answer(ctx, code, representation, { kind: 'object', object }, plain, headers);
}
