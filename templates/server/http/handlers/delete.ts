// DELETE of one Lease and DELETE of a collection (the deleted LeaseList).
// Lease storage does not set ReturnDeletedObject, so an immediate delete answers
// with a Success Status; an object kept by finalizers is returned as it now is. A collection delete
// answers with the list it deleted, as listed (Store.DeleteCollection).
import { objectAt, stringAt } from '../../json.js';
import { deleteCollection, deleteLease } from '../../operations/delete.js';
import { listLeases } from '../../operations/list.js';
import { typedJson } from '../../serialize.js';
import { storeKey } from '../../store/lease-store.js';
import { authorizationFailure } from '../authorization.js';
import { readBody } from '../body.js';
import type { RequestContext } from '../request-context.js';
import { parseDeleteOptions, parseListRequest } from '../request-options.js';
import { sendJsonText, sendStatus } from '../respond.js';
import { listResponseJson } from './read.js';

export async function serveDelete(ctx: RequestContext, namespace: string, name: string): Promise<void> {
  const denied = authorizationFailure(ctx, 'delete', namespace);
  if (denied !== undefined) return sendStatus(ctx.res, denied);
  const body = await readBody(ctx.req, ctx.res);
  if (!body.ok) return sendStatus(ctx.res, body.error);
  const options = parseDeleteOptions(ctx.url.searchParams, body.value);
  if (!options.ok) return sendStatus(ctx.res, options.error);
  const deleted = deleteLease(ctx.state.ops, namespace, name, options.value);
  if (!deleted.ok) return sendStatus(ctx.res, deleted.error);
  const { object, kept } = deleted.value;
  if (kept) return sendJsonText(ctx.res, 200, typedJson(object, ctx.state.ops.resource));
  const metadata = objectAt(object, 'metadata');
  const uid = metadata === undefined ? undefined : stringAt(metadata, 'uid');
  sendJsonText(ctx.res, 200, JSON.stringify(deletedStatus(name, uid, ctx.state.ops.resource.plural)));
}

export async function serveDeleteCollection(ctx: RequestContext, namespace: string): Promise<void> {
  const denied = authorizationFailure(ctx, 'deletecollection', namespace);
  if (denied !== undefined) return sendStatus(ctx.res, denied);
  const body = await readBody(ctx.req, ctx.res);
  if (!body.ok) return sendStatus(ctx.res, body.error);
  const options = parseDeleteOptions(ctx.url.searchParams, body.value);
  if (!options.ok) return sendStatus(ctx.res, options.error);
  const request = parseListRequest(ctx.url.searchParams, namespace, false);
  if (!request.ok) return sendStatus(ctx.res, request.error);
  const { store } = ctx.state.ops;
  const page = listLeases(store, { ...request.value, limit: undefined, continueToken: undefined });
  if (!page.ok) return sendStatus(ctx.res, page.error);
  const keys = page.value.items.map((item) => storeKey(namespace, stringAt(objectAt(item, 'metadata'), 'name') ?? ''));
  const deleted = deleteCollection(ctx.state.ops, keys, options.value);
  if (!deleted.ok) return sendStatus(ctx.res, deleted.error);
  sendJsonText(ctx.res, 200, listResponseJson(deleted.value, page.value.rv, ctx.state.ops.resource));
}

function deletedStatus(name: string, uid: string | undefined, plural: string): object {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    details: { name, group: 'coordination.k8s.io', kind: plural, ...(uid !== undefined ? { uid } : {}) },
  };
}
