/**
 * A Lease API server with kube-apiserver's semantics, for tests and local development: start one with
 * `startLeaseApiServer`, point any Kubernetes client at it, arrange state through its `store`, and inject faults.
 *
 * @packageDocumentation
 */
export { startLeaseApiServer } from './server.js';
export type {
  KubeconfigOptions,
  LeaseApiServer,
  LeaseApiServerOptions,
  LeaseStoreHandle,
  StoreWrite,
  TlsMaterial,
  TlsOptions,
} from './options.js';
export type {
  ConnectionResetFault,
  CountedFault,
  FaultMatcher,
  FaultRequest,
  HttpErrorFault,
  InjectedWatchFault,
  LeaseApiFaults,
  RequestVerb,
  ServerErrorFault,
  ThrottleFault,
  WatchErrorStatus,
  WatchFault,
  WatchPlanBase,
} from './http/faults.js';
export type { RequestRecord } from './http/server-state.js';
export type { Lease, LeaseSpec, ManagedFieldsEntry, ObjectMeta, OwnerReference } from './types.js';
export type { StatusCause, StatusDetails, StatusError } from './status.js';
export type { Result } from './result.js';
export type { JsonObject, JsonPrimitive, JsonValue } from './json.js';
export { statusObject } from './status.js';
