// The runtime matrix's scenario: what a Lease client does in any JavaScript runtime, step by step,
// against the Lease API server. It imports only the built client package and platform globals (fetch,
// AbortController, TextDecoder, timers): the same file runs in Node, Deno, Bun and Chromium. The test
// (matrix.test.ts) arranges the server side: a namespace per runtime, and a watch connection to cut.
import type { ApiWarning, Lease, RetryEvent } from 'k8s-lease-client';
import {
  ConnectionError,
  createClient,
  createLeaseInformerForAllNamespaces,
  createNamespacedLease,
  createNamespacedLeaseInformer,
  isConflict,
  KubernetesApiError,
  listAllNamespacedLeases,
  patchNamespacedLease,
  readNamespacedLease,
  replaceNamespacedLease,
  RequestTimeoutError,
  watchNamespacedLeases,
  withRetries,
  withWarnings,
} from 'k8s-lease-client';

export interface ScenarioConfig {
  baseUrl: string;
  namespace: string;
  /** An origin where nothing listens (the server is down): requests there must fail with a ConnectionError naming the URL. */
  downUrl: string;
}

export interface StepResult {
  name: StepName;
  passed: boolean;
  /** What the step saw (passed) or why it failed. */
  detail: string;
}

export const STEP_NAMES = [
  'create',
  'read',
  'conflict',
  'apply',
  'pagedList',
  'watch',
  'informer',
  'abort',
  'timeout',
  'redirect',
  'warning',
  'retryAfter',
  'serverDown',
] as const;
export type StepName = (typeof STEP_NAMES)[number];

/** The test answers a read of this Lease with a 307 to the Lease `alpha`: following it would quietly read another object. */
export const REDIRECTED_LEASE = 'redirected';
/** The test answers the first read of this Lease with kube-apiserver's 429 (Retry-After: THROTTLE_RETRY_AFTER_SECONDS). */
export const THROTTLED_LEASE = 'throttled';
export const THROTTLE_RETRY_AFTER_SECONDS = 1;
/** Label of the Leases the watch step watches; the test cuts the first watch connection with this selector. */
export const WATCH_SELECTOR = 'scenario=watch';
/** A step that takes longer than this has hung; it fails rather than blocking the whole runtime. */
const STEP_GUARD_MS = 15_000;

type Client = ReturnType<typeof createClient>;

class StepFailure extends Error {
  override readonly name = 'StepFailure';
}

function expectThat(condition: boolean, message: string): void {
  if (!condition) throw new StepFailure(message);
}

function lease(name: string, holderIdentity: string, labels: Record<string, string> = {}): Lease {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name, labels },
    spec: { holderIdentity, leaseDurationSeconds: 15 },
  };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `predicate` holds, polling; rejects with `what` after the step guard. */
async function until(predicate: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + STEP_GUARD_MS;
  while (!predicate()) {
    if (Date.now() > deadline) throw new StepFailure(`never saw ${what}`);
    await sleep(10);
  }
}

async function createStep(client: Client, ns: string): Promise<string> {
  const created = await createNamespacedLease(client, { namespace: ns, body: lease('alpha', 'runtime-a') });
  expectThat(
    created.metadata?.uid !== undefined && created.metadata.resourceVersion !== undefined,
    'no uid or resourceVersion on the created Lease',
  );
  return `alpha created at resourceVersion ${created.metadata?.resourceVersion}`;
}

async function readStep(client: Client, ns: string): Promise<string> {
  const read = await readNamespacedLease(client, { namespace: ns, name: 'alpha' });
  expectThat(read.spec?.holderIdentity === 'runtime-a', `holderIdentity ${JSON.stringify(read.spec?.holderIdentity)}`);
  return 'alpha read back';
}

async function conflictStep(client: Client, ns: string): Promise<string> {
  const stale = await readNamespacedLease(client, { namespace: ns, name: 'alpha' });
  await replaceNamespacedLease(client, {
    namespace: ns,
    name: 'alpha',
    body: { ...stale, spec: { ...stale.spec, holderIdentity: 'runtime-b' } },
  });
  try {
    await replaceNamespacedLease(client, {
      namespace: ns,
      name: 'alpha',
      body: { ...stale, spec: { ...stale.spec, holderIdentity: 'runtime-c' } },
    });
  } catch (error) {
    expectThat(
      error instanceof KubernetesApiError && isConflict(error) && error.status === 409,
      `expected a 409 KubernetesApiError, got ${String(error)}`,
    );
    return `stale replace rejected: ${error instanceof KubernetesApiError ? error.reason : ''}`;
  }
  throw new StepFailure('a replace with a stale resourceVersion succeeded');
}

async function applyStep(client: Client, ns: string): Promise<string> {
  const applied = await patchNamespacedLease(client, {
    namespace: ns,
    name: 'applied',
    fieldManager: 'runtime-matrix',
    patch: {
      type: 'apply',
      body: {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name: 'applied' },
        spec: { holderIdentity: 'applier' },
      },
    },
  });
  const managers = (applied.metadata?.managedFields ?? []).map((f) => `${f.manager}/${f.operation}`);
  expectThat(
    applied.spec?.holderIdentity === 'applier' && managers.includes('runtime-matrix/Apply'),
    `managedFields ${JSON.stringify(managers)}`,
  );
  return 'applied with fieldManager runtime-matrix';
}

async function pagedListStep(client: Client, ns: string): Promise<string> {
  for (let i = 0; i < 5; i++)
    await createNamespacedLease(client, { namespace: ns, body: lease(`page-${i}`, 'pager', { scenario: 'paged' }) });
  const names: string[] = [];
  let pages = 0;
  for await (const item of listAllNamespacedLeases(
    client,
    { namespace: ns, labelSelector: 'scenario=paged' },
    { limit: 2, onPage: () => void pages++ },
  )) {
    names.push(item.metadata?.name ?? '');
  }
  expectThat(names.join() === 'page-0,page-1,page-2,page-3,page-4' && pages === 3, `${pages} pages: ${names.join()}`);
  return '5 Leases in 3 pages of 2';
}

/** The test cuts the first watch connection inside the second event's line; the watch must resume and see both changes. */
async function watchStep(client: Client, ns: string): Promise<string> {
  await createNamespacedLease(client, { namespace: ns, body: lease('watched', 'w0', { scenario: 'watch' }) });
  const controller = new AbortController();
  const holders: string[] = [];
  const disconnects: string[] = [];
  let connects = 0;
  const events = watchNamespacedLeases(
    client,
    { namespace: ns, labelSelector: WATCH_SELECTOR },
    {
      signal: controller.signal,
      reconnect: { initialDelayMs: 20, maxDelayMs: 100 },
      onConnect: () => void connects++,
      onDisconnect: (info) => void disconnects.push(info.error instanceof Error ? info.error.name : String(info.error)),
    },
  );
  const consumed = (async () => {
    for await (const event of events) {
      if (event.type === 'ADDED' || event.type === 'MODIFIED')
        holders.push(`${event.type}:${event.object.spec?.holderIdentity}`);
    }
  })();
  await until(() => connects > 0 && holders.length > 0, 'the initial ADDED');
  // Non-ASCII holders: their UTF-8 bytes may split across chunks (and the cut lands inside w2's line), which
  // each runtime's streaming decoder must join back.
  for (const holder of ['w1-Grüße-✓', 'w2-日本語-🚀']) {
    await patchNamespacedLease(client, {
      namespace: ns,
      name: 'watched',
      patch: { type: 'merge', body: { spec: { holderIdentity: holder } } },
    });
  }
  await until(() => holders.length >= 3, 'both changes');
  controller.abort();
  await consumed;
  expectThat(holders.join() === 'ADDED:w0,MODIFIED:w1-Grüße-✓,MODIFIED:w2-日本語-🚀', `events ${holders.join()}`);
  expectThat(
    disconnects.length >= 1 && connects >= 2,
    `${connects} connections, disconnects ${disconnects.join()}: the cut was not survived`,
  );
  return `ADDED, MODIFIED, MODIFIED across ${connects} connections (dropped: ${disconnects.join()}); abort ended it cleanly`;
}

async function informerStep(client: Client, ns: string): Promise<string> {
  const added: string[] = [];
  const informer = createNamespacedLeaseInformer(
    client,
    { namespace: ns, labelSelector: 'scenario=paged' },
    { onAdd: (l) => void added.push(l.metadata?.name ?? '') },
  );
  try {
    await informer.start();
    expectThat(
      informer.hasSynced() && informer.list().length === 5,
      `synced ${informer.hasSynced()} with ${informer.list().length} Leases`,
    );
    await createNamespacedLease(client, { namespace: ns, body: lease('page-5', 'pager', { scenario: 'paged' }) });
    await until(() => informer.get(ns, 'page-5') !== undefined, 'page-5 in the cache');
  } finally {
    await informer.stop();
  }
  return `synced 5, then saw ${added.at(-1)} arrive`;
}

/** A watch answered with 200 sends no body until something changes: aborting must end the body read. */
async function abortStep(client: Client, ns: string): Promise<string> {
  const controller = new AbortController();
  const reason = new Error('caller gave up');
  const pending = client.request(
    {
      method: 'GET',
      path: `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases`,
      query: '?watch=true&labelSelector=none%3Dnone',
    },
    { signal: controller.signal },
  );
  await sleep(100);
  controller.abort(reason);
  try {
    await pending;
  } catch (error) {
    expectThat(error === reason, `rejected with ${String(error)} instead of the signal's reason`);
    return "rejected with the signal's own reason";
  }
  throw new StepFailure('the request resolved after its signal aborted');
}

async function timeoutStep(client: Client, ns: string): Promise<string> {
  try {
    await client.request(
      {
        method: 'GET',
        path: `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases`,
        query: '?watch=true&labelSelector=none%3Dnone',
      },
      { timeoutMs: 150 },
    );
  } catch (error) {
    expectThat(error instanceof RequestTimeoutError, `rejected with ${String(error)} instead of a RequestTimeoutError`);
    return `RequestTimeoutError: ${error instanceof Error ? error.message : ''}`;
  }
  throw new StepFailure('a request that never ends resolved despite timeoutMs');
}

/** Redirects are not followed (kube-apiserver never redirects API calls): Node, Deno and Bun see the 307, browsers an opaque 0. */
async function redirectStep(client: Client, ns: string): Promise<string> {
  try {
    const read = await readNamespacedLease(client, { namespace: ns, name: REDIRECTED_LEASE });
    throw new StepFailure(`the redirect was followed, to ${read.metadata?.name}`);
  } catch (error) {
    if (error instanceof StepFailure) throw error;
    expectThat(
      error instanceof KubernetesApiError && (error.status === 307 || error.status === 0),
      `expected a KubernetesApiError with status 307 (0 in browsers), got ${String(error)}`,
    );
    return `rejected, not followed: status ${error instanceof KubernetesApiError ? error.status : ''}`;
  }
}

/** The platform's fetch, looked up per call and never called as a method of another object (Illegal invocation in browsers). */
const platformFetch: typeof fetch = (input, init) => fetch(input, init);

/**
 * A create with unknown fields and fieldValidation=Warn: kube-apiserver stores the Lease and answers
 * `Warning: 299 - "unknown field \"spec.foo\""` per dropped field. The non-ASCII name travels as UTF-8 header
 * bytes, which each runtime's fetch hands over as Latin-1; a browser shows the header only when exposed by CORS.
 */
async function warningStep(base: Client, ns: string): Promise<string> {
  const warnings: ApiWarning[] = [];
  const client = createClient({ baseUrl: base.baseUrl, fetch: withWarnings(platformFetch, (w) => warnings.push(w)) });
  const body = lease('warned', 'warner');
  // Fields the Lease type does not have, as an older or newer client's object would carry.
  const withUnknown = { ...body, spec: { ...body.spec, foo: 1, größe: 'XL' } } as Lease;
  const created = await createNamespacedLease(client, {
    namespace: ns,
    fieldValidation: 'Warn',
    body: withUnknown,
  });
  expectThat(created.metadata?.name === 'warned', `created ${JSON.stringify(created.metadata?.name)}`);
  const seen = warnings.map((w) => `${w.code} ${w.method} ${w.text}`).sort();
  const expected = ['299 POST unknown field "spec.foo"', '299 POST unknown field "spec.größe"'];
  expectThat(
    seen.join('|') === expected.join('|'),
    `warnings ${JSON.stringify(seen)}, expected ${JSON.stringify(expected)}`,
  );
  return `onWarning got ${seen.map((s) => s.slice('299 POST '.length)).join(', ')}`;
}

/**
 * The test answers the first read of THROTTLED_LEASE as kube-apiserver's max-in-flight and priority-and-fairness
 * filters do: 429, `Retry-After`, a plain-text body (no Status whose retryAfterSeconds could stand in for the
 * header). withRetries must wait what the header asks, not its own backoff (1 ms here), then read the Lease.
 */
async function retryAfterStep(base: Client, ns: string): Promise<string> {
  await createNamespacedLease(base, { namespace: ns, body: lease(THROTTLED_LEASE, 'throttled-holder') });
  const retries: RetryEvent[] = [];
  const client = createClient({
    baseUrl: base.baseUrl,
    fetch: withRetries(platformFetch, { baseDelayMs: 1, maxDelayMs: 5_000, onRetry: (e) => retries.push(e) }),
  });
  const read = await readNamespacedLease(client, { namespace: ns, name: THROTTLED_LEASE });
  expectThat(
    read.spec?.holderIdentity === 'throttled-holder',
    `read holderIdentity ${JSON.stringify(read.spec?.holderIdentity)}`,
  );
  const seen = retries.map((e) => `attempt ${e.attempt} after ${e.reason}: wait ${e.delayMs} ms`);
  const expected = [`attempt 1 after TooManyRequests: wait ${THROTTLE_RETRY_AFTER_SECONDS * 1000} ms`];
  expectThat(
    seen.join('|') === expected.join('|'),
    `retries ${JSON.stringify(seen)}, expected ${JSON.stringify(expected)}`,
  );
  return `${seen.join()} (Retry-After: ${THROTTLE_RETRY_AFTER_SECONDS}), then read`;
}

/** The server is down: each runtime words its fetch failure its own way; the client's error names the request's URL in all. */
async function serverDownStep(_client: Client, ns: string, config: ScenarioConfig): Promise<string> {
  const down = createClient({ baseUrl: config.downUrl });
  const url = `${config.downUrl}/apis/coordination.k8s.io/v1/namespaces/${ns}/leases/alpha`;
  try {
    await readNamespacedLease(down, { namespace: ns, name: 'alpha' });
  } catch (error) {
    expectThat(error instanceof ConnectionError, `rejected with ${String(error)} instead of a ConnectionError`);
    const message = error instanceof Error ? error.message : '';
    expectThat(message.startsWith(`GET ${url}: `), `the message does not name GET ${url}: ${message}`);
    expectThat((error as ConnectionError).url === url, `error.url is ${(error as ConnectionError).url}`);
    expectThat(error instanceof TypeError && (error as Error).cause !== undefined, 'no TypeError, or no cause');
    return `ConnectionError: ${message.replace(config.downUrl, '<down>')}`;
  }
  throw new StepFailure('a request to a server that is down resolved');
}

const STEPS: Record<StepName, (client: Client, namespace: string, config: ScenarioConfig) => Promise<string>> = {
  create: createStep,
  read: readStep,
  conflict: conflictStep,
  apply: applyStep,
  pagedList: pagedListStep,
  watch: watchStep,
  informer: informerStep,
  abort: abortStep,
  timeout: timeoutStep,
  redirect: redirectStep,
  warning: warningStep,
  retryAfter: retryAfterStep,
  serverDown: serverDownStep,
};

function guarded<T>(work: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StepFailure(`still running after ${STEP_GUARD_MS} ms`)), STEP_GUARD_MS);
  });
  return Promise.race([work, guard]).finally(() => clearTimeout(timer));
}

/** Runs every step in order; a failed step is recorded and the next one still runs. */
export async function runScenario(
  config: ScenarioConfig,
  onStep: (result: StepResult) => void = () => {},
): Promise<StepResult[]> {
  const client = createClient({ baseUrl: config.baseUrl });
  const results: StepResult[] = [];
  for (const name of STEP_NAMES) {
    let result: StepResult;
    try {
      result = { name, passed: true, detail: await guarded(STEPS[name](client, config.namespace, config)) };
    } catch (error) {
      result = {
        name,
        passed: false,
        detail: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      };
    }
    results.push(result);
    onStep(result);
  }
  return results;
}

/** The browser page's live list: every Lease of the cluster, kept current by an informer. */
export function watchLeasesLive(
  baseUrl: string,
  render: (leases: Lease[]) => void,
  signal: AbortSignal,
): Promise<void> {
  const client = createClient({ baseUrl });
  const sorted = (items: Lease[]): Lease[] =>
    [...items].sort((a, b) =>
      `${a.metadata?.namespace}/${a.metadata?.name}`.localeCompare(`${b.metadata?.namespace}/${b.metadata?.name}`),
    );
  const informer = createLeaseInformerForAllNamespaces(
    client,
    { labelSelector: 'dashboard=live' },
    {
      onAdd: () => render(sorted(informer.list())),
      onUpdate: () => render(sorted(informer.list())),
      onDelete: () => render(sorted(informer.list())),
    },
    { signal },
  );
  return informer.start().then(() => render(sorted(informer.list())));
}
