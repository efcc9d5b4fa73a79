import type { ChildProcess } from 'node:child_process';
import { buildChild } from '../lib/build-child.js';
import { forkChild } from '../lib/fork-child.js';
import { recordGoals } from '../lib/goal.js';
import { goalsOf } from '../lib/goals.js';
import { environment, median, round, runInterleaved, type BenchContext, type BenchResult } from '../lib/harness.js';
import {
  isInformerClientResult,
  isInformerSynced,
  isServerMessage,
  type InformerClientConfig,
  type InformerClientResult,
  type InformerContender,
  type ServerMessage,
} from './informer-scale.js';

const CONTENDERS: readonly InformerContender[] = ['ours', 'client-node'];
/** Simulated time: kubelet renews its node Lease every 10 s (nodeLeaseRenewInterval), so 60 rounds are 10 minutes. */
const RENEW_INTERVAL_SECONDS = 10;

interface ServerChild {
  readonly baseUrl: string;
  readonly seedSeconds: number;
  readonly listBytes: number;
  renew(rounds: number): Promise<Extract<ServerMessage, { type: 'renewed' }>>;
  close(): Promise<void>;
}

/** Starts the Lease API server child (under tsx, as the benchmarks run) and resolves once it holds `leases` Leases and listens. */
async function startServer(leases: number): Promise<ServerChild> {
  const child: ChildProcess = forkChild(
    new URL('./informer-scale-server.child.ts', import.meta.url),
    [String(leases)],
    {
      tsx: true,
    },
  );
  const waiters: Array<(message: Extract<ServerMessage, { type: 'renewed' }>) => void> = [];
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const listening = await new Promise<Extract<ServerMessage, { type: 'listening' }>>((resolve, reject) => {
    child.on('message', (message: unknown) => {
      if (!isServerMessage(message)) return;
      if (message.type === 'listening') resolve(message);
      else waiters.shift()?.(message);
    });
    child.once('exit', (code, signal) =>
      reject(new Error(`Lease API server child exited (code ${String(code)}, signal ${String(signal)})`)),
    );
    child.once('error', reject);
  });
  return {
    baseUrl: `http://127.0.0.1:${listening.port}`,
    seedSeconds: listening.seedSeconds,
    listBytes: listening.listBytes,
    renew: (rounds) =>
      new Promise((resolve) => {
        waiters.push(resolve);
        child.send({ type: 'renew', rounds });
      }),
    async close() {
      if (child.exitCode !== null) return;
      child.disconnect();
      await gone;
    },
  };
}

/**
 * One informer in its own process (bare node, --expose-gc). Once it reports
 * synced, and if it is to follow renewals, the server renews every Lease
 * `renewalRounds` times; resolves with the client's result and the server's.
 */
function runClient(
  entry: string,
  config: InformerClientConfig,
  server: ServerChild,
): Promise<{ client: InformerClientResult; server: Extract<ServerMessage, { type: 'renewed' }> | undefined }> {
  return new Promise((resolve, reject) => {
    const child = forkChild(entry, [JSON.stringify(config)], { nodeFlags: ['--expose-gc'] });
    let result: InformerClientResult | undefined;
    let renewal: Promise<Extract<ServerMessage, { type: 'renewed' }>> | undefined;
    child.on('message', (message: unknown) => {
      if (isInformerSynced(message) && config.renewalRounds > 0) renewal = server.renew(config.renewalRounds);
      if (isInformerClientResult(message)) result = message;
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (result === undefined) {
        reject(
          new Error(
            `${config.contender} informer exited without a result (code ${String(code)}, signal ${String(signal)})`,
          ),
        );
        return;
      }
      const client = result;
      (renewal ?? Promise.resolve(undefined)).then((renewed) => resolve({ client, server: renewed }), reject);
    });
  });
}

/** Least-squares slope of `samples` per step. */
function slope(samples: readonly number[]): number {
  const n = samples.length;
  if (n < 2) return Number.NaN;
  const meanX = (n - 1) / 2;
  const meanY = samples.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  samples.forEach((y, x) => {
    num += (x - meanX) * (y - meanY);
    den += (x - meanX) ** 2;
  });
  return num / den;
}

/**
 * 15,000 node Leases (a large cluster's kube-node-lease) served by the shipped
 * Lease API server in a child process, cached by this package's informer
 * (`createNamespacedLeaseInformer`) and by `@kubernetes/client-node` 1.4.0's
 * `makeInformer`, each in a process of its own per round (isolated heaps):
 * time to synced, and retained heap per cached Lease (heapUsed after GC,
 * synced minus before start, ÷ leases). Then, in the first round, ten
 * simulated minutes of renewals compressed in time — every Lease renewed once
 * per simulated 10 s, 60 rounds as fast as the server takes them: update
 * events handled per second, and the heap after GC at every round (its slope
 * should be ≈ 0). Goals: ours ahead of client-node on sync time and heap per
 * object (medians of per-round ratios), every renewal seen, heap flat.
 */
export async function benchInformerScale(context: BenchContext): Promise<BenchResult> {
  const leases = context.quick ? 2_000 : 15_000;
  const rounds = context.quick ? 1 : 3;
  const renewalRounds = context.quick ? 10 : 60;
  const entry = await buildChild(new URL('./informer-scale-client.child.ts', import.meta.url));
  const server = await startServer(leases);
  try {
    const renewals = new Map<InformerContender, { client: InformerClientResult; serverSeconds: number }>();
    // An informer process that dies (or syncs short) is recorded as failed and sits out the later rounds.
    const { results: synced, failed } = await runInterleaved(CONTENDERS, rounds, async (contender, r) => {
      const follow = r === 0 ? renewalRounds : 0;
      const run = await runClient(entry, { contender, baseUrl: server.baseUrl, leases, renewalRounds: follow }, server);
      if (run.client.synced.cached !== leases)
        throw new Error(`${contender}: ${run.client.synced.cached} Leases cached after sync, expected ${leases}`);
      if (follow > 0) renewals.set(contender, { client: run.client, serverSeconds: run.server?.seconds ?? Number.NaN });
      return run.client;
    });

    const syncMs = (c: InformerContender): number[] => (synced.get(c) ?? []).map((r) => r.synced.syncMs);
    const perObject = (c: InformerContender): number[] =>
      (synced.get(c) ?? []).map((r) => (r.synced.heapSyncedBytes - r.synced.heapBeforeBytes) / leases);
    const paired = (values: (c: InformerContender) => number[]): number => {
      const theirs = values('client-node');
      return median(values('ours').map((v, i) => v / theirs[i]!));
    };
    const syncRatio = paired(syncMs);
    const heapRatio = paired(perObject);

    const expectedUpdates = renewalRounds * leases;
    const figures: Record<string, number | string> = {
      leases,
      rounds,
      'list response bytes': server.listBytes,
      'server: seeding seconds': round(server.seedSeconds, 2),
      'renewal rounds (simulated 10 s each)': renewalRounds,
      'simulated minutes': (renewalRounds * RENEW_INTERVAL_SECONDS) / 60,
    };
    /** Whether each informer handled every renewal and still caches every Lease (check goals in goals.ts). */
    const checks: Record<string, { met: boolean; detail: string }> = {};
    for (const contender of CONTENDERS) {
      // A contender that failed (recorded in `failed`) handled nothing this run can vouch for: its check is missed.
      const notRun = { met: false, detail: 'it failed' };
      if (!synced.has(contender)) {
        checks[`${contender}-handles-all`] = notRun;
        continue;
      }
      figures[`${contender}: time to synced ms (median)`] = round(median(syncMs(contender)), 0);
      figures[`${contender}: time to synced ms per round`] = syncMs(contender)
        .map((v) => round(v, 0))
        .join(', ');
      figures[`${contender}: retained heap bytes per object (median)`] = round(median(perObject(contender)), 0);
      figures[`${contender}: retained heap bytes per object per round`] = perObject(contender)
        .map((v) => round(v, 0))
        .join(', ');
      const renewal = renewals.get(contender);
      if (renewal === undefined) {
        checks[`${contender}-handles-all`] = notRun;
        continue;
      }
      const { client } = renewal;
      const rate = client.updates > 1 ? (client.updates - 1) / client.renewalSeconds : Number.NaN;
      // Per simulated 10 minutes = per 60 rounds; samples are one per round.
      // The first quarter is warm-up (code, inline caches, connection buffers settle); a leak grows through the rest.
      const heapSlope =
        slope(client.heapSamples.slice(Math.ceil(client.heapSamples.length / 4))) * (600 / RENEW_INTERVAL_SECONDS);
      const complete = client.error === '' && client.updates === expectedUpdates && client.cachedAtEnd === leases;
      figures[`${contender}: renewal events/s`] = round(rate, 0);
      figures[`${contender}: renewal CPU µs per event`] = round(client.renewalCpuMicros / client.updates, 1);
      // What one core could handle: the wall rate is the server's pace whenever the server is the slower side.
      figures[`${contender}: renewal events per CPU-second`] = round(
        (client.updates / client.renewalCpuMicros) * 1e6,
        0,
      );
      figures[`server: renewal updates/s while ${contender} watched`] = round(
        expectedUpdates / renewal.serverSeconds,
        0,
      );
      figures[`${contender}: renewal updates received`] =
        `${client.updates} of ${expectedUpdates}${client.error === '' ? '' : `, failed: ${client.error}`}`;
      figures[`${contender}: heap after GC per round, first / last / max MB`] =
        `${round((client.heapSamples[0] ?? NaN) / 1e6, 2)} / ${round((client.heapSamples[client.heapSamples.length - 1] ?? NaN) / 1e6, 2)} / ${round(Math.max(...client.heapSamples) / 1e6, 2)}`;
      figures[`${contender}: heap after GC per round MB`] = client.heapSamples.map((v) => round(v / 1e6, 2)).join(', ');
      figures[`${contender}: heap slope MB per 10 simulated minutes`] = round(heapSlope / 1e6, 3);
      figures[`${contender}: peak RSS MB (renewal run)`] = round(client.maxRssBytes / 1e6, 1);
      checks[`${contender}-handles-all`] = {
        met: complete,
        detail: `${client.updates} of ${expectedUpdates} renewals, ${client.cachedAtEnd} of ${leases} Leases cached`,
      };
    }
    figures['ratio ours / client-node, time to synced (median of per-round ratios)'] = round(syncRatio, 3);
    figures['ratio ours / client-node, heap per object (median of per-round ratios)'] = round(heapRatio, 3);
    figures['ratio ours / client-node, renewal events per CPU-second'] = round(
      Number(figures['ours: renewal events per CPU-second']) /
        Number(figures['client-node: renewal events per CPU-second']),
      3,
    );
    return {
      name: 'informer-scale',
      command: 'npm run bench -- informer-scale',
      environment: environment(),
      figures,
      // The heap goal (goals.ts) is judged on the recorded slope: the cache is replaced in place, so what it holds
      // after 60 rounds is what it held after 1; < 2 % of the cache's size per 10 minutes is noise.
      ...(failed.length === 0 ? {} : { failed }),
      goals: recordGoals(goalsOf('informer-scale'), figures, checks),
    };
  } finally {
    await server.close();
  }
}
