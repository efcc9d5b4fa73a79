// The shipped Lease API server (templates/k8s-lease-api-server/src) set up for the watch client's tests: its store
// handle makes changes synchronously, and its fault injection scripts the watch connections.
import { startLeaseApiServer } from '../../../../../templates/k8s-lease-api-server/src/index.js';
import type {
  HttpErrorFault,
  LeaseApiServer,
  WatchFault,
} from '../../../../../templates/k8s-lease-api-server/src/index.js';

export const NAMESPACE = 'default';
export const LEASES_PATH = `/apis/coordination.k8s.io/v1/namespaces/${NAMESPACE}/leases`;

/** The fields of a Lease these tests read, all present on what the server returns. */
export interface Lease {
  apiVersion?: string;
  kind?: string;
  metadata: {
    name: string;
    namespace?: string;
    resourceVersion: string;
    uid?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  spec: { holderIdentity?: string };
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  watch: boolean;
}

export interface TestCluster {
  readonly server: LeaseApiServer;
  readonly url: string;
  /** Each returns the new resourceVersion. */
  create(name: string, holderIdentity?: string, labels?: Record<string, string>): string;
  update(name: string, holderIdentity: string): string;
  remove(name: string): string;
  /** Forgets history: resuming from any earlier resourceVersion now gets 410 Expired. */
  compact(): void;
  /** Scripts for the next watch connections, in order (see WatchFault). */
  scriptWatches(...plans: WatchFault[]): void;
  /** HTTP errors for the next LIST requests, in order. */
  failLists(...failures: Array<Omit<HttpErrorFault, 'when' | 'count'>>): void;
  /** Requests for Leases of the namespace, oldest first. */
  requests(): RecordedRequest[];
  watchRequests(): RecordedRequest[];
  /** Resolves when the server has `count` watch streams open. */
  waitForOpenWatches(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

const SEED_NAMESPACE = 'elsewhere';

function check<T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

function rvOf(lease: { metadata: { resourceVersion?: string } }): string {
  return lease.metadata.resourceVersion ?? '';
}

/**
 * Starts the server with its resourceVersion at `firstResourceVersion - 1`, moved there by writes in
 * another namespace (invisible to the namespaced LIST and WATCH), so expectations read as literals.
 */
export async function startTestCluster(firstResourceVersion = 101, release?: string): Promise<TestCluster> {
  const server = await startLeaseApiServer({ bookmarkIntervalMs: 60_000, namespaces: [SEED_NAMESPACE], release });
  check(server.store.create({ metadata: { name: 'seed', namespace: SEED_NAMESPACE }, spec: {} }));
  for (let i = 0; Number(server.store.resourceVersion) < firstResourceVersion - 1; i++) {
    check(
      server.store.update({
        metadata: { name: 'seed', namespace: SEED_NAMESPACE },
        spec: { holderIdentity: `seed-${i}` },
      }),
    );
  }
  let watchPlans: WatchFault[] = [];
  let listFailures: HttpErrorFault[] = [];
  const apply = (): void =>
    server.setFaults({
      watch: watchPlans,
      httpError: listFailures.map((f) => ({ ...f, count: 1, when: (r) => r.verb === 'list' })),
    });

  const current = (name: string): Lease => {
    const lease = server.store.get(NAMESPACE, name);
    if (lease === undefined) throw new Error(`${name} missing`);
    return { ...lease, metadata: { ...lease.metadata, name, resourceVersion: rvOf(lease) }, spec: lease.spec ?? {} };
  };
  const requests = (): RecordedRequest[] =>
    server
      .requests()
      .filter((r) => r.path.startsWith(LEASES_PATH))
      .map((r) => {
        const query = new URLSearchParams(r.query);
        return {
          method: r.method,
          path: r.path,
          query,
          watch: query.get('watch') === 'true' || query.get('watch') === '1',
        };
      });

  return {
    server,
    url: server.url,
    create: (name, holderIdentity = 'a', labels) =>
      rvOf(
        check(
          server.store.create({
            metadata: { name, namespace: NAMESPACE, ...(labels === undefined ? {} : { labels }) },
            spec: { holderIdentity },
          }),
        ),
      ),
    update: (name, holderIdentity) => {
      const lease = current(name);
      const { resourceVersion: _drop, ...metadata } = lease.metadata;
      return rvOf(check(server.store.update({ ...lease, metadata, spec: { ...lease.spec, holderIdentity } })));
    },
    remove: (name) => rvOf(check(server.store.delete(NAMESPACE, name))),
    compact: () => server.store.compact(),
    scriptWatches: (...plans) => {
      watchPlans = plans;
      apply();
    },
    failLists: (...failures) => {
      listFailures = failures.map((f) => ({ ...f }));
      apply();
    },
    requests,
    watchRequests: () => requests().filter((r) => r.watch),
    waitForOpenWatches: async (count, timeoutMs = 5_000) => {
      await eventually(
        () => server.activeWatches() === count,
        timeoutMs,
        `${count} open watches (have ${server.activeWatches()})`,
      );
    },
    close: () => server.close(),
  };
}

export function statusBody(
  code: number,
  reason: string,
  message = reason,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code, ...extra };
}

/** Number of active timers in this process (Timeout handles), to check nothing was left behind. */
export function activeTimers(): number {
  return process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length;
}

/** Polls `predicate` until it holds (or fails after `timeoutMs`). */
export async function eventually(predicate: () => boolean, timeoutMs = 5_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
