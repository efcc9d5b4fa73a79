// WATCH: replay (synthetic state or history after a resourceVersion), then live events, filtered by
// namespace and selectors — objects entering or leaving the selection appear as ADDED or DELETED.
// Each event's object is encoded as the client negotiated (watchEmbeddedEncoder in
// k8s.io/apiserver/pkg/endpoints/handlers/response.go): the object itself, its PartialObjectMetadata,
// or a one-row Table whose column definitions only the first event carries.
import type { ServerResponse } from 'node:http';
import type { JsonObject } from '../../json.js';
import type { ResourceInfo } from '../../lease-meta.js';
import type { Selection } from '../../operations/list.js';
import { matchesSelection } from '../../operations/list.js';
import { typedJson } from '../../serialize.js';
import type { StatusError } from '../../status.js';
import { expired, statusObject, tooLargeResourceVersion } from '../../status.js';
import type { EventType, LeaseStore, StoreEvent } from '../../store/lease-store.js';
import type { StreamFault } from '../faults.js';
import { waitUntilFresh } from '../freshness.js';
import type { Representation } from '../negotiation.js';
import type { ListRequest } from '../request-options.js';
import { watchTimeoutMs } from '../request-options.js';
import { INITIAL_EVENTS_END_ANNOTATION } from '../table.js';
import type { TableOptions } from '../transform.js';
import { transformObject } from '../transform.js';
import { WatchStream } from '../watch-stream.js';

export type WatchEventType = EventType | 'BOOKMARK' | 'ERROR';

export interface WatchDeps {
  store: LeaseStore;
  /** What the events' objects are typed as. */
  resource: ResourceInfo;
  now(): number;
  bookmarkIntervalMs: number;
  /** See LeaseApiServerOptions.watchBufferBytes. */
  bufferBytes: number;
  /** See LeaseApiServerOptions.watchBlockedTimeoutMs. */
  blockedTimeoutMs: number;
  /** How long a sendInitialEvents watch waits for a resourceVersion the store has not reached (blockTimeout). */
  freshnessTimeoutMs: number;
  fault: StreamFault | undefined;
  streams: Set<WatchStream>;
}

/** Encodes one event whose object is stored-shaped (no kind/apiVersion); called in stream order. */
type Encoder = (type: Exclude<WatchEventType, 'ERROR'>, object: JsonObject) => string;

function objectEncoder(resource: ResourceInfo): Encoder {
  return (type, object) => `{"type":"${type}","object":${typedJson(object, resource)}}`;
}

/**
 * watchEmbeddedEncoder with a target: every event's object transformed. A transformation that fails
 * (PartialObjectMetadataList of a single object) sends the object untransformed, as doEncode does
 * after HandleError. After the first encoded event, a Table's options get NoHeaders.
 */
function transformingEncoder(
  target: NonNullable<Representation['target']>,
  tableOptions: TableOptions | undefined,
  deps: Pick<WatchDeps, 'resource' | 'now'>,
): Encoder {
  let options = tableOptions;
  const plain = objectEncoder(deps.resource);
  return (type, object) => {
    const result = transformObject({ kind: 'object', object }, target, options, {
      resource: deps.resource,
      now: deps.now(),
    });
    if (options !== undefined && !options.noHeaders) options = { ...options, noHeaders: true };
    return result.ok ? JSON.stringify({ type, object: result.value }) : plain(type, object);
  };
}

export function watchEncoder(
  representation: Representation,
  tableOptions: TableOptions | undefined,
  deps: Pick<WatchDeps, 'resource' | 'now'>,
): Encoder {
  return representation.target === undefined
    ? objectEncoder(deps.resource)
    : transformingEncoder(representation.target, tableOptions, deps);
}

/** A bookmark's object: an empty object of the resource carrying only the resourceVersion (and the end-of-initial-events annotation). */
function bookmarkObject(rv: number, initialEventsEnd: boolean): JsonObject {
  const metadata: JsonObject = { resourceVersion: String(rv) };
  if (initialEventsEnd) metadata['annotations'] = { [INITIAL_EVENTS_END_ANNOTATION]: 'true' };
  return { metadata };
}

function errorLine(status: StatusError): string {
  return JSON.stringify({ type: 'ERROR', object: statusObject(status) });
}

function isUnfiltered(selection: Selection): boolean {
  return selection.namespace === undefined && selection.labels.length === 0 && selection.fields.length === 0;
}

/** How one stored change looks through a watcher's selection (or undefined if invisible to it). */
export function visibleEvent(
  event: StoreEvent,
  selection: Selection,
  unfiltered: boolean,
): { type: EventType; object: JsonObject } | undefined {
  if (unfiltered) return event;
  const now = event.type !== 'DELETED' && matchesSelection(selection, event.object, event.key);
  const before = event.prev !== undefined && matchesSelection(selection, event.prev, event.key);
  if (event.type === 'DELETED') return before ? event : undefined;
  if (now && before) return event;
  if (now) return { type: 'ADDED', object: event.object };
  if (before) return { type: 'DELETED', object: event.object };
  return undefined;
}

function openStream(res: ServerResponse, request: ListRequest, deps: WatchDeps, onClose: () => void): WatchStream {
  const stream: WatchStream = new WatchStream(res, {
    timeoutMs: watchTimeoutMs(request.timeoutSeconds, Math.random()),
    bufferBytes: deps.bufferBytes,
    blockedTimeoutMs: deps.blockedTimeoutMs,
    fault: deps.fault,
    onClose: () => {
      onClose();
      deps.streams.delete(stream);
    },
  });
  deps.streams.add(stream);
  return stream;
}

/**
 * Serves a watch. A sendInitialEvents watch from a resourceVersion newer than the store's first waits
 * (Cacher.waitUntilWatchCacheFreshAndForceAllEvents) and, if the store does not get there in time,
 * answers 200 with one ERROR event carrying the 504 NewTooLargeResourceVersionError, as the cacher's
 * errWatcher does. Other watches from a future resourceVersion wait quietly: nothing at or below it
 * is sent (cacheWatcher.process).
 */
export async function serveWatch(
  res: ServerResponse,
  request: ListRequest,
  encode: Encoder,
  deps: WatchDeps,
): Promise<void> {
  const { store } = deps;
  const rvText = request.resourceVersion ?? '';
  const requestedRv = rvText === '' ? 0 : Number(rvText);
  if (request.sendInitialEvents === true && requestedRv > store.resourceVersion) {
    await waitUntilFresh(store, requestedRv, deps.freshnessTimeoutMs, res);
    if (res.destroyed) return;
    if (requestedRv > store.resourceVersion) {
      const stream = openStream(res, request, deps, () => undefined);
      stream.send(errorLine(tooLargeResourceVersion(requestedRv, store.resourceVersion)), false);
      stream.end();
      return;
    }
  }
  streamEvents(res, request, encode, deps);
}

function streamEvents(res: ServerResponse, request: ListRequest, encode: Encoder, deps: WatchDeps): void {
  const { store } = deps;
  const selection: Selection = { namespace: request.namespace, labels: request.labels, fields: request.fields };
  const unfiltered = isUnfiltered(selection);
  let unsubscribe: () => void = () => undefined;
  const stream = openStream(res, request, deps, () => unsubscribe());
  const bookmark = (rv: number, end: boolean): void => stream.send(encode('BOOKMARK', bookmarkObject(rv, end)), false);
  const idle = deps.fault?.idle;
  if (idle !== undefined) {
    deps.fault?.onEffect();
    stream.goLive();
    const every = idle.bookmarkEveryMs;
    if (every !== undefined) stream.every(every, () => bookmark(store.resourceVersion, false));
    return;
  }

  const rvText = request.resourceVersion ?? '';
  const floor = rvText === '' || rvText === '0' ? 0 : Number(rvText);
  // Events and bookmarks at or below a future resourceVersion are not this watcher's (cacheWatcher.process).
  const future = floor > store.resourceVersion ? floor : 0;
  const fromState =
    request.sendInitialEvents === true || ((rvText === '' || rvText === '0') && request.sendInitialEvents !== false);
  if (fromState) {
    const snapshot = store.current();
    for (const key of snapshot.keys) {
      const obj = snapshot.get(key);
      if (obj !== undefined && (unfiltered || matchesSelection(selection, obj, key))) stream.send(encode('ADDED', obj));
    }
    // setInitialEventsEndBookmarkIfRequested: only for a client that takes bookmarks.
    if (request.sendInitialEvents === true && request.allowWatchBookmarks) bookmark(store.resourceVersion, true);
  } else if (floor > 0) {
    const history = store.eventsAfter(floor);
    if (!history.ok) {
      stream.send(errorLine(expired(`too old resource version: ${floor} (${history.expired.oldest})`)), false);
      stream.end();
      return;
    }
    for (const event of history.events) {
      const visible = visibleEvent(event, selection, unfiltered);
      if (visible !== undefined) stream.send(encode(visible.type, visible.object));
    }
  }
  if (stream.isFinishing) return;
  stream.goLive();
  unsubscribe = store.subscribe((event) => {
    if (event.rv <= future) return;
    const visible = visibleEvent(event, selection, unfiltered);
    if (visible !== undefined) stream.send(encode(visible.type, visible.object));
  });
  if (request.allowWatchBookmarks)
    stream.every(deps.bookmarkIntervalMs, () => {
      if (store.resourceVersion > future) bookmark(store.resourceVersion, false);
    });
}
