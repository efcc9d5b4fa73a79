// Everything request handlers share, assembled once when the server starts.
import type { WatchBatching } from './watch-batching.js';
import type { OperationContext } from '../operations/context.js';
import type { AuthConfig } from './auth.js';
import type { CorsPolicy } from './cors.js';
import type { DiscoveryDocuments } from './discovery-documents.js';
import type { FaultState } from './faults.js';
import type { WatchStream } from './watch-stream.js';

/** A document as served: its text and the hash its ETag (and a v3 serverRelativeURL) carries. */
export interface HashedDocument {
  body: string;
  hash: string;
}

export interface OpenApiDocuments {
  /** /openapi/v3: the group versions' serverRelativeURLs. */
  index: HashedDocument;
  /** Every served group version's v3 document (v1 and LeaseCandidate's), by version. */
  groupVersions: Record<string, HashedDocument>;
  /** /openapi/v2 as JSON; the protobuf form shares its ETag, as kube-openapi's handler does. */
  v2Json: HashedDocument;
  v2Protobuf: Buffer;
  /** When the documents were built: their Last-Modified. */
  builtAt: Date;
}

/** One request the server answered, as `LeaseApiServer.requests()` lists it. */
export interface RequestRecord {
  /** The HTTP method. */
  method: string;
  /** The URL path. */
  path: string;
  /** The query string, '' or starting with `?`. */
  query: string;
  /** The HTTP status code of the answer. */
  status: number;
  /** The `User-Agent` header ('' when absent). */
  userAgent: string;
  /** The `Content-Type` header ('' when absent). */
  contentType: string;
  /** The `Accept` header ('' when absent). */
  accept: string;
  /** Who the request authenticated as (a client certificate's CN, the token's user, system:anonymous); '' before or without authentication. */
  user: string;
}

export interface ServerState {
  /** The operations of the resource a request addresses (the Lease's, outside a resource request). */
  ops: OperationContext;
  /** Every served resource by "<version>/<plural>" (route.ts), the Lease's included. */
  resources: ReadonlyMap<string, OperationContext>;
  discovery: DiscoveryDocuments;
  openapi: OpenApiDocuments;
  auth: AuthConfig;
  faults: FaultState;
  streams: Set<WatchStream>;
  bookmarkIntervalMs: number;
  watchBufferBytes: number;
  watchBlockedTimeoutMs: number;
  /** Shared watch encodings and flushes; undefined when LeaseApiServerOptions.watchBatching is false. */
  watchBatching: WatchBatching | undefined;
  /** How long a read or sendInitialEvents watch waits for a resourceVersion the store has not reached. */
  freshnessTimeoutMs: number;
  /** The release served (e.g. `1.33.0`), for what differs between releases at the HTTP layer. */
  release: string;
  /** The release's WatchList feature gate (watch-list defaulting of ListOptions). */
  watchList: boolean;
  aggregatedDiscovery: boolean;
  requestLog: RequestRecord[];
  /** Undefined: no CORS headers for anyone (kube-apiserver without --cors-allowed-origins). */
  cors: CorsPolicy | undefined;
}

export const REQUEST_LOG_LIMIT = 2000;
