// A watch request after its list options were read: the resourceVersion checked, TableOptions and a
// streaming serializer negotiated (serveWatchHandler), then the events of one store streamed. Leases,
// LeaseCandidates and core/v1 namespaces each pass their own store and resource.
import type { ResourceInfo } from '../../lease-meta.js';
import { parseResourceVersion } from '../../operations/list.js';
import type { LeaseStore } from '../../store/lease-store.js';
import { fail } from '../answer.js';
import type { StreamFault } from '../faults.js';
import type { Representation } from '../negotiation.js';
import { RESOURCE_ENDPOINT, negotiateStream } from '../negotiation.js';
import type { RequestContext } from '../request-context.js';
import type { ListRequest } from '../request-options.js';
import { tableOptionsFor } from '../transform.js';
import { withListDefaults } from '../watch-list.js';
import { serveWatch, watchEncoder } from './watch.js';

export async function serveWatchRequest(
  ctx: RequestContext,
  request: ListRequest,
  representation: Representation,
  watched: { store: LeaseStore; resource: ResourceInfo },
  fault: StreamFault | undefined,
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
  const deps = { resource: watched.resource, now: state.ops.now };
  await serveWatch(
    ctx.res,
    withListDefaults(request, state.watchList),
    watchEncoder(stream.value, tableOptions.value, deps),
    {
      ...deps,
      store: watched.store,
      release: state.release,
      bookmarkIntervalMs: state.bookmarkIntervalMs,
      bufferBytes: state.watchBufferBytes,
      blockedTimeoutMs: state.watchBlockedTimeoutMs,
      freshnessTimeoutMs: state.freshnessTimeoutMs,
      fault,
      streams: state.streams,
      batching: state.watchBatching,
    },
  );
}
