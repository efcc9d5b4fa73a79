// DELETE of one Lease and DELETE of a collection (the deleted LeaseList).
// Lease storage does not set ReturnDeletedObject, so an immediate delete answers
// with a Success Status; an object kept by finalizers is returned as it now is.
import { objectAt, stringAt } from '../../json.js';
import { deleteCollection, deleteLease } from '../../operations/delete.js';
import { listLeases } from '../../operations/list.js';
import { storeKey } from '../../store/lease-store.js';
import { authorizationFailure } from '../authorization.js';
import { readBody } from '../body.js';
import type { RequestContext } from '../request-context.js';
import { parseDeleteOptions, parseListRequest } from '../request-options.js';
import { payloadOf, payloadOfJson, sendRepresented, sendStatus } from '../respond.js';
import { answer, fail, sendObject } from '../answer.js';
import { listResponseJson, negotiateResponse } from './read.js';
import type { JsonObject } from '../../json.js';

export async function serveDelete(ctx: RequestContext, namespace: string, name: string): Promise<void> {
  const denied = authorizationFailure(ctx, 'delete', namespace);
  if (denied !== undefined) return sendStatus(ctx.res, denied);
  const representation = negotiateResponse(ctx);
  if (representation === undefined) return void ctx.req.resume();
  const body = await readBody(ctx.req, ctx.res);
  if (!body.ok) return fail(ctx, body.error);
  const options = parseDeleteOptions(ctx.url.searchParams, body.value);
  if (!options.ok) return fail(ctx, options.error);
  const deleted = deleteLease(ctx.state.ops, namespace, name, options.value);
  if (!deleted.ok) return fail(ctx, deleted.error);
  const metadata = objectAt(deleted.value, 'metadata');
  const finalizers = metadata === undefined ? undefined : metadata['finalizers'];
  const kept = Array.isArray(finalizers) && finalizers.length > 0;
  if (kept) return sendObject(ctx, 200, representation, deleted.value);
  // doTransformObject passes a Status through whatever the client asked to convert to.
  const status = deletedStatus(
    name,
    metadata === undefined ? undefined : stringAt(metadata, 'uid'),
    ctx.state.ops.resource.plural,
  );
  sendRepresented(
    ctx.res,
    200,
    { mediaType: representation.mediaType, pretty: representation.pretty },
    payloadOf(status),
  );
}

export async function serveDeleteCollection(ctx: RequestContext, namespace: string): Promise<void> {
  const denied = authorizationFailure(ctx, 'deletecollection', namespace);
  if (denied !== undefined) return sendStatus(ctx.res, denied);
  const representation = negotiateResponse(ctx);
  if (representation === undefined) return void ctx.req.resume();
  const body = await readBody(ctx.req, ctx.res);
  if (!body.ok) return fail(ctx, body.error);
  const options = parseDeleteOptions(ctx.url.searchParams, body.value);
  if (!options.ok) return fail(ctx, options.error);
  const request = parseListRequest(ctx.url.searchParams, namespace, false);
  if (!request.ok) return fail(ctx, request.error);
  const { store } = ctx.state.ops;
  const page = listLeases(store, { ...request.value, limit: undefined, continueToken: undefined });
  if (!page.ok) return fail(ctx, page.error);
  const keys = page.value.items.map((item) => storeKey(namespace, stringAt(objectAt(item, 'metadata'), 'name') ?? ''));
  const deleted = deleteCollection(ctx.state.ops, keys, options.value);
  const rv = String(store.resourceVersion);
  const subject = { kind: 'list' as const, items: deleted, meta: { resourceVersion: rv } };
  const plain = payloadOfJson(listResponseJson(deleted, store.resourceVersion, ctx.state.ops.resource));
  answer(ctx, 200, representation, subject, plain);
}

function deletedStatus(name: string, uid: string | undefined, plural: string): JsonObject {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    details: { name, group: 'coordination.k8s.io', kind: plural, ...(uid !== undefined ? { uid } : {}) },
  };
}
