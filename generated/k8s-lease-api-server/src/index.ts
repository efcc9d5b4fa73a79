// Copied by lease-api-generator from templates/server/index.ts. DO NOT EDIT: edit that file and run `npm run generate`.
// Public entry of the k8s-lease-api-server package: a Lease API server with Kubernetes semantics for tests.
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
} from './http/faults.js';
export type { RequestRecord } from './http/server-state.js';
export type { Lease, LeaseSpec, ManagedFieldsEntry, ObjectMeta, OwnerReference } from './types.js';
export type { StatusCause, StatusDetails, StatusError } from './status.js';
export type { Result } from './result.js';
export { statusObject } from './status.js';
