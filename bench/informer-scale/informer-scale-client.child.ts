/**
 * Child process of the `informer-scale` benchmark, one informer per process
 * (started by informer-scale.bench.ts on bare node with --expose-gc, compiled
 * to bench/.build/), so its heap holds that informer alone:
 *
 * 1. imports its library, builds a client and makes one request (a 404) so
 *    the library's lazily loaded parts are in; GC; heapUsed is the baseline;
 * 2. starts the informer over kube-node-lease and times it until synced;
 *    GC; heapUsed − baseline is the retained heap of the cache; tells the parent;
 * 3. with renewalRounds > 0, handles rounds × leases update events (the parent
 *    has the server renew every Lease once per round), with a GC and a
 *    heapUsed sample at every round boundary, and reports over IPC.
 *
 *   argv[2]: an InformerClientConfig as JSON
 */
import { clientNodeOptions } from '../lib/client-node-options.js';
import {
  NODE_LEASE_NAMESPACE,
  type InformerClientConfig,
  type InformerClientResult,
  type InformerSynced,
} from './informer-scale.js';

/** One informer, whichever library: started (resolves once synced), counted, stopped. */
interface Subject {
  /**
   * One request that loads what the library loads on its first request (Node's fetch loads undici
   * lazily, ~2.7 MB of heap), so the baseline taken after it leaves one-time state out of the
   * per-object figure.
   */
  warm(): Promise<void>;
  start(): Promise<void>;
  cached(): number;
  stop(): Promise<void>;
}

/** A Lease that does not exist: the warm-up read gets a 404, which both libraries throw. */
const WARM_UP_NAME = 'bench-warm-up-absent';
const noop = (): void => undefined;

type Handlers = { readonly onUpdate: () => void; readonly onError: (error: unknown) => void };

async function ours(config: InformerClientConfig, handlers: Handlers): Promise<Subject> {
  const { createClient, createNamespacedLeaseInformer, readNamespacedLease } = await import(
    '../../generated/k8s-lease-client/dist/index.js'
  );
  const client = createClient({ baseUrl: config.baseUrl });
  const informer = createNamespacedLeaseInformer(
    client,
    { namespace: NODE_LEASE_NAMESPACE },
    { onUpdate: handlers.onUpdate, onError: handlers.onError },
  );
  return {
    warm: () => readNamespacedLease(client, { namespace: NODE_LEASE_NAMESPACE, name: WARM_UP_NAME }).then(noop, noop),
    start: () => informer.start(),
    cached: () => informer.list().length,
    stop: () => informer.stop(),
  };
}

/** client-node 1.4.0's makeInformer over the same path, with the list function its docs show. */
async function clientNode(config: InformerClientConfig, handlers: Handlers): Promise<Subject> {
  const { CoordinationV1Api, KubeConfig, makeInformer } = await import('@kubernetes/client-node');
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions(clientNodeOptions(config.baseUrl));
  const coordination = kubeConfig.makeApiClient(CoordinationV1Api);
  const informer = makeInformer(
    kubeConfig,
    `/apis/coordination.k8s.io/v1/namespaces/${NODE_LEASE_NAMESPACE}/leases`,
    () => coordination.listNamespacedLease({ namespace: NODE_LEASE_NAMESPACE }),
  );
  informer.on('update', handlers.onUpdate);
  informer.on('error', handlers.onError);
  return {
    warm: () =>
      coordination.readNamespacedLease({ namespace: NODE_LEASE_NAMESPACE, name: WARM_UP_NAME }).then(noop, noop),
    start: () => informer.start(),
    cached: () => informer.list().length,
    stop: () => informer.stop(),
  };
}

function collect(): number {
  if (typeof gc !== 'function') throw new Error('informer-scale-client.child needs --expose-gc');
  // Twice: the first pass may only schedule finalisation of what the second frees.
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

async function main(config: InformerClientConfig): Promise<InformerClientResult> {
  const expected = config.renewalRounds * config.leases;
  const heapSamples: number[] = [];
  let updates = 0;
  let firstUpdate = 0;
  let lastUpdate = 0;
  let error = '';
  let syncedYet = false;
  let done = false;
  let resolveFinished: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (resolveFinished = resolve));
  const finish = (): void => {
    done = true;
    resolveFinished();
  };
  let cpuAtFirstUpdate: NodeJS.CpuUsage | undefined;
  let cpuMicros = 0;
  let sampleCpuMicros = 0;
  const handlers: Handlers = {
    onUpdate: () => {
      if (!syncedYet) return;
      const now = performance.now();
      if (updates === 0) {
        firstUpdate = now;
        cpuAtFirstUpdate = process.cpuUsage();
      }
      lastUpdate = now;
      updates++;
      if (updates === expected) {
        const cpu = process.cpuUsage(cpuAtFirstUpdate);
        cpuMicros = cpu.user + cpu.system - sampleCpuMicros;
      }
      // A heap sample per round; the forced GCs' CPU is kept out of the event-handling CPU.
      if (updates % config.leases === 0) {
        const before = process.cpuUsage();
        heapSamples.push(collect());
        const spent = process.cpuUsage(before);
        sampleCpuMicros += spent.user + spent.system;
      }
      if (updates === expected) finish();
    },
    onError: (cause) => {
      // stop() at the end aborts client-node's watch request, which it reports as an error.
      if (done) return;
      error ||= cause instanceof Error ? cause.message : String(cause);
      finish();
    },
  };
  const subject = config.contender === 'ours' ? await ours(config, handlers) : await clientNode(config, handlers);
  await subject.warm();
  const heapBeforeBytes = collect();
  const started = performance.now();
  await subject.start();
  const syncMs = performance.now() - started;
  const heapSyncedBytes = collect();
  syncedYet = true;
  const synced: InformerSynced = {
    type: 'synced',
    contender: config.contender,
    syncMs,
    cached: subject.cached(),
    heapBeforeBytes,
    heapSyncedBytes,
  };
  process.send?.(synced);
  if (expected > 0) {
    // A stalled stream must end the run with an error, not hang the benchmark.
    let seen = -1;
    const watchdog = setInterval(() => {
      if (updates === seen) {
        error ||= `no update event for 60 s (${updates} of ${expected})`;
        finish();
      }
      seen = updates;
    }, 60_000);
    await finished;
    clearInterval(watchdog);
  }
  const cachedAtEnd = subject.cached();
  await subject.stop();
  return {
    type: 'result',
    contender: config.contender,
    synced,
    updates,
    renewalSeconds: (lastUpdate - firstUpdate) / 1000,
    renewalCpuMicros: cpuMicros,
    heapSamples,
    cachedAtEnd,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
    error,
  };
}

const config = JSON.parse(process.argv[2] ?? 'null') as InformerClientConfig | null;
if (config === null) throw new Error('usage: informer-scale-client.child.mjs <InformerClientConfig as JSON>');
const result = await main(config);
process.send?.(result, () => process.exit(0));
