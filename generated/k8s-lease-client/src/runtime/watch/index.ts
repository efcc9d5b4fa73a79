// Copied by lease-api-generator from templates/runtime/watch/index.ts. DO NOT EDIT: edit that file and run `npm run generate`.
export type { Informer, InformerHandlers } from './informer.js';
export { createInformer } from './informer.js';
export type { ListAllOptions, ListResponse, WatchTarget } from './listAll.js';
export { listAll } from './listAll.js';
export type { WatchDecodeErrorInit } from './ndjson.js';
export { DEFAULT_MAX_LINE_BYTES, NdjsonDecoder, readNdjson, WatchDecodeError } from './ndjson.js';
export type { KubeObjectLike } from './resourceVersion.js';
export { isNewerResourceVersion, objectKey } from './resourceVersion.js';
export type {
  ReconnectPolicy,
  ResyncEvent,
  WatchConnectInfo,
  WatchDisconnectInfo,
  WatchEvent,
  WatchEventType,
  WatchNotification,
  WatchOptions,
  WatchResyncInfo,
} from './watch.js';
export { INITIAL_EVENTS_END_ANNOTATION, watch, WatchClosedError, WatchError, WatchIdleTimeoutError } from './watch.js';
