// GET of one object and LIST of a collection (getResourceHandler and ListResource in
// k8s.io/apiserver/pkg/endpoints/handlers/get.go): the output media type negotiated first (406),
// then the read — waiting, as the watch cache does, for a resourceVersion the store has not reached —
// then the answer transformed (Table, PartialObjectMetadata[List]) and written in JSON or YAML.
import type { JsonObject } from '../../json.js';
import type { ResourceInfo } from '../../lease-meta.js';
import type { ListPage } from '../../operations/list.js';
import { listLeases, parseResourceVersion } from '../../operations/list.js';
import { bareJson } from '../../serialize.js';
import { notFound, tooLargeResourceVersion } from '../../status.js';
import { storeKey } from '../../store/lease-store.js';
import { answer, fail, sendObject } from '../answer.js';
import { waitUntilFresh } from '../freshness.js';
import type { Representation } from '../negotiation.js';
import { RESOURCE_ENDPOINT, negotiateOutput } from '../negotiation.js';
import type { RequestContext } from '../request-context.js';
import type { ListRequest } from '../request-options.js';
import type { Payload } from '../respond.js';
import { payloadOfJson, sendStatus } from '../respond.js';

/** The representation a get, list or write answers in; undefined once the 406 went out. */
export function negotiateResponse(ctx: RequestContext): Representation | undefined {
  const negotiated = negotiateOutput(ctx.req.headers.accept, RESOURCE_ENDPOINT);
  if (negotiated.ok) return negotiated.value;
  // ErrorNegotiated cannot negotiate either, so the 406 is JSON.
  sendStatus(ctx.res, negotiated.error);
  return undefined;
}

/**
 * A resourceVersion newer than the store's is waited for (up to the block timeout), as
 * watchCache.waitUntilFreshAndBlock does for reads; resolves false when the client left meanwhile.
 */
async function awaitResourceVersion(ctx: RequestContext, rvText: string | undefined): Promise<boolean> {
  if (rvText === undefined || rvText === '' || rvText === '0') return true;
  const rv = parseResourceVersion(rvText);
  const store = ctx.state.ops.store;
  if (!rv.ok || rv.value <= store.resourceVersion) return true;
  await waitUntilFresh(store, rv.value, ctx.state.freshnessTimeoutMs, ctx.res);
  return !ctx.res.destroyed;
}

export async function serveGet(ctx: RequestContext, namespace: string, name: string): Promise<void> {
  const representation = negotiateResponse(ctx);
  if (representation === undefined) return;
  const { store, resource } = ctx.state.ops;
  const rvText = ctx.url.searchParams.get('resourceVersion') ?? '';
  if (rvText !== '' && rvText !== '0') {
    const rv = parseResourceVersion(rvText);
    if (!rv.ok) return fail(ctx, rv.error);
    if (!(await awaitResourceVersion(ctx, rvText))) return;
    if (rv.value > store.resourceVersion) return fail(ctx, tooLargeResourceVersion(rv.value, store.resourceVersion));
  }
  const lease = store.get(storeKey(namespace, name));
  if (lease === undefined) return fail(ctx, notFound(name, resource));
  sendObject(ctx, 200, representation, lease);
}

function listMetadata(page: ListPage): JsonObject {
  const metadata: JsonObject = { resourceVersion: String(page.rv) };
  if (page.continueToken !== undefined) metadata['continue'] = page.continueToken;
  if (page.remainingItemCount !== undefined) metadata['remainingItemCount'] = page.remainingItemCount;
  return metadata;
}

function listJson(page: ListPage, resource: ResourceInfo): string {
  const items = page.items.map(bareJson).join(',');
  return `{"kind":"${resource.listKind}","apiVersion":"${resource.groupVersion}","metadata":${JSON.stringify(listMetadata(page))},"items":[${items}]}`;
}

/** A list's untransformed answer: its JSON text, and the list whose items are the stored objects themselves. */
export function listPayload(page: ListPage, resource: ResourceInfo): Payload {
  return payloadOfJson(listJson(page, resource), () => ({
    kind: resource.listKind,
    apiVersion: resource.groupVersion,
    metadata: listMetadata(page),
    items: page.items,
  }));
}

export async function serveList(
  ctx: RequestContext,
  request: ListRequest,
  representation: Representation,
): Promise<void> {
  if ((request.continueToken ?? '') === '' && !(await awaitResourceVersion(ctx, request.resourceVersion))) return;
  const page = listLeases(ctx.state.ops.store, request);
  if (!page.ok) return fail(ctx, page.error);
  const subject = {
    kind: 'list' as const,
    items: page.value.items,
    meta: {
      resourceVersion: String(page.value.rv),
      continueToken: page.value.continueToken,
      remainingItemCount: page.value.remainingItemCount,
    },
  };
  answer(ctx, 200, representation, subject, listPayload(page.value, ctx.state.ops.resource));
}
