// WATCH: replay (synthetic state or history after a resourceVersion), then live events, filtered by
// namespace and selectors — objects entering or leaving the selection appear as ADDED or DELETED.
// Each event's object is encoded as the client negotiated (watchEmbeddedEncoder in
// k8s.io/apiserver/pkg/endpoints/handlers/response.go): the object itself, its PartialObjectMetadata,
// or a one-row Table whose column definitions only the first event carries; the events are JSON lines,
// or, for application/vnd.kubernetes.protobuf;stream=watch, length-prefixed protobuf WatchEvents.
import type { ServerResponse } from 'node:http';
import type { JsonObject } from '../../json.js';
import type { ResourceInfo } from '../../lease-meta.js';
import type { Selection } from '../../operations/list.js';
import { matchesSelection } from '../../operations/list.js';
import { typedJson } from '../../serialize.js';
import type { StatusError } from '../../status.js';
import { expired, internalError, statusObject, tooLargeResourceVersion } from '../../status.js';
import type { EventType, LeaseStore, StoreEvent } from '../../store/lease-store.js';
import type { StreamFault } from '../faults.js';
import { waitUntilFresh } from '../freshness.js';
import { resourceType } from '../answer.js';
import type { Representation } from '../negotiation.js';
import { CONTENT_TYPES } from '../negotiation.js';
import type { ObjectType, ProtobufCodec } from '../protobuf-hook.js';
import { protobufCodec } from '../protobuf-hook.js';
import type { ListRequest } from '../request-options.js';
import { watchTimeoutMs } from '../request-options.js';
import { bookmarkObject } from '../bookmark-object.js';
import type { TableOptions } from '../transform.js';
import { transformObject } from '../transform.js';
import { asBuffer } from '../respond.js';
import type { WatchBatching } from '../watch-batching.js';
import { toFrame, WatchStream } from '../watch-stream.js';

export type WatchEventType = EventType | 'BOOKMARK' | 'ERROR';

export interface WatchDeps {
  store: LeaseStore;
  /** What the events' objects are typed as. */
  resource: ResourceInfo;
  /** The release served: how a bookmark's object is serialised (bookmark-object.ts). */
  release: string;
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
  /** Shared encodings and flushes (LeaseApiServerOptions.watchBatching); undefined: each watcher on its own. */
  batching: WatchBatching | undefined;
}

type StreamedEventType = Exclude<WatchEventType, 'ERROR'>;

/** An encoded event: a JSON line (without its newline) or a complete protobuf frame. */
type Frame = string | Buffer;

/** How a watch's events are written; `event` is called in stream order with stored-shaped objects (no kind/apiVersion). */
export interface WatchEncoder {
  contentType: string;
  /** True when frames are JSON lines (sent with a newline), false for complete binary frames. */
  lines: boolean;
  /**
   * Names the encoding when an event's frame depends on nothing but the event, so watchers with equal
   * keys may share it; undefined when it depends on the watcher (Table and PartialObjectMetadata
   * transforms: column headers only on the first event, ages relative to now).
   */
  shareKey: string | undefined;
  event(type: StreamedEventType, object: JsonObject): Frame;
  error(status: StatusError): Frame;
}

/**
 * The event's object as the client asked: untransformed (with `type` naming its kind), or transformed to
 * the target. A transformation that fails (PartialObjectMetadataList of a single object) leaves the object
 * untransformed, as doEncode does after HandleError. After the first event, a Table's options get NoHeaders.
 */
type Embed = (object: JsonObject) => { object: JsonObject; type: ObjectType | undefined };

function embedder(
  target: Representation['target'],
  tableOptions: TableOptions | undefined,
  deps: Pick<WatchDeps, 'resource' | 'now'>,
): Embed {
  const plain = (object: JsonObject): ReturnType<Embed> => ({ object, type: resourceType(deps.resource) });
  if (target === undefined) return plain;
  let options = tableOptions;
  return (object) => {
    const result = transformObject({ kind: 'object', object }, target, options, {
      resource: deps.resource,
      now: deps.now(),
    });
    if (options !== undefined && !options.noHeaders) options = { ...options, noHeaders: true };
    return result.ok ? { object: result.value, type: undefined } : plain(object);
  };
}

function jsonEncoder(embed: Embed, resource: ResourceInfo, shareKey: string | undefined): WatchEncoder {
  return {
    contentType: CONTENT_TYPES.json,
    lines: true,
    shareKey,
    event: (type, object) => {
      const embedded = embed(object);
      return embedded.type === undefined
        ? JSON.stringify({ type, object: embedded.object })
        : `{"type":"${type}","object":${typedJson(object, resource)}}`;
    },
    error: (status) => JSON.stringify({ type: 'ERROR', object: statusObject(status) }),
  };
}

/**
 * The protobuf stream serializer (watchEncoder.doEncode over the raw protobuf serializer and
 * LengthDelimitedFramer): each event a 4-byte length and a bare meta.v1.WatchEvent whose object is the
 * enveloped object, PartialObjectMetadata or Status.
 */
function protobufEncoder(embed: Embed, codec: ProtobufCodec, shareKey: string | undefined): WatchEncoder {
  // A codec that cannot encode a Status leaves nothing to send (the stream then just ends).
  const error = (status: StatusError): Buffer =>
    asBuffer(codec.encodeWatchEvent('ERROR', statusObject(status)) ?? new Uint8Array());
  return {
    contentType: `${CONTENT_TYPES.protobuf};stream=watch`,
    lines: false,
    shareKey,
    event: (type, object) => {
      const embedded = embed(object);
      const frame = codec.encodeWatchEvent(type, embedded.object, embedded.type);
      // Negotiation only offers protobuf for what the codec encodes; should it refuse, the watch says so.
      return frame === undefined
        ? error(
            internalError(
              `no protobuf encoding for a watch event of kind ${String(embedded.type?.kind ?? embedded.object['kind'])}`,
            ),
          )
        : asBuffer(frame);
    },
    error,
  };
}

/** The encoder of a watch negotiated as `representation` (by negotiateStream, so never YAML). */
export function watchEncoder(
  representation: Representation,
  tableOptions: TableOptions | undefined,
  deps: Pick<WatchDeps, 'resource' | 'now'>,
): WatchEncoder {
  const embed = embedder(representation.target, tableOptions, deps);
  const codec = representation.mediaType === 'protobuf' ? protobufCodec() : undefined;
  // Untransformed events depend only on the event, the media type and the group version served.
  const shareKey =
    representation.target === undefined
      ? `${codec === undefined ? 'json' : 'protobuf'} ${deps.resource.groupVersion} ${deps.resource.kind}`
      : undefined;
  return codec === undefined ? jsonEncoder(embed, deps.resource, shareKey) : protobufEncoder(embed, codec, shareKey);
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

/**
 * How one watcher queues an object event: with batching and an encoding that depends only on the
 * event, the frame is made once for all watchers receiving this object as this event type (a
 * selector can turn one stored MODIFIED into ADDED or DELETED, hence the type in the key).
 */
function eventSender(
  stream: WatchStream,
  encode: WatchEncoder,
  batching: WatchBatching | undefined,
): (type: EventType, object: JsonObject) => void {
  const shareKey = encode.shareKey;
  if (batching === undefined || shareKey === undefined)
    return (type, object) => stream.send(encode.event(type, object));
  const { frames } = batching;
  // Built once per watcher: a key made per event would cost a concatenation and a rehash per delivery.
  const keys: Record<EventType, string> = {
    ADDED: `ADDED ${shareKey}`,
    MODIFIED: `MODIFIED ${shareKey}`,
    DELETED: `DELETED ${shareKey}`,
  };
  return (type, object) => {
    if (stream.isFinishing) return;
    const frame = frames.frame(object, keys[type], () => toFrame(encode.event(type, object)));
    stream.sendFrame(frame, encode.lines);
  };
}

function openStream(
  res: ServerResponse,
  request: ListRequest,
  encode: WatchEncoder,
  deps: WatchDeps,
  onClose: () => void,
): WatchStream {
  const stream: WatchStream = new WatchStream(res, {
    contentType: encode.contentType,
    timeoutMs: watchTimeoutMs(request.timeoutSeconds, Math.random()),
    bufferBytes: deps.bufferBytes,
    blockedTimeoutMs: deps.blockedTimeoutMs,
    fault: deps.fault,
    flusher: deps.batching?.flusher,
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
  encode: WatchEncoder,
  deps: WatchDeps,
): Promise<void> {
  const { store } = deps;
  const rvText = request.resourceVersion ?? '';
  const requestedRv = rvText === '' ? 0 : Number(rvText);
  if (request.sendInitialEvents === true && requestedRv > store.resourceVersion) {
    await waitUntilFresh(store, requestedRv, deps.freshnessTimeoutMs, res);
    if (res.destroyed) return;
    if (requestedRv > store.resourceVersion) {
      const stream = openStream(res, request, encode, deps, () => undefined);
      stream.send(encode.error(tooLargeResourceVersion(requestedRv, store.resourceVersion)), false);
      stream.end();
      return;
    }
  }
  streamEvents(res, request, encode, deps);
}

function streamEvents(res: ServerResponse, request: ListRequest, encode: WatchEncoder, deps: WatchDeps): void {
  const { store } = deps;
  const selection: Selection = { namespace: request.namespace, labels: request.labels, fields: request.fields };
  const unfiltered = isUnfiltered(selection);
  let unsubscribe: () => void = () => undefined;
  const stream = openStream(res, request, encode, deps, () => unsubscribe());
  const bookmark = (rv: number, end: boolean): void =>
    stream.send(encode.event('BOOKMARK', bookmarkObject(rv, end, deps.resource, deps.release)), false);
  const deliver = eventSender(stream, encode, deps.batching);
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
    store.current().forEach((key, obj) => {
      if (unfiltered || matchesSelection(selection, obj, key)) deliver('ADDED', obj);
    });
    // setInitialEventsEndBookmarkIfRequested: only for a client that takes bookmarks.
    if (request.sendInitialEvents === true && request.allowWatchBookmarks) bookmark(store.resourceVersion, true);
  } else if (floor > 0) {
    const history = store.eventsAfter(floor);
    if (!history.ok) {
      stream.send(encode.error(expired(`too old resource version: ${floor} (${history.expired.oldest})`)), false);
      stream.end();
      return;
    }
    for (const event of history.events) {
      const visible = visibleEvent(event, selection, unfiltered);
      if (visible !== undefined) deliver(visible.type, visible.object);
    }
  }
  if (stream.isFinishing) return;
  stream.goLive();
  unsubscribe = store.subscribe((event) => {
    if (event.rv <= future) return;
    const visible = visibleEvent(event, selection, unfiltered);
    if (visible !== undefined) deliver(visible.type, visible.object);
  });
  if (request.allowWatchBookmarks)
    stream.every(deps.bookmarkIntervalMs, () => {
      if (store.resourceVersion > future) bookmark(store.resourceVersion, false);
    });
}
