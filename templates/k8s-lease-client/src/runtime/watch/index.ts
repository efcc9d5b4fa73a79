export { WatchClosedError, WatchError, WatchIdleTimeoutError } from './errors.js';
export type { ResyncEvent, WatchEvent, WatchEventType, WatchNotification } from './event-shape.js';
export { INITIAL_EVENTS_END_ANNOTATION } from './event-shape.js';
export type { Informer, InformerHandlers } from './informer.js';
export { createInformer } from './informer.js';
export type { ListAllOptions, ListResponse, WatchTarget } from './list-all.js';
export { listAll } from './list-all.js';
export type { WatchDecodeErrorInit } from './ndjson.js';
export { DEFAULT_MAX_LINE_BYTES, NdjsonDecoder, readNdjson, WatchDecodeError } from './ndjson.js';
export type { KubeObjectLike } from './resource-version.js';
export { isNewerResourceVersion, objectKey } from './resource-version.js';
export { watch } from './watch.js';
export type {
  ReconnectPolicy,
  WatchConnectInfo,
  WatchDisconnectInfo,
  WatchOptions,
  WatchResyncInfo,
} from './watch-options.js';
