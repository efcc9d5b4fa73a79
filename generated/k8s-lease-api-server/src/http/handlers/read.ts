// Copied by lease-api-generator from templates/server/http/handlers/read.ts. DO NOT EDIT: edit that file and run `npm run generate`.
// GET of one Lease and LIST of a collection, as JSON or as a meta.k8s.io Table.
import type { JsonObject } from '../../json.js';
import type { ResourceInfo } from '../../lease-meta.js';
import { LEASE_RESOURCE } from '../../lease-meta.js';
import type { ListPage } from '../../operations/list.js';
import { listLeases, parseResourceVersion } from '../../operations/list.js';
import { protobufOutput } from '../../protobuf/media.js';
import { resourceTypeMeta, sendIfProtobuf, sendObject } from '../../protobuf/send.js';
import { bareJson } from '../../serialize.js';
import { notAcceptable, notFound, tooLargeResourceVersion } from '../../status.js';
import { storeKey } from '../../store/lease-store.js';
import type { RequestContext } from '../request-context.js';
import type { ListRequest } from '../request-options.js';
import type { Representation } from '../negotiation.js';
import { NOT_ACCEPTABLE_MESSAGE, chooseRepresentation } from '../negotiation.js';
import { sendJsonText, sendStatus } from '../respond.js';
import { leaseTable, parseIncludeObject } from '../table.js';

/** Protobuf carries objects only (no Table), so when Accept negotiates protobuf the object is what is read. */
function representationOf(ctx: RequestContext): Representation | undefined {
  return protobufOutput(ctx.req.headers.accept) !== undefined ? { kind: 'object' } : chooseRepresentation(ctx.accept);
}

export function serveGet(ctx: RequestContext, namespace: string, name: string): void {
  const representation = representationOf(ctx);
  if (representation === undefined) return sendStatus(ctx.res, notAcceptable(NOT_ACCEPTABLE_MESSAGE));
  const { store, resource } = ctx.state.ops;
  const rvText = ctx.url.searchParams.get('resourceVersion') ?? '';
  if (rvText !== '' && rvText !== '0') {
    const rv = parseResourceVersion(rvText);
    if (!rv.ok) return sendStatus(ctx.res, rv.error);
    if (rv.value > store.resourceVersion)
      return sendStatus(ctx.res, tooLargeResourceVersion(rv.value, store.resourceVersion));
  }
  const lease = store.get(storeKey(namespace, name));
  if (lease === undefined) return sendStatus(ctx.res, notFound(name, resource));
  if (representation.kind === 'table') {
    const include = parseIncludeObject(ctx.url.searchParams.get('includeObject'));
    const rv = String(store.resourceVersion);
    const table = leaseTable(
      [lease],
      { resourceVersion: rv },
      ctx.state.ops.now(),
      include,
      representation.version,
      resource,
    );
    return sendJsonText(ctx.res, 200, JSON.stringify(table));
  }
  sendObject(ctx.res, 200, lease, resource);
}

function listMetadata(page: ListPage): JsonObject {
  const metadata: JsonObject = { resourceVersion: String(page.rv) };
  if (page.continueToken !== undefined) metadata['continue'] = page.continueToken;
  if (page.remainingItemCount !== undefined) metadata['remainingItemCount'] = page.remainingItemCount;
  return metadata;
}

function listJson(page: ListPage, resource: ResourceInfo): string {
  const metadata = listMetadata(page);
  const items = page.items.map(bareJson).join(',');
  return `{"kind":"${resource.listKind}","apiVersion":"${resource.groupVersion}","metadata":${JSON.stringify(metadata)},"items":[${items}]}`;
}

export function listResponseJson(items: JsonObject[], rv: number, resource: ResourceInfo = LEASE_RESOURCE): string {
  return listJson({ rv, items }, resource);
}

export function serveList(ctx: RequestContext, request: ListRequest): void {
  const representation = representationOf(ctx);
  if (representation === undefined) return sendStatus(ctx.res, notAcceptable(NOT_ACCEPTABLE_MESSAGE));
  const page = listLeases(ctx.state.ops.store, request);
  if (!page.ok) return sendStatus(ctx.res, page.error);
  if (representation.kind === 'table') {
    const include = parseIncludeObject(ctx.url.searchParams.get('includeObject'));
    const meta = {
      resourceVersion: String(page.value.rv),
      continueToken: page.value.continueToken,
      remainingItemCount: page.value.remainingItemCount,
    };
    return sendJsonText(
      ctx.res,
      200,
      JSON.stringify(
        leaseTable(
          page.value.items,
          meta,
          ctx.state.ops.now(),
          include,
          representation.version,
          ctx.state.ops.resource,
        ),
      ),
    );
  }
  const { resource } = ctx.state.ops;
  const list = { items: page.value.items, listMeta: listMetadata(page.value), typeMeta: resourceTypeMeta(resource) };
  if (sendIfProtobuf(ctx.res, 200, { kind: 'list', ...list })) return;
  sendJsonText(ctx.res, 200, listJson(page.value, resource));
}
