// Public options and handle of the Lease API test server.
import type { LeaseApiFaults } from './http/faults.js';
import type { RequestRecord } from './http/server-state.js';
import type { Result } from './result.js';
import type { StatusError } from './status.js';
import type { Lease } from './types.js';

/** The object form of `LeaseApiServerOptions.tls`: HTTPS with a generated CA, optionally with client certificates. */
export interface TlsOptions {
  /**
   * Also issue a client certificate (the kubeconfig presents it) and accept client certificates signed
   * by the generated CA. As kube-apiserver, one is asked for but not required: a request without one
   * may use the bearer token; one that does not verify is answered 401.
   */
  clientCertificates?: boolean | undefined;
}

/** Options of `startLeaseApiServer`: where to listen, which release to imitate, authentication, TLS, limits and faults. */
export interface LeaseApiServerOptions {
  /** 0 (default) picks an ephemeral port. */
  port?: number | undefined;
  /** Default 127.0.0.1. */
  host?: string | undefined;
  /**
   * Kubernetes release to behave as, e.g. '1.35.0' or '1.30': in the generated package, its
   * packaged OpenAPI document is served and validated against (same minor version); default the newest.
   * Without `openapi`, a release whose minor is not packaged makes startLeaseApiServer reject.
   */
  release?: string | undefined;
  /** An OpenAPI v3 document for coordination.k8s.io/v1 to serve and validate against instead of the packaged one. */
  openapi?: Record<string, unknown> | undefined;
  /** Bearer token every client must present (401 otherwise). */
  token?: string | undefined;
  /** Tokens that authenticate but may not touch Leases (403); without `token` other callers stay anonymous. */
  forbiddenTokens?: string[] | undefined;
  /** Serve HTTPS with a generated CA; optionally require client certificates. */
  tls?: boolean | TlsOptions | undefined;
  /** Milliseconds since the epoch; timestamps and ages use it. Default Date.now. */
  clock?: (() => number) | undefined;
  /**
   * The CoordinatedLeaderElection feature gate (1.31+, off by default as in kube-apiserver): serves
   * LeaseCandidate in the release's group versions (v1alpha1 in 1.31, v1alpha2 in 1.32, v1beta1 and
   * v1alpha2 from 1.33) and runs the controller that elects Lease holders among the candidates.
   * `resyncMs` (default 1000; 0 for none): how often a reconcile pass runs besides on every change.
   */
  coordinatedLeaderElection?: boolean | { resyncMs?: number | undefined } | undefined;
  /**
   * The WatchList feature gate; default the release's (on in 1.32 and from 1.34, off in 1.29–1.31 and 1.33, as
   * kube-apiserver's kube_features.go). On: a watch may ask for `sendInitialEvents`, and a watch from no
   * resourceVersion (or "0") is treated as one. Off: `sendInitialEvents` is refused with 422, as there.
   */
  watchList?: boolean | undefined;
  /** How many events of history to keep for watch resume and paginated lists. Default 10,000. */
  historyWindow?: number | undefined;
  /** Interval of BOOKMARK events for watches that allow them. Default 60,000 ms. */
  bookmarkIntervalMs?: number | undefined;
  /**
   * Bytes one watch stream may hold unsent (queued events plus Node's socket buffer, beyond what the
   * kernel took) before the watcher counts as blocked. Default 16 MiB. Twice this terminates the
   * watcher at once, so a client that never reads costs at most about 2× this much memory.
   */
  watchBufferBytes?: number | undefined;
  /**
   * How long a blocked watcher may stay blocked before it is terminated (its connection is closed;
   * client-go and this package's watch then re-watch from their last resourceVersion). Default
   * 100 ms, kube-apiserver's dispatchTimeoutBudget maximum (k8s.io/apiserver storage/cacher).
   */
  watchBlockedTimeoutMs?: number | undefined;
  /**
   * Default true: an event is encoded once for every watcher that gets it in the same encoding (plain
   * JSON or protobuf; Table and PartialObjectMetadata watches encode their own), and all watch streams
   * are flushed together, each writing all it got since in one chunk: at once after a quiet spell, at
   * most every 2 ms under a stream of events (so a busy watcher costs one socket write per 2 ms, not
   * one per event). false restores one encoding per watcher per event and one setImmediate flush per
   * stream. It exists for benchmarks, to measure both paths in one run; events, their order and the
   * slow-watcher bound are the same either way.
   */
  watchBatching?: boolean | undefined;
  /**
   * How long a read (get, list) or a sendInitialEvents watch from a resourceVersion newer than the
   * store's waits for the store to get there before failing with 504 "Too large resource version".
   * Default 3,000 ms, the watch cache's blockTimeout (k8s.io/apiserver storage/cacher).
   */
  resourceVersionWaitMs?: number | undefined;
  /** Fault injection; change later with setFaults(). */
  faults?: LeaseApiFaults | undefined;
  /** Serve aggregated discovery (apidiscovery.k8s.io) when asked. Default true. */
  aggregatedDiscovery?: boolean | undefined;
  /** Namespace of the kubeconfig context. Default 'default'. */
  namespace?: string | undefined;
  /**
   * Namespaces that exist from the start, besides default, kube-system, kube-public and kube-node-lease.
   * As on a cluster (NamespaceLifecycle admission), a Lease can only be created in an existing namespace;
   * others can be created through core/v1 (`kubectl create namespace x`).
   */
  namespaces?: string[] | undefined;
  /**
   * kube-apiserver's --cors-allowed-origins: regular expressions matched against a request's Origin; one
   * that matches gets CORS headers (Warning and Retry-After exposed) and its preflights a 204. Each must
   * pin the host's start ('^' or '//') and end ('$' or ':'), as kube-apiserver requires. Default: no CORS.
   */
  corsAllowedOrigins?: string[] | undefined;
}

/** Options of `LeaseApiServer.kubeconfig()` and `writeKubeconfig()`. */
export interface KubeconfigOptions {
  /** Namespace of the context; default the server's `namespace` option. */
  namespace?: string | undefined;
  /** Overrides the configured token (e.g. to try a forbidden one). */
  token?: string | undefined;
}

/** The PEMs a client needs to talk to a server started with `tls`; the kubeconfig embeds them. */
export interface TlsMaterial {
  /** PEM of the CA that signed the serving (and client) certificate. */
  ca: string;
  /** PEM client certificate, with `tls: { clientCertificates: true }`. */
  clientCertificate?: string | undefined;
  /** PEM key of `clientCertificate`; shown as `[redacted]` when the handle is printed. */
  clientKey?: string | undefined;
}

/** The outcome of a write through `LeaseStoreHandle`: the stored Lease, or the Status error the API would answer with. */
export type StoreWrite = Result<Lease, StatusError>;

/**
 * Direct access to the server's storage, bypassing HTTP but not Kubernetes semantics: create follows
 * NamespaceLifecycle admission too (a Lease in a namespace that does not exist fails with NotFound).
 */
export interface LeaseStoreHandle {
  /** The store's current resourceVersion (that of the last write). */
  readonly resourceVersion: string;
  /** How many Leases are stored. */
  readonly size: number;
  /** The stored Lease, or undefined. */
  get(namespace: string, name: string): Lease | undefined;
  /** The stored Leases, of one namespace or of all. */
  list(namespace?: string): Lease[];
  /** Creates a Lease as a POST would (defaulting, validation, managed fields under `fieldManager`); watchers see it. */
  create(lease: Lease, fieldManager?: string): StoreWrite;
  /** Replaces an existing Lease (resourceVersion in the body is honoured if present). */
  update(lease: Lease, fieldManager?: string): StoreWrite;
  /** Deletes a Lease as a DELETE would; watchers see it. */
  delete(namespace: string, name: string): StoreWrite;
  /** Forgets all history: watches/continues from older resourceVersions get 410. */
  compact(): void;
}

/** A running Lease API server, as `startLeaseApiServer` resolves to it; `close()` it when done. */
export interface LeaseApiServer {
  /** The server's base URL, e.g. `https://127.0.0.1:41233`: `createClient({ baseUrl: server.url })`. */
  readonly url: string;
  /** The address it listens on. */
  readonly host: string;
  /** The port it listens on (the ephemeral one picked when `port` was 0). */
  readonly port: number;
  /** The Kubernetes release it behaves as, e.g. `1.36.0`. */
  readonly release: string;
  /** The CA (and client certificate) to trust it with; undefined without `tls`. */
  readonly tls: TlsMaterial | undefined;
  /** Direct access to the stored Leases, for arranging and checking a test's state. */
  readonly store: LeaseStoreHandle;
  /** A kubeconfig (YAML) for this server: its URL, CA, token and client certificate; for kubectl or client libraries. */
  kubeconfig(options?: KubeconfigOptions): string;
  /** Writes the kubeconfig (to a fresh temporary file when no path is given) and returns its path. */
  writeKubeconfig(path?: string, options?: KubeconfigOptions): Promise<string>;
  /** Replaces the injected faults; `undefined` removes them all. */
  setFaults(faults: LeaseApiFaults | undefined): void;
  /** Moves the server's clock forward by `ms`: what `now()` returns and the timestamps the server writes. */
  advanceClock(ms: number): void;
  /** The server's current time (the `clock` option plus every `advanceClock`). */
  now(): Date;
  /** Requests seen so far (most recent 2,000). */
  requests(): readonly RequestRecord[];
  /** Forgets the recorded requests. */
  clearRequests(): void;
  /** How many watch streams are open now. */
  activeWatches(): number;
  /** With coordinatedLeaderElection: runs one controller pass now (elections, pings, candidate garbage collection). */
  reconcileLeaderElection(): void;
  /** Ends watch streams, closes keep-alive connections and stops listening. */
  close(): Promise<void>;
}
