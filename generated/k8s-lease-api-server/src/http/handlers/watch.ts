// Copied by lease-api-generator from templates/server/http/handlers/watch.ts. DO NOT EDIT: edit that file and run `npm run generate`.
// WATCH: replay (synthetic state or history after a resourceVersion), then live events, filtered by
// namespace and selectors — objects entering or leaving the selection appear as ADDED or DELETED.
import type { ServerResponse } from 'node:http';
import type { JsonObject } from '../../json.js';
import { objectAt, stringAt } from '../../json.js';
import type { ResourceInfo } from '../../lease-meta.js';
import type { Selection } from '../../operations/list.js';
import { matchesSelection } from '../../operations/list.js';
import { typedJson } from '../../serialize.js';
import { expired, statusObject } from '../../status.js';
import type { EventType, LeaseStore, StoreEvent } from '../../store/lease-store.js';
import type { ListRequest } from '../request-options.js';
import { watchTimeoutMs } from '../request-options.js';
import type { StreamFault } from '../faults.js';
import type { Representation } from '../negotiation.js';
import type { IncludeObject } from '../table.js';
import { leaseTable } from '../table.js';
import { WatchStream } from '../watch-stream.js';
import type { ProtobufOutput } from '../../protobuf/media.js';
import { PROTOBUF_WATCH_CONTENT_TYPE } from '../../protobuf/media.js';
import { protobufWatchFrames } from '../../protobuf/watch-frames.js';

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
  fault: StreamFault | undefined;
  streams: Set<WatchStream>;
  /** Set when Accept negotiated protobuf: the stream is application/vnd.kubernetes.protobuf;stream=watch. */
  protobuf?: ProtobufOutput | undefined;
}

export const INITIAL_EVENTS_END = 'k8s.io/initial-events-end';

type Encoder = (type: EventType, object: JsonObject) => string | Buffer;

function objectEncoder(resource: ResourceInfo): Encoder {
  return (type, object) => `{"type":"${type}","object":${typedJson(object, resource)}}`;
}

function tableEncoder(
  representation: Extract<Representation, { kind: 'table' }>,
  include: IncludeObject,
  now: () => number,
  resource: ResourceInfo,
): Encoder {
  return (type, object) => {
    const rv = stringAt(objectAt(object, 'metadata'), 'resourceVersion') ?? '';
    const table = leaseTable([object], { resourceVersion: rv }, now(), include, representation.version, resource);
    return JSON.stringify({ type, object: table });
  };
}

function bookmarkLine(rv: number, initialEventsEnd: boolean, resource: ResourceInfo, deps: WatchDeps): string | Buffer {
  const annotations = initialEventsEnd ? { [INITIAL_EVENTS_END]: 'true' } : undefined;
  if (deps.protobuf !== undefined) return protobufWatchFrames(resource, deps.protobuf).bookmark(rv, annotations);
  const metadata: JsonObject = { resourceVersion: String(rv) };
  if (annotations !== undefined) metadata['annotations'] = annotations;
  return JSON.stringify({
    type: 'BOOKMARK',
    object: { kind: resource.kind, apiVersion: resource.groupVersion, metadata },
  });
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

export function serveWatch(
  res: ServerResponse,
  request: ListRequest,
  representation: Representation,
  include: IncludeObject,
  deps: WatchDeps,
): void {
  const { store } = deps;
  const selection: Selection = { namespace: request.namespace, labels: request.labels, fields: request.fields };
  const unfiltered = isUnfiltered(selection);
  const { resource } = deps;
  const encode: Encoder =
    deps.protobuf !== undefined
      ? protobufWatchFrames(resource, deps.protobuf).event
      : representation.kind === 'table'
        ? tableEncoder(representation, include, deps.now, resource)
        : objectEncoder(resource);
  let unsubscribe: () => void = () => undefined;
  const timeoutMs = watchTimeoutMs(request.timeoutSeconds, Math.random());
  const stream: WatchStream = new WatchStream(res, {
    timeoutMs,
    bufferBytes: deps.bufferBytes,
    blockedTimeoutMs: deps.blockedTimeoutMs,
    fault: deps.fault,
    contentType: deps.protobuf === undefined ? undefined : PROTOBUF_WATCH_CONTENT_TYPE,
    onClose: () => {
      unsubscribe();
      deps.streams.delete(stream);
    },
  });
  deps.streams.add(stream);
  const idle = deps.fault?.idle;
  if (idle !== undefined) {
    deps.fault?.onEffect();
    stream.goLive();
    const every = idle.bookmarkEveryMs;
    if (every !== undefined)
      stream.every(every, () => stream.send(bookmarkLine(store.resourceVersion, false, resource, deps), false));
    return;
  }

  const rvText = request.resourceVersion ?? '';
  const fromState =
    request.sendInitialEvents === true || ((rvText === '' || rvText === '0') && request.sendInitialEvents !== false);
  if (fromState) {
    const snapshot = store.current();
    for (const key of snapshot.keys) {
      const obj = snapshot.get(key);
      if (obj !== undefined && (unfiltered || matchesSelection(selection, obj, key))) stream.send(encode('ADDED', obj));
    }
    if (request.sendInitialEvents === true)
      stream.send(bookmarkLine(store.resourceVersion, true, resource, deps), false);
  } else if (rvText !== '' && rvText !== '0') {
    const rv = Number(rvText);
    const history = store.eventsAfter(rv);
    if (!history.ok) {
      const status = expired(`too old resource version: ${rv} (${history.expired.oldest})`);
      const line =
        deps.protobuf === undefined
          ? JSON.stringify({ type: 'ERROR', object: statusObject(status) })
          : protobufWatchFrames(resource, deps.protobuf).error(status);
      stream.send(line, false);
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
    const visible = visibleEvent(event, selection, unfiltered);
    if (visible !== undefined) stream.send(encode(visible.type, visible.object));
  });
  if (request.allowWatchBookmarks)
    stream.every(deps.bookmarkIntervalMs, () =>
      stream.send(bookmarkLine(store.resourceVersion, false, resource, deps), false),
    );
}
