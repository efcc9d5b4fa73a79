import type { ChildProcess } from 'node:child_process';
import { NODE22, NODE22_MISSING, buildChild, node22Version } from '../lib/build-child.js';
import { forkChild } from '../lib/fork-child.js';
import { recordGoals } from '../lib/goal.js';
import { goalsOf } from '../lib/goals.js';
import { environment, median, round, runInterleaved, type BenchContext, type BenchResult } from '../lib/harness.js';
import {
  isListeningMessage,
  isWatchClientResult,
  runsOnNode22,
  type WatchClientConfig,
  type WatchClientResult,
  type WatchContender,
  type WatchServerMessage,
} from './watch-stream.js';

const MB = 1024 * 1024;

/** In measuring order (reversed every other round). */
const NODE20_CONTENDERS: readonly WatchContender[] = [
  'bytes only',
  'byte-split floor',
  'fetch floor',
  'ours',
  'client-node',
  'JSON.parse only',
];
/** The same watch on Node 22, with client-node 2.x (which needs Node ≥ 22), interleaved in the same rounds. */
const NODE22_CONTENDERS: readonly WatchContender[] = ['ours (Node 22)', 'client-node 2.0.1 (Node 22)'];
const HAVE_NODE22 = NODE22 !== undefined;
const CONTENDERS: readonly WatchContender[] = [...NODE20_CONTENDERS, ...(HAVE_NODE22 ? NODE22_CONTENDERS : [])];

interface WatchServer extends WatchServerMessage {
  readonly baseUrl: string;
  close(): Promise<void>;
}

/** Starts watch-server.child.ts (through tsx, as the benchmarks run) and resolves once it has built its streams and listens. */
async function startWatchServer(events: number, warmupEvents: number): Promise<WatchServer> {
  const child: ChildProcess = forkChild(
    new URL('./watch-server.child.ts', import.meta.url),
    [String(events), String(warmupEvents)],
    { tsx: true },
  );
  let exited = false;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const listening = await new Promise<WatchServerMessage>((resolve, reject) => {
    child.on('message', (message: unknown) => {
      if (isListeningMessage(message)) resolve(message);
    });
    child.once('exit', (code, signal) => {
      exited = true;
      reject(new Error(`watch server exited (code ${String(code)}, signal ${String(signal)})`));
    });
    child.once('error', reject);
  });
  return {
    ...listening,
    baseUrl: `http://127.0.0.1:${listening.port}`,
    async close() {
      if (exited) return;
      child.disconnect();
      await gone;
    },
  };
}

/** Runs one client in its own process (plain node, the compiled child) and resolves with its result once the process has exited. */
function runClient(
  entry: string,
  config: WatchClientConfig,
  nodeFlags: readonly string[] = [],
): Promise<WatchClientResult> {
  return new Promise((resolve, reject) => {
    const child = forkChild(entry, [JSON.stringify(config)], {
      nodeFlags,
      ...(runsOnNode22(config.contender) && NODE22 !== undefined ? { execPath: NODE22 } : {}),
    });
    let result: WatchClientResult | undefined;
    child.on('message', (message: unknown) => {
      if (isWatchClientResult(message)) result = message;
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (result !== undefined) resolve(result);
      else
        reject(
          new Error(
            `${config.contender} client exited without a result (code ${String(code)}, signal ${String(signal)})`,
          ),
        );
    });
  });
}

/** Least-squares slope of `samples` (taken every `every` events), in bytes per `per` events. */
function slope(samples: readonly number[], every: number, per: number): number {
  const n = samples.length;
  if (n < 2) return Number.NaN;
  const xs = samples.map((_, i) => ((i + 1) * every) / per);
  const meanX = xs.reduce((a, b) => a + b, 0) / n;
  const meanY = samples.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - meanX) * (samples[i]! - meanY);
    den += (xs[i]! - meanX) ** 2;
  }
  return num / den;
}

function mb(bytes: number, digits = 1): number {
  return round(bytes / MB, digits);
}

/**
 * Decoding throughput of a Lease watch: 200,000 MODIFIED events (~643 bytes
 * each, ~129 MB) served as chunked newline-delimited JSON by a loopback
 * server in a child process, read by: a transport-only reader (bytes only,
 * the ceiling of what the server and loopback deliver), the byte-split
 * floor (bare fetch + lines cut at newlines, no decode, no parse), the fetch
 * floor (the same + per-line decode + JSON.parse), ours
 * (`watchNamespacedLeases`), `@kubernetes/client-node`'s Watch, and
 * JSON.parse alone over the same lines in memory (the limit). Each client
 * runs in a process of its own per round (its peak RSS is its own), decodes
 * a 20,000-event warm-up stream, then the measured one. A separate untimed
 * run of ours forces a GC before every heap sample for the retained-heap slope.
 * Goals (declared in goals.ts), as medians of per-round ratios of
 * events/second within this run: ours ≥ 0.85 × the fetch floor, ours ≥ 1.15 ×
 * client-node 1.4.0 (Node 20) and ≥ 1.15 × client-node 2.x (Node 22); ours'
 * retained heap grows < 1 MB per 100k events; ours and
 * client-node receive every event, the last with the right resourceVersion.
 * Ours ÷ the byte-split floor and ÷ JSON.parse only are recorded as context.
 */
export async function benchWatch(context: BenchContext): Promise<BenchResult> {
  const events = context.quick ? 20_000 : 200_000;
  const warmupEvents = context.quick ? 2_000 : 20_000;
  const rounds = context.quick ? 1 : 3;
  /** Heap samples per stream: 20 either way (every 10,000 events in full runs). */
  const sampleEvery = events / 20;
  const clientEntry = await buildChild(new URL('./watch-client.child.ts', import.meta.url));
  const server = await startWatchServer(events, warmupEvents);
  try {
    const base = { baseUrl: server.baseUrl, events, warmupEvents, sampleEvery, forceGc: false };
    // A client process that dies is recorded as failed and sits out the later rounds; the others' figures stand.
    const { results, failed } = await runInterleaved(CONTENDERS, rounds, (contender) =>
      runClient(clientEntry, { ...base, contender }),
    );
    /** A failed contender's rounds: none (its figures come out NaN (left out of the record), so the goals that need them are not measured). */
    const list = (contender: WatchContender): WatchClientResult[] => results.get(contender) ?? [];
    /** Retained heap of ours: a GC before every sample, in a run of its own (the collections would distort the timed rounds). */
    const heapRun = await runClient(clientEntry, { ...base, contender: 'ours', forceGc: true }, ['--expose-gc']).catch(
      (error: unknown) => {
        failed.push({ contender: 'ours (heap run)', round: 0, error: String(error) });
        return undefined;
      },
    );

    // Correctness. The baselines are this benchmark's own code: a miscount there is a bug here, not a finding.
    const correct = (result: WatchClientResult): boolean =>
      result.error === '' &&
      result.events === events &&
      result.warmupEventsReceived === warmupEvents &&
      (result.contender === 'bytes only' ||
        result.contender === 'byte-split floor' ||
        result.lastResourceVersion === server.lastResourceVersion);
    for (const contender of ['bytes only', 'byte-split floor', 'fetch floor', 'JSON.parse only'] as const) {
      for (const result of list(contender)) {
        if (!correct(result))
          throw new Error(
            `${contender}: ${result.events} events, last resourceVersion ${result.lastResourceVersion}${result.error === '' ? '' : `, ${result.error}`}`,
          );
      }
    }
    const describeReceipt = (list: readonly WatchClientResult[]): string =>
      list
        .map(
          (r) =>
            `${r.events} events, last rv ${r.lastResourceVersion || '(none)'}${r.warmupEventsReceived === warmupEvents ? '' : ` (warm-up: ${r.warmupEventsReceived})`}${r.error === '' ? '' : `, failed: ${r.error}`}`,
        )
        .join('; ');
    const ran = (contenders: readonly WatchContender[]): boolean => contenders.every((c) => results.has(c));
    const oursCorrect =
      heapRun !== undefined &&
      ran(HAVE_NODE22 ? ['ours', 'ours (Node 22)'] : ['ours']) &&
      [...list('ours'), ...list('ours (Node 22)'), heapRun].every(correct);
    const clientNodeCorrect =
      ran(HAVE_NODE22 ? ['client-node', 'client-node 2.0.1 (Node 22)'] : ['client-node']) &&
      [...list('client-node'), ...list('client-node 2.0.1 (Node 22)')].every(correct);

    const rates = (contender: WatchContender): number[] => list(contender).map((r) => r.events / r.seconds);
    const rate = (contender: WatchContender): number => median(rates(contender));
    const pairedRatio = (contender: WatchContender, ours: WatchContender = 'ours'): number => {
      const baseline = rates(contender);
      return median(rates(ours).map((value, i) => value / baseline[i]!));
    };
    /** The child's user + system CPU per event: less sensitive than wall time to other load on the machine (GC helper threads count too). */
    const cpuPerEvent = (contender: WatchContender): number =>
      median(list(contender).map((r) => r.cpuMicros / r.events));
    const oursVsByteSplit = pairedRatio('byte-split floor');
    const oursVsFloor = pairedRatio('fetch floor');
    const oursVsClientNode = pairedRatio('client-node');
    /** Context, not a goal: no reader over a socket comes near JSON.parse of lines already in memory. */
    const oursVsLimit = pairedRatio('JSON.parse only');

    // Heap: slope over the samples after the first 10 % of the stream.
    const retained = heapRun?.heapSamples ?? [];
    const skip = Math.ceil(retained.length / 10);
    // slope() numbers the kept samples from 1: shifting x does not change a slope.
    const heapSlopePer10k = slope(retained.slice(skip), sampleEvery, 10_000);
    const heapSlopePer100k = heapSlopePer10k * 10;

    const figures: Record<string, number | string> = {
      'events per stream': events,
      'stream bytes': server.bytes,
      'bytes per event (newline included)': round(server.bytes / events, 1),
      rounds,
      'warm-up events per client process': warmupEvents,
    };
    for (const contender of CONTENDERS) {
      if (!results.has(contender)) continue;
      figures[`${contender}: median events/s`] = round(rate(contender), 0);
      figures[`${contender}: events/s per round`] = rates(contender)
        .map((v) => round(v, 0))
        .join(', ');
      figures[`${contender}: MB/s (median)`] = round((rate(contender) * server.bytes) / events / 1e6, 1);
      figures[`${contender}: client CPU µs per event (median)`] = round(cpuPerEvent(contender), 2);
      figures[`${contender}: peak RSS MB (median over rounds)`] = mb(median(list(contender).map((r) => r.maxRssBytes)));
    }
    figures['ratio ours / byte-split floor (median of per-round ratios)'] = round(oursVsByteSplit, 3);
    figures['ratio ours / byte-split floor (ratio of medians)'] = round(rate('ours') / rate('byte-split floor'), 3);
    figures['ratio ours / fetch floor (median of per-round ratios)'] = round(oursVsFloor, 3);
    figures['ratio ours / fetch floor (ratio of medians)'] = round(rate('ours') / rate('fetch floor'), 3);
    figures['ratio ours / client-node (median of per-round ratios)'] = round(oursVsClientNode, 3);
    figures['ratio ours / client-node (ratio of medians)'] = round(rate('ours') / rate('client-node'), 3);
    figures['ratio ours / JSON.parse only (median of per-round ratios)'] = round(oursVsLimit, 3);
    figures['ratio ours / JSON.parse only (ratio of medians)'] = round(rate('ours') / rate('JSON.parse only'), 3);
    figures['ratio fetch floor / JSON.parse only (ratio of medians)'] = round(
      rate('fetch floor') / rate('JSON.parse only'),
      3,
    );
    figures['ratio client-node / JSON.parse only (ratio of medians)'] = round(
      rate('client-node') / rate('JSON.parse only'),
      3,
    );
    if (HAVE_NODE22) {
      figures['Node 22: ratio ours / client-node 2.0.1 (median of per-round ratios)'] = round(
        pairedRatio('client-node 2.0.1 (Node 22)', 'ours (Node 22)'),
        3,
      );
      figures['ratio ours on Node 22 / ours on Node 20 (ratio of medians)'] = round(
        rate('ours (Node 22)') / rate('ours'),
        3,
      );
      figures['client-node 2.0.1 (Node 22): received'] = describeReceipt(list('client-node 2.0.1 (Node 22)'));
      figures['ours (Node 22): received'] = describeReceipt(list('ours (Node 22)'));
    } else figures['Node 22'] = NODE22_MISSING;
    figures['ratio bytes only / ours (ratio of medians): transport headroom'] = round(
      rate('bytes only') / rate('ours'),
      2,
    );
    figures['client CPU per event, ours / fetch floor'] = round(cpuPerEvent('ours') / cpuPerEvent('fetch floor'), 3);
    figures['client CPU per event, ours / client-node'] = round(cpuPerEvent('ours') / cpuPerEvent('client-node'), 3);
    figures['client CPU per event, ours / JSON.parse only'] = round(
      cpuPerEvent('ours') / cpuPerEvent('JSON.parse only'),
      3,
    );
    figures['heap sample interval (events)'] = sampleEvery;
    figures['ours heap, GC before each sample: first / last / max MB'] =
      `${mb(retained[0] ?? NaN, 2)} / ${mb(retained[retained.length - 1] ?? NaN, 2)} / ${mb(Math.max(...retained), 2)}`;
    figures['ours heap, GC before each sample: slope bytes per 10k events (after the first 10 %)'] = round(
      heapSlopePer10k,
      0,
    );
    figures['ours heap, GC before each sample: slope bytes per 100k events'] = round(heapSlopePer100k, 0);
    figures['ours heap, GC before each sample: samples MB'] = retained.map((v) => mb(v, 2)).join(', ');
    figures['ours heap, timed rounds (no forced GC): first / last / max MB per round'] = list('ours')
      .map(
        (r) =>
          `${mb(r.heapSamples[0] ?? NaN)} / ${mb(r.heapSamples[r.heapSamples.length - 1] ?? NaN)} / ${mb(Math.max(...r.heapSamples))}`,
      )
      .join('; ');
    if (heapRun !== undefined)
      figures['ours heap run (forced GC, untimed): events/s'] = round(heapRun.events / heapRun.seconds, 0);
    figures['ours: received'] = describeReceipt(list('ours'));
    figures['client-node: received'] = describeReceipt(list('client-node'));
    figures['expected last resourceVersion'] = server.lastResourceVersion;

    return {
      name: 'watch',
      command: 'npm run bench -- watch',
      environment:
        NODE22 !== undefined ? `${environment()}; Node 22 clients: node ${node22Version(NODE22)}` : environment(),
      figures,
      ...(failed.length === 0 ? {} : { failed }),
      goals: recordGoals(goalsOf('watch'), figures, {
        'ours-receives-all': { met: oursCorrect, detail: `${events} events, last at ${server.lastResourceVersion}` },
        'client-node-receives-all': {
          met: clientNodeCorrect,
          detail: `${events} events, last at ${server.lastResourceVersion}`,
        },
      }),
    };
  } finally {
    await server.close();
  }
}
