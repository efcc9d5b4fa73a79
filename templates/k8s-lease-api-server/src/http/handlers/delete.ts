// DELETE of one Lease and DELETE of a collection (the deleted LeaseList).
// Lease storage does not set ReturnDeletedObject, so an immediate delete answers
// with a Success Status; an object kept by finalizers is returned as it now is. A collection delete
// answers with the list it deleted, as listed (Store.DeleteCollection). Both negotiate their output first.
import { decodeProtobuf, parseText } from '../../decode/parse-pool.js';
import type { JsonObject } from '../../json.js';
import { isJsonObject, objectAt, stringAt } from '../../json.js';
import type { DeleteOptions } from '../../operations/delete.js';
import { deleteCollection, deleteLease } from '../../operations/delete.js';
import { parseFailureStatus } from '../../operations/decode-body.js';
import { listLeases } from '../../operations/list.js';
import type { Result } from '../../result.js';
import { err } from '../../result.js';
import type { StatusError } from '../../status.js';
import { badRequest } from '../../status.js';
import { storeKey } from '../../store/lease-store.js';
import { answer, fail, sendObject } from '../answer.js';
import { authorizationFailure } from '../authorization.js';
import { readBodyBytes } from '../body.js';
import { inputFormat, unknownFormat } from '../input-media.js';
import type { RequestContext } from '../request-context.js';
import { deleteOptionsFrom, parseListRequest } from '../request-options.js';
import { payloadOf, sendRepresented, sendStatus } from '../respond.js';
import { listPayload, negotiateResponse } from './read.js';

/**
 * The request's DeleteOptions: a body is decoded by its Content-Type with the meta-internal codecs
 * (JSON, YAML, protobuf; anything else is 415), an empty body leaves them to the query (delete.go DeleteResource).
 */
export async function readDeleteOptions(ctx: RequestContext): Promise<Result<DeleteOptions, StatusError>> {
  const body = await readBodyBytes(ctx.req, ctx.res);
  if (!body.ok) return body;
  const query = ctx.url.searchParams;
  const style = ctx.state.ops.valueStyle;
  if (body.value.length === 0) return deleteOptionsFrom(query, undefined, style);
  const format = inputFormat(ctx.req.headers['content-type']);
  if (format === undefined) return err(unknownFormat());
  if (format === 'protobuf') {
    const decoded = await decodeProtobuf(body.value, { kind: 'deleteOptions' }, ctx.user);
    if (!decoded.ok) return err(parseFailureStatus(decoded.error, badRequest));
    return deleteOptionsFrom(query, decoded.value.value, style, decoded.value.numbers);
  }
  const text = body.value.toString('utf8');
  if (format === 'json' && text.trim() === '') return deleteOptionsFrom(query, undefined, style);
  // Off the event loop when large, as every other body (decode/parse-pool.ts): a 3 MiB YAML DeleteOptions
  // composed in place would stall every other request for seconds.
  const parsed = await parseText(text, format, ctx.user);
  if (!parsed.ok)
    return err(
      parseFailureStatus(parsed.error, (message) =>
        badRequest(`couldn't get version/kind; ${format === 'json' ? 'json' : 'yaml'} parse error: ${message}`),
      ),
    );
  const value = parsed.value.value;
  if (!isJsonObject(value)) return err(badRequest('the body of a delete request must be a DeleteOptions object'));
  return deleteOptionsFrom(query, value, style, parsed.value.numbers);
}

export async function serveDelete(ctx: RequestContext, namespace: string, name: string): Promise<void> {
  const denied = authorizationFailure(ctx, 'delete', namespace);
  if (denied !== undefined) return sendStatus(ctx.res, denied);
  const representation = negotiateResponse(ctx);
  if (representation === undefined) return void ctx.req.resume();
  const options = await readDeleteOptions(ctx);
  if (!options.ok) return fail(ctx, options.error);
  const deleted = deleteLease(ctx.state.ops, namespace, name, options.value);
  if (!deleted.ok) return fail(ctx, deleted.error);
  const { object, kept } = deleted.value;
  if (kept) return sendObject(ctx, 200, representation, object);
  const metadata = objectAt(object, 'metadata');
  const uid = metadata === undefined ? undefined : stringAt(metadata, 'uid');
  // doTransformObject passes a Status through whatever the client asked to convert to.
  const status = deletedStatus(name, uid, ctx.state.ops.resource.plural);
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
  const options = await readDeleteOptions(ctx);
  if (!options.ok) return fail(ctx, options.error);
  const { watchList, ops } = ctx.state;
  const request = parseListRequest(ctx.url.searchParams, namespace, false, watchList, ops.valueStyle);
  if (!request.ok) return fail(ctx, request.error);
  const { store } = ctx.state.ops;
  const page = listLeases(store, { ...request.value, limit: undefined, continueToken: undefined });
  if (!page.ok) return fail(ctx, page.error);
  const keys = page.value.items.map((item) => storeKey(namespace, stringAt(objectAt(item, 'metadata'), 'name') ?? ''));
  const deleted = deleteCollection(ctx.state.ops, keys, options.value);
  if (!deleted.ok) return fail(ctx, deleted.error);
  const list = { rv: page.value.rv, items: deleted.value };
  const subject = { kind: 'list' as const, items: list.items, meta: { resourceVersion: String(list.rv) } };
  answer(ctx, 200, representation, subject, listPayload(list, ctx.state.ops.resource));
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
