// GET /api/v1/namespaces?watch=1: the Lease watch machinery over the namespace store, so `kubectl delete
// namespace x --wait` (kubectl's wait.IsDeleted: a list and watch with fieldSelector metadata.name=x,
// watchtools.UntilWithSync) and informers see ADDED, MODIFIED and DELETED namespaces.
import { fail } from '../http/answer.js';
import { serveWatch, watchEncoder } from '../http/handlers/watch.js';
import { negotiateStream, RESOURCE_ENDPOINT } from '../http/negotiation.js';
import type { Representation } from '../http/negotiation.js';
import type { RequestContext } from '../http/request-context.js';
import type { ListRequest } from '../http/request-options.js';
import { tableOptionsFor } from '../http/transform.js';
import { withListDefaults } from '../http/watch-list.js';
import { parseResourceVersion } from '../operations/list.js';
import { NAMESPACE_INFO } from './namespace-registry.js';

export async function serveNamespaceWatch(
  ctx: RequestContext,
  request: ListRequest,
  representation: Representation,
): Promise<void> {
  const rvText = request.resourceVersion ?? '';
  if (rvText !== '') {
    const rv = parseResourceVersion(rvText);
    if (!rv.ok) return fail(ctx, rv.error);
  }
  const tableOptions = tableOptionsFor(representation.target, ctx.url.searchParams);
  if (!tableOptions.ok) return fail(ctx, tableOptions.error);
  const stream = negotiateStream(ctx.req.headers.accept, RESOURCE_ENDPOINT);
  if (!stream.ok) return fail(ctx, stream.error);
  const state = ctx.state;
  const deps = { resource: NAMESPACE_INFO, now: state.ops.now };
  await serveWatch(
    ctx.res,
    withListDefaults(request, state.watchList),
    watchEncoder(stream.value, tableOptions.value, deps),
    {
      ...deps,
      store: state.ops.namespaces.store,
      bookmarkIntervalMs: state.bookmarkIntervalMs,
      bufferBytes: state.watchBufferBytes,
      blockedTimeoutMs: state.watchBlockedTimeoutMs,
      freshnessTimeoutMs: state.freshnessTimeoutMs,
      fault: undefined,
      streams: state.streams,
      batching: state.watchBatching,
    },
  );
}
