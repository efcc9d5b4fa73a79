import { CoordinationV1Api, KubeConfig } from '@kubernetes/client-node';
import createOpenapiFetchClient from 'openapi-fetch';
import { createClient, readNamespacedLease, type Lease } from '../../generated/k8s-lease-client/dist/index.js';
import type { ChildProcess } from 'node:child_process';
import { clientNodeOptions } from '../lib/client-node-options.js';
import { NODE22, NODE22_MISSING, buildChild } from '../lib/build-child.js';
import { forkChild } from '../lib/fork-child.js';
import { recordGoals } from '../lib/goal.js';
import { type ReadRound, readFigures } from '../lib/read-figures.js';
import { goalsOf } from '../lib/goals.js';
import {
  environment,
  median,
  round,
  runInterleaved,
  type BenchContext,
  type BenchResult,
  type ContenderFailure,
} from '../lib/harness.js';
import { LEASE_NAME, LEASE_NAMESPACE, LEASE_PATH, leaseName } from '../lib/bench-lease.js';
import { startLeaseServer, type ServerStats } from '../lib/lease-server.js';
import {
  REMOTE_READS_CONTENDERS,
  isReadsChildMessage,
  type ReadsChildConfig,
  type ReadsChildMessage,
  type RemoteReadsContender,
} from './reads-remote.js';

/**
 * The one operation the reads benchmark calls, typed as openapi-typescript
 * types it (`paths[…]['get']`), written out by hand so this file type-checks
 * without a generated file. openapi-fetch's runtime never looks at it.
 */
interface LeasePaths {
  '/apis/coordination.k8s.io/v1/namespaces/{namespace}/leases/{name}': {
    parameters: { query?: never; header?: never; path: { namespace: string; name: string }; cookie?: never };
    get: {
      parameters: {
        query?: { pretty?: string };
        header?: never;
        path: { namespace: string; name: string };
        cookie?: never;
      };
      requestBody?: never;
      responses: { 200: { headers: { [name: string]: unknown }; content: { 'application/json': Lease } } };
    };
  };
}

interface Contender {
  readonly key: string;
  /** One timed round of `requests` sequential GETs: wall seconds and the CPU of the process that made them. */
  readonly round: (requests: number) => Promise<{ seconds: number; cpuMicros: number }>;
}

/** A round in this process: `read` is one GET of the Lease, resolving to the decoded body. */
function localContender(key: string, read: () => Promise<unknown>): Contender & { read: () => Promise<unknown> } {
  return {
    key,
    read,
    async round(requests) {
      const cpuBefore = process.cpuUsage();
      const started = process.hrtime.bigint();
      for (let i = 0; i < requests; i++) await read();
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const cpu = process.cpuUsage(cpuBefore);
      return { seconds, cpuMicros: cpu.user + cpu.system };
    },
  };
}

interface RemoteClients {
  readonly contenders: Contender[];
  readonly node: string;
  close(): Promise<void>;
}

/**
 * The Node 22 clients (fetch floor, ours, client-node 2.x, which needs Node ≥ 22) in one child
 * process started with the Node 22 binary; resolves once each is checked and warmed up.
 */
async function startRemoteClients(node22: string, baseUrl: string, warmup: number): Promise<RemoteClients> {
  const entry = await buildChild(new URL('./reads-client.child.ts', import.meta.url));
  const config: ReadsChildConfig = { baseUrl, contenders: REMOTE_READS_CONTENDERS, warmup };
  const child: ChildProcess = forkChild(entry, [JSON.stringify(config)], { execPath: node22 });
  const waiters: Array<{ resolve: (message: ReadsChildMessage) => void; reject: (error: Error) => void }> = [];
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.on('message', (message: unknown) => {
    if (isReadsChildMessage(message)) waiters.shift()?.resolve(message);
  });
  child.once('exit', (code, signal) => {
    for (const waiter of waiters.splice(0))
      waiter.reject(new Error(`Node 22 reads child exited (code ${String(code)}, signal ${String(signal)})`));
  });
  const next = (): Promise<ReadsChildMessage> => new Promise((resolve, reject) => waiters.push({ resolve, reject }));
  const ready = await next();
  const node = ready.type === 'ready' ? ready.node : '?';
  const remote = (key: RemoteReadsContender): Contender => ({
    key,
    async round(requests) {
      if (child.exitCode !== null || child.signalCode !== null || !child.connected)
        throw new Error(`Node 22 reads child has exited (code ${String(child.exitCode)})`);
      const answer = next();
      child.send({ type: 'round', contender: key, requests });
      const message = await answer;
      if (message.type === 'failed' && message.contender === key) throw new Error(message.error);
      if (message.type !== 'round' || message.contender !== key)
        throw new Error(`Node 22 reads child answered ${JSON.stringify(message)} to a round of ${key}`);
      return { seconds: message.seconds, cpuMicros: message.cpuMicros };
    },
  });
  return {
    contenders: REMOTE_READS_CONTENDERS.map(remote),
    node,
    async close() {
      if (child.exitCode !== null) return;
      child.disconnect();
      await gone;
    },
  };
}

interface Round extends ReadRound {
  readonly usedConnections: number;
  readonly newConnections: number;
}

/**
 * 5,000 sequential GETs of one ~1 KB Lease from a loopback server in a child
 * process, for: plain `fetch(url).then(r => r.json())` (the floor), our
 * `readNamespacedLease`, `@kubernetes/client-node` and openapi-fetch. Each is
 * warmed up, then timed in interleaved rounds (order reversed every other
 * round so drift hits everyone alike); figures are median requests/second,
 * the client's CPU per request and the TCP connections the server saw.
 * Goals, as medians of per-round ratios within this run:
 * ours ≥ 0.95 × floor, ours ≥ 1.3 × client-node, and ours keeps its
 * connection alive (≤ 5 connections per round).
 */
export async function benchReads(context: BenchContext): Promise<BenchResult> {
  const requests = context.quick ? 500 : 5000;
  const rounds = context.quick ? 3 : 5;
  const warmup = context.quick ? 200 : 1000;
  const server = await startLeaseServer();
  let remote: RemoteClients | undefined;
  try {
    const url = server.baseUrl + LEASE_PATH;

    const ours = createClient({ baseUrl: server.baseUrl });

    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromOptions(clientNodeOptions(server.baseUrl));
    const coordination = kubeConfig.makeApiClient(CoordinationV1Api);

    const openapiFetch = createOpenapiFetchClient<LeasePaths>({ baseUrl: server.baseUrl });

    const local = [
      localContender('fetch floor', () => fetch(url).then((r) => r.json())),
      localContender('ours', () => readNamespacedLease(ours, { namespace: LEASE_NAMESPACE, name: LEASE_NAME })),
      localContender('client-node', () =>
        coordination.readNamespacedLease({ namespace: LEASE_NAMESPACE, name: LEASE_NAME }),
      ),
      localContender('openapi-fetch', () =>
        openapiFetch
          .GET('/apis/coordination.k8s.io/v1/namespaces/{namespace}/leases/{name}', {
            params: { path: { namespace: LEASE_NAMESPACE, name: LEASE_NAME } },
          })
          .then((r) => r.data),
      ),
    ];

    for (const contender of local) {
      const name = leaseName(await contender.read());
      if (name !== LEASE_NAME) throw new Error(`${contender.key}: expected Lease ${LEASE_NAME}, got ${String(name)}`);
      for (let i = 1; i < warmup; i++) await contender.read();
    }
    // Node 22 with client-node 2.x, side by side in the same rounds; without the binary, the Node 20 figures alone.
    const startFailures: ContenderFailure[] = [];
    try {
      remote = NODE22 !== undefined ? await startRemoteClients(NODE22, server.baseUrl, warmup) : undefined;
    } catch (error) {
      // The Node 22 child died while checking or warming its clients: they fail, the Node 20 figures stand.
      const text = error instanceof Error ? error.message : String(error);
      for (const contender of REMOTE_READS_CONTENDERS) startFailures.push({ contender, round: -1, error: text });
    }
    const contenders: Contender[] = [...local, ...(remote?.contenders ?? [])];

    const byKey = new Map(contenders.map((c) => [c.key, c]));
    const { results: measuredRounds, failed: roundFailures } = await runInterleaved(
      contenders.map((c) => c.key),
      rounds,
      async (key): Promise<Round> => {
        await server.reset();
        const { seconds, cpuMicros } = await byKey.get(key)!.round(requests);
        const stats: ServerStats = await server.stats();
        if (stats.requests !== requests)
          throw new Error(`${key}: server saw ${stats.requests} requests, expected ${requests}`);
        return { rps: requests / seconds, cpuMicros: cpuMicros / requests, ...stats };
      },
    );
    const failed = [...startFailures, ...roundFailures];
    /** A failed contender's series is empty: its figures come out NaN (left out of the record), so the goals that need them are not measured. */
    const series = (key: string, pick: (r: Round) => number): number[] => (measuredRounds.get(key) ?? []).map(pick);

    const rps = (key: string): number => median(series(key, (r) => r.rps));
    /**
     * Median over rounds of ours / baseline within the same round. The two ran
     * back to back, so load from elsewhere on the machine (which moves whole
     * rounds by ±20 % here) mostly cancels; the goals are checked on these.
     */
    const pairedRatio = (key: string, oursKey = 'ours'): number => {
      const baseline = series(key, (r) => r.rps);
      return median(series(oursKey, (r) => r.rps).map((value, i) => value / baseline[i]!));
    };
    const floor = rps('fetch floor');
    const ourRps = rps('ours');
    const clientNode = rps('client-node');
    const oursVsFloor = pairedRatio('fetch floor');
    const oursVsClientNode = pairedRatio('client-node');

    const figures = readFigures(
      { requests, rounds, warmup, leaseBytes: server.leaseBytes },
      contenders.map((c) => c.key),
      measuredRounds,
    );
    figures['ratio ours / fetch floor (median of per-round ratios)'] = round(oursVsFloor, 3);
    figures['ratio ours / fetch floor (ratio of medians)'] = round(ourRps / floor, 3);
    figures['ratio ours / client-node (median of per-round ratios)'] = round(oursVsClientNode, 3);
    figures['ratio ours / client-node (ratio of medians)'] = round(ourRps / clientNode, 3);
    figures['ratio ours / openapi-fetch (median of per-round ratios)'] = round(pairedRatio('openapi-fetch'), 3);
    figures['ratio openapi-fetch / fetch floor (ratio of medians)'] = round(rps('openapi-fetch') / floor, 3);
    if (remote === undefined) figures['Node 22'] = startFailures.length > 0 ? 'failed to start' : NODE22_MISSING;
    else {
      figures['Node 22 version'] = remote.node;
      figures['Node 22: ratio ours / client-node 2.0.1 (median of per-round ratios)'] = round(
        pairedRatio('client-node 2.0.1 (Node 22)', 'ours (Node 22)'),
        3,
      );
      figures['Node 22: ratio ours / fetch floor (median of per-round ratios)'] = round(
        pairedRatio('fetch floor (Node 22)', 'ours (Node 22)'),
        3,
      );
    }
    for (const contender of contenders) {
      if (!measuredRounds.has(contender.key)) continue;
      const key = contender.key;
      figures[`${key}: TCP connections used per round (max)`] = Math.max(...series(key, (r) => r.usedConnections));
      figures[`${key}: TCP connections opened per round (max)`] = Math.max(...series(key, (r) => r.newConnections));
    }

    return {
      name: 'reads',
      command: 'npm run bench -- reads',
      environment: remote === undefined ? environment() : `${environment()}; Node 22 clients: node ${remote.node}`,
      figures,
      ...(failed.length === 0 ? {} : { failed }),
      goals: recordGoals(goalsOf('reads'), figures, {}),
    };
  } finally {
    await remote?.close();
    await server.close();
  }
}
