// startLeaseApiServer: wires storage, schema, discovery, auth, TLS and faults into an HTTP(S) server.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InspectOptions } from 'node:util';
import { inspect } from 'node:util';
import { ServerClock } from './clock.js';
import { compileCorsOrigins } from './http/cors.js';
import { handleRequest } from './http/dispatch.js';
import { setProtobufCodec } from './http/protobuf-hook.js';
import { kubernetesProtobufCodec } from './protobuf/codec.js';
import { buildDiscoveryDocuments } from './http/discovery-documents.js';
import { FaultState } from './http/faults.js';
import type { ServerState } from './http/server-state.js';
import type { WatchStream } from './http/watch-stream.js';
import type { JsonObject } from './json.js';
import { isJsonObject, parseJson } from './json.js';
import { LEASE_RESOURCE } from './lease-meta.js';
import { valueStyleFor } from './field-value.js';
import { leaseValidator } from './validation/validate-lease.js';
import type { CandidateVersion } from './candidates/candidate-resource.js';
import {
  candidateResource,
  candidateSchema,
  candidateValidator,
  candidateVersions,
} from './candidates/candidate-resource.js';
import type { ElectionController } from './candidates/election-controller.js';
import { startElectionController } from './candidates/election-controller.js';
import type { OperationContext } from './operations/context.js';
import { LEASE_ROUTE_KEY } from './http/route.js';
import { renderKubeconfig } from './kubeconfig.js';
import type { KubeconfigOptions, LeaseApiServer, LeaseApiServerOptions, TlsMaterial } from './options.js';
import { fallbackOpenApi } from './openapi/fallback-openapi.js';
import { isDnsLabel } from './namespaces/namespace-names.js';
import { NamespaceRegistry } from './namespaces/namespace-registry.js';
import { startNamespaceController } from './namespaces/namespace-controller-driver.js';
import { packagedDocument, packagedReleases } from './openapi/packaged-documents.js';
import { emptiedContainerOf } from './managed/typed-value.js';
import { releaseMinor, resolveRelease } from './release.js';
import { buildOpenApiDocuments } from './openapi/served-openapi.js';
import { BLOCK_TIMEOUT_MS } from './http/freshness.js';
import { watchListEnabled } from './http/watch-list.js';
import type { ObjectSchema } from './schema/field-schema.js';
import { buildLeaseSchema } from './schema/field-schema.js';
import { watchBatching } from './http/watch-batching.js';
import { createStoreHandle } from './store-handle.js';
import { LeaseStore } from './store/lease-store.js';
import type { TestPki } from './tls/pki.js';
import { createTestPki } from './tls/pki.js';
import { dropCoordinatedLeaderElectionFields } from './operations/disabled-fields.js';
import { startGarbageCollector } from './operations/gc-driver.js';

// Every server in the process speaks Kubernetes protobuf (the codec holds no per-server state).
setProtobufCodec(kubernetesProtobufCodec);

const DEFAULT_RELEASE = '1.35.0';
const DEFAULT_HISTORY = 10_000;
const DEFAULT_BOOKMARK_MS = 60_000;
const DEFAULT_WATCH_BUFFER_BYTES = 16 * 1024 * 1024;
const DEFAULT_WATCH_BLOCKED_MS = 100;
const CONTEXT_NAME = 'lease-api-test';

function openApiDocument(input: Record<string, unknown> | undefined): JsonObject {
  if (input === undefined) return fallbackOpenApi();
  const copy = parseJson(JSON.stringify(input));
  return isJsonObject(copy) ? copy : fallbackOpenApi();
}

function leaseSchema(doc: JsonObject): ObjectSchema {
  const schema = buildLeaseSchema(doc) ?? buildLeaseSchema(fallbackOpenApi());
  if (schema === undefined) throw new Error('the built-in OpenAPI document lacks the Lease schema');
  return schema;
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address();
      if (address === null || typeof address === 'string') reject(new Error('server has no TCP address'));
      else resolve(address);
    });
  });
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

function tlsSettings(option: LeaseApiServerOptions['tls']): { enabled: boolean; clientCertificates: boolean } {
  if (option === undefined || option === false) return { enabled: false, clientCertificates: false };
  if (option === true) return { enabled: true, clientCertificates: false };
  return { enabled: true, clientCertificates: option.clientCertificates === true };
}

/** kube-apiserver's http.Server sets MaxHeaderBytes to 1 MiB (secure_serving.go); Node's default is 16 KiB. */
const MAX_HEADER_BYTES = 1 << 20;

/**
 * secure_serving.go's IdleTimeout (90 s, "matches http.DefaultTransport keep-alive timeout") and ReadHeaderTimeout
 * (32 s). Node closes an idle keep-alive connection after 5 s, so a client that reuses it a moment later (undici
 * keeps sockets 4 s) meets "other side closed" where kube-apiserver would still have served it.
 */
const IDLE_TIMEOUT_MS = 90_000;
const READ_HEADER_TIMEOUT_MS = 32_000;

function buildHttpServer(
  pki: TestPki | undefined,
  requestClientCert: boolean,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Server {
  const server = buildListener(pki, requestClientCert, handler);
  server.keepAliveTimeout = IDLE_TIMEOUT_MS;
  server.headersTimeout = READ_HEADER_TIMEOUT_MS;
  return server;
}

function buildListener(
  pki: TestPki | undefined,
  requestClientCert: boolean,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Server {
  if (pki === undefined) return createHttpServer({ maxHeaderSize: MAX_HEADER_BYTES }, handler);
  // As kube-apiserver (tls.VerifyClientCertIfGiven): a certificate is asked for but not required at the
  // handshake; http/auth.ts rejects one that does not verify, and a bearer token alone still works.
  return createHttpsServer(
    {
      key: pki.server.key,
      cert: pki.server.certificate,
      ca: pki.ca.certificate,
      requestCert: requestClientCert,
      rejectUnauthorized: false,
      maxHeaderSize: MAX_HEADER_BYTES,
    },
    handler,
  );
}

/**
 * Tests print handles (console.log, assertion diffs, vitest's error output), which must not leak the
 * client key into logs; the key stays an ordinary property for clients to use.
 */
function redactedWhenPrinted(material: TlsMaterial): TlsMaterial {
  Object.defineProperty(material, inspect.custom, {
    value: (_depth: number, options: InspectOptions, show: typeof inspect): string =>
      show(material.clientKey === undefined ? { ...material } : { ...material, clientKey: '[redacted]' }, options),
  });
  return material;
}

function gateOn(cle: LeaseApiServerOptions['coordinatedLeaderElection']): boolean {
  return cle !== undefined && cle !== false;
}

/**
 * Starts a real HTTP(S) server for `coordination.k8s.io/v1` Leases with kube-apiserver's semantics (validation,
 * optimistic concurrency, patches, server-side apply, watches, pagination, discovery and OpenAPI), for tests and
 * local development. Any Kubernetes client can talk to it: this package's client, kubectl, client-go.
 *
 * @example
 * ```ts
 * import { startLeaseApiServer } from 'k8s-lease-api-server';
 * import { createClient, readNamespacedLease } from 'k8s-lease-client';
 *
 * const server = await startLeaseApiServer({ token: 'secret' });
 * try {
 *   const client = createClient({ baseUrl: server.url, token: 'secret' });
 *   await readNamespacedLease(client, { namespace: 'default', name: 'missing' }); // rejects: isNotFound
 * } finally {
 *   await server.close();
 * }
 * ```
 *
 * @param options - Port, release to imitate, token, TLS, feature gates, limits and injected faults.
 * @returns The running server's handle, once it listens.
 * @throws Error (the promise rejects) for a release that is not packaged, an invalid namespace name or CORS
 *   pattern, `coordinatedLeaderElection` on a release without LeaseCandidate, or a port that cannot be bound.
 */
export async function startLeaseApiServer(options: LeaseApiServerOptions = {}): Promise<LeaseApiServer> {
  const host = options.host ?? '127.0.0.1';
  const releases = packagedReleases();
  const requested =
    options.release === undefined
      ? undefined
      : resolveRelease(options.release, releases, options.openapi !== undefined);
  if (requested !== undefined && !requested.ok) throw new Error(requested.error);
  const badNamespace = (options.namespaces ?? []).find((name) => !isDnsLabel(name));
  if (badNamespace !== undefined)
    throw new Error(
      `namespaces: ${JSON.stringify(badNamespace)} is not a valid namespace name (a lowercase RFC 1123 label)`,
    );
  const cors =
    options.corsAllowedOrigins === undefined || options.corsAllowedOrigins.length === 0
      ? undefined
      : compileCorsOrigins(options.corsAllowedOrigins);
  if (cors !== undefined && !cors.ok) throw new Error(cors.error);
  const packaged = options.openapi === undefined ? packagedDocument(requested?.value, releases) : undefined;
  const release = packaged?.release ?? requested?.value ?? DEFAULT_RELEASE;
  const clock = new ServerClock(options.clock);
  const doc = packaged?.document ?? openApiDocument(options.openapi);
  const tls = tlsSettings(options.tls);
  const pki = tls.enabled
    ? await createTestPki({
        hosts: ['127.0.0.1', 'localhost', '::1', ...(host === '127.0.0.1' || host === 'localhost' ? [] : [host])],
        clientCertificate: tls.clientCertificates,
      })
    : undefined;
  const ops = {
    store: new LeaseStore(options.historyWindow ?? DEFAULT_HISTORY),
    schema: leaseSchema(doc),
    now: clock.now,
    namespaces: new NamespaceRegistry(clock.now, options.namespaces ?? []),
    resource: LEASE_RESOURCE,
    valueStyle: valueStyleFor(release),
    validate: leaseValidator(release),
    emptiedContainers: emptiedContainerOf(releaseMinor(release)),
    // The Lease strategy drops spec.strategy/preferredHolder while CoordinatedLeaderElection is off.
    dropDisabledFields: gateOn(options.coordinatedLeaderElection) ? undefined : dropCoordinatedLeaderElectionFields,
  };
  const cle = options.coordinatedLeaderElection;
  const versions: CandidateVersion[] = cle === undefined || cle === false ? [] : candidateVersions(release);
  if (cle !== undefined && cle !== false && versions.length === 0) {
    throw new Error(
      `coordinatedLeaderElection: release ${release} has no LeaseCandidate API (CoordinatedLeaderElection starts with 1.31)`,
    );
  }
  const resources = new Map<string, OperationContext>([[LEASE_ROUTE_KEY, ops]]);
  // One store for every served version: v1alpha2 and v1beta1 are the same object under two type metas.
  const candidateStore = new LeaseStore(options.historyWindow ?? DEFAULT_HISTORY);
  for (const version of versions) {
    resources.set(`${version}/leasecandidates`, {
      store: candidateStore,
      schema: candidateSchema(ops.schema, version),
      now: clock.now,
      namespaces: ops.namespaces,
      resource: candidateResource(version),
      valueStyle: ops.valueStyle,
      validate: candidateValidator(version, release),
      emptiedContainers: ops.emptiedContainers,
    });
  }
  const candidateOps = versions[0] === undefined ? undefined : resources.get(`${versions[0]}/leasecandidates`);
  const controller: ElectionController | undefined =
    candidateOps === undefined
      ? undefined
      : startElectionController(ops, candidateOps, typeof cle === 'object' ? (cle.resyncMs ?? 1000) : 1000);
  // One collector per store: an owner only owns objects of its own store (Lease, or LeaseCandidate).
  const collectors = [ops, ...(candidateOps === undefined ? [] : [candidateOps])].map(startGarbageCollector);
  // One context per store: LeaseCandidate's versions share one, its preferred version named first.
  const content = new Map<string, OperationContext>([[LEASE_ROUTE_KEY, ops]]);
  if (candidateOps !== undefined && versions[0] !== undefined)
    content.set(`${versions[0]}/leasecandidates`, candidateOps);
  const namespaceController = startNamespaceController(ops.namespaces, content, clock.now);
  const streams = new Set<WatchStream>();
  const state: ServerState = {
    ops,
    resources,
    discovery: buildDiscoveryDocuments(release, `${urlHost(host)}:0`, versions),
    openapi: buildOpenApiDocuments(doc, release, versions),
    auth: {
      token: options.token,
      forbiddenTokens: options.forbiddenTokens ?? [],
      clientCertificates: tls.clientCertificates,
    },
    faults: new FaultState(options.faults),
    streams,
    bookmarkIntervalMs: options.bookmarkIntervalMs ?? DEFAULT_BOOKMARK_MS,
    watchBufferBytes: options.watchBufferBytes ?? DEFAULT_WATCH_BUFFER_BYTES,
    watchBlockedTimeoutMs: options.watchBlockedTimeoutMs ?? DEFAULT_WATCH_BLOCKED_MS,
    watchBatching: options.watchBatching === false ? undefined : watchBatching(),
    freshnessTimeoutMs: options.resourceVersionWaitMs ?? BLOCK_TIMEOUT_MS,
    release,
    watchList: options.watchList ?? watchListEnabled(release),
    aggregatedDiscovery: options.aggregatedDiscovery ?? true,
    requestLog: [],
    cors: cors?.value,
  };
  const server = buildHttpServer(pki, tls.clientCertificates, (req, res) => void handleRequest(state, req, res));
  const address = await listen(server, options.port ?? 0, host);
  state.discovery = buildDiscoveryDocuments(release, `${urlHost(host)}:${address.port}`, versions);
  const url = `${pki === undefined ? 'http' : 'https'}://${urlHost(host)}:${address.port}`;
  const tempDirs: string[] = [];
  const material: TlsMaterial | undefined =
    pki === undefined
      ? undefined
      : redactedWhenPrinted({
          ca: pki.ca.certificate,
          ...(pki.client === undefined ? {} : { clientCertificate: pki.client.certificate, clientKey: pki.client.key }),
        });

  const kubeconfig = (kc: KubeconfigOptions = {}): string =>
    renderKubeconfig({
      server: url,
      name: CONTEXT_NAME,
      namespace: kc.namespace ?? options.namespace ?? 'default',
      certificateAuthority: material?.ca,
      token: kc.token ?? options.token,
      clientCertificate: material?.clientCertificate,
      clientKey: material?.clientKey,
    });

  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= (async () => {
      controller?.stop();
      for (const collector of collectors) collector.stop();
      namespaceController.stop();
      for (const stream of [...streams]) stream.end();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
    })();
    return closed;
  };

  return {
    url,
    host,
    port: address.port,
    release,
    tls: material,
    store: createStoreHandle(ops),
    kubeconfig,
    async writeKubeconfig(path?: string, kc?: KubeconfigOptions): Promise<string> {
      let target = path;
      if (target === undefined) {
        const dir = await mkdtemp(join(tmpdir(), 'lease-api-'));
        tempDirs.push(dir);
        target = join(dir, 'kubeconfig');
      }
      await writeFile(target, kubeconfig(kc), { mode: 0o600 });
      return target;
    },
    setFaults: (faults) => state.faults.set(faults),
    advanceClock: (ms) => clock.advance(ms),
    now: () => new Date(clock.now()),
    requests: () => state.requestLog,
    clearRequests: () => {
      state.requestLog.length = 0;
    },
    activeWatches: () => streams.size,
    reconcileLeaderElection: () => controller?.reconcileAll(),
    close,
  };
}
