/**
 * Child process of the watch benchmark (started by watch.bench.ts, one per
 * client per round, so each client's peak RSS and timings are its own):
 * decodes the warm-up stream once, then the measured stream, timed, and
 * sends one WatchClientResult to the parent over IPC.
 *
 *   argv[2]: a WatchClientConfig as JSON
 *
 * Every contender does the same per-event work on top of its decoding:
 * `Counter.add` counts the event, keeps it as the last one, and samples the
 * heap every `sampleEvery` events. Only what a contender needs is imported,
 * so no client's RSS carries another's modules.
 */

import { clientNodeOptions } from '../lib/client-node-options.js';
import {
  WARMUP_SELECTOR,
  WATCH_NAMESPACE,
  WATCH_PATH,
  buildWatchStream,
  type WatchClientConfig,
  type WatchClientResult,
  type WatchContender,
} from './watch-stream.js';

const LF = 0x0a;

class Counter {
  count = 0;
  last: unknown = undefined;
  readonly heapSamples: number[] = [];
  private nextSample: number;

  constructor(
    private readonly sampleEvery: number,
    private readonly forceGc: boolean,
  ) {
    this.nextSample = sampleEvery > 0 ? sampleEvery : Infinity;
  }

  add(event: unknown): void {
    this.last = event;
    if (++this.count === this.nextSample) {
      this.nextSample += this.sampleEvery;
      if (this.forceGc) {
        if (gc === undefined) throw new Error('forceGc needs --expose-gc');
        gc();
      }
      this.heapSamples.push(process.memoryUsage().heapUsed);
    }
  }
}

/** Streams one watch (the warm-up one when `warmup`), handing every event to `counter`; resolves at the clean end of the stream. */
type Runner = (warmup: boolean, counter: Counter) => Promise<void>;

function watchUrl(baseUrl: string, warmup: boolean): string {
  return `${baseUrl}${WATCH_PATH}?watch=true${warmup ? `&labelSelector=${WARMUP_SELECTOR}` : ''}`;
}

async function openBody(url: string): Promise<ReadableStreamDefaultReader<Uint8Array>> {
  const response = await fetch(url);
  if (response.status !== 200 || response.body === null) throw new Error(`GET ${url}: HTTP ${response.status}`);
  return response.body.getReader();
}

/** Transport only: the bytes are read and their newlines counted, nothing is decoded (so no resourceVersion to check). */
function bytesOnly(baseUrl: string): Runner {
  return async (warmup, counter) => {
    const reader = await openBody(watchUrl(baseUrl, warmup));
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) return;
      const bytes = chunk.value;
      for (let i = bytes.indexOf(LF); i !== -1; i = bytes.indexOf(LF, i + 1)) counter.add(undefined);
    }
  };
}

/**
 * Reads the body to its end, handing each non-empty line to `onLine` as bytes (without its newline):
 * newlines found in the Uint8Array chunks, a line split across chunks joined first.
 */
async function forEachLine(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  onLine: (line: Uint8Array) => void,
): Promise<void> {
  /** Bytes of a line that started in an earlier chunk. */
  let carry: Uint8Array | undefined;
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) break;
    const bytes = chunk.value;
    let start = 0;
    let newline = bytes.indexOf(LF);
    if (carry !== undefined) {
      if (newline === -1) {
        carry = concat(carry, bytes);
        continue;
      }
      const line = concat(carry, bytes.subarray(0, newline));
      carry = undefined;
      if (line.length > 0) onLine(line);
      start = newline + 1;
      newline = bytes.indexOf(LF, start);
    }
    while (newline !== -1) {
      if (newline > start) onLine(bytes.subarray(start, newline));
      start = newline + 1;
      newline = bytes.indexOf(LF, start);
    }
    if (start < bytes.length) carry = bytes.slice(start);
  }
  if (carry !== undefined && carry.length > 0) onLine(carry);
}

/**
 * The byte-split floor: bare fetch, each line cut out at its newline and handed on as bytes; no
 * decoding, no JSON.parse. The least a line-delimited watch reader over this socket does before parsing.
 */
function byteSplitFloor(baseUrl: string): Runner {
  return async (warmup, counter) => {
    await forEachLine(await openBody(watchUrl(baseUrl, warmup)), (line) => counter.add(line));
  };
}

/** The fetch floor: the byte-split floor plus a `TextDecoder.decode` and `JSON.parse` of each line. */
function fetchFloor(baseUrl: string): Runner {
  return async (warmup, counter) => {
    const decoder = new TextDecoder();
    await forEachLine(await openBody(watchUrl(baseUrl, warmup)), (line) =>
      counter.add(JSON.parse(decoder.decode(line))),
    );
  };
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}

/** Ours: the generated typed watch, one connection, no LIST (starts at resourceVersion 1). */
async function ours(baseUrl: string): Promise<Runner> {
  const { createClient, watchNamespacedLeases } = await import('../../generated/k8s-lease-client/dist/index.js');
  const client = createClient({ baseUrl });
  return async (warmup, counter) => {
    const events = watchNamespacedLeases(
      client,
      warmup ? { namespace: WATCH_NAMESPACE, labelSelector: WARMUP_SELECTOR } : { namespace: WATCH_NAMESPACE },
      { resourceVersion: '1', reconnect: false },
    );
    for await (const event of events) counter.add(event);
  };
}

/** What the benchmark uses of client-node's `Watch`, the same in 1.x and 2.x. */
interface ClientNodeWatch {
  watch(
    path: string,
    query: Record<string, string>,
    callback: (type: string, object: unknown, event: unknown) => void,
    done: (error: unknown) => void,
  ): Promise<unknown>;
}

/** `@kubernetes/client-node`'s Watch (1.x: node-fetch, 2.x: undici's fetch; then readline + JSON.parse), configured like a kubeconfig pointing at the server. */
async function clientNode(baseUrl: string, major: 1 | 2): Promise<Runner> {
  let watch: ClientNodeWatch;
  if (major === 1) {
    const { KubeConfig, Watch } = await import('@kubernetes/client-node');
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromOptions(clientNodeOptions(baseUrl));
    watch = new Watch(kubeConfig);
  } else {
    const { KubeConfig, Watch } = await import('client-node-2');
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromOptions(clientNodeOptions(baseUrl));
    watch = new Watch(kubeConfig);
  }
  return (warmup, counter) =>
    new Promise<void>((resolve, reject) => {
      watch
        .watch(
          WATCH_PATH,
          warmup ? { labelSelector: WARMUP_SELECTOR } : {},
          (_type: string, _object: unknown, event: unknown) => counter.add(event),
          (error: unknown) =>
            error === null || error === undefined
              ? resolve()
              : reject(error instanceof Error ? error : new Error(String(error))),
        )
        .catch(reject);
    });
}

/** The limit: JSON.parse of the same lines, pre-split into strings in memory (split from each chunk's decoded text, as a decoder would slice them). */
function jsonParseOnly(events: number, warmupEvents: number): Runner {
  const linesOf = (count: number): string[] => {
    const lines: string[] = [];
    for (const chunk of buildWatchStream(count).chunks) {
      const split = chunk.toString('utf8').split('\n');
      split.pop();
      for (const line of split) lines.push(line);
    }
    return lines;
  };
  const measured = linesOf(events);
  const warmupLines = linesOf(warmupEvents);
  return (warmup, counter) => {
    const lines = warmup ? warmupLines : measured;
    for (let i = 0; i < lines.length; i++) counter.add(JSON.parse(lines[i]!));
    return Promise.resolve();
  };
}

async function runnerFor(config: WatchClientConfig): Promise<Runner> {
  const contender: WatchContender = config.contender;
  switch (contender) {
    case 'bytes only':
      return bytesOnly(config.baseUrl);
    case 'byte-split floor':
      return byteSplitFloor(config.baseUrl);
    case 'fetch floor':
      return fetchFloor(config.baseUrl);
    case 'ours':
    case 'ours (Node 22)':
      return ours(config.baseUrl);
    case 'client-node':
      return clientNode(config.baseUrl, 1);
    case 'client-node 2.0.1 (Node 22)':
      return clientNode(config.baseUrl, 2);
    case 'JSON.parse only':
      return jsonParseOnly(config.events, config.warmupEvents);
  }
}

/** metadata.resourceVersion of a watch event (`{ type, object }`), '' if it has none. */
function resourceVersionOf(event: unknown): string {
  const object: unknown = typeof event === 'object' && event !== null ? Reflect.get(event, 'object') : undefined;
  const metadata: unknown = typeof object === 'object' && object !== null ? Reflect.get(object, 'metadata') : undefined;
  const rv: unknown =
    typeof metadata === 'object' && metadata !== null ? Reflect.get(metadata, 'resourceVersion') : undefined;
  return typeof rv === 'string' ? rv : '';
}

function parseConfig(text: string | undefined): WatchClientConfig {
  if (text === undefined) throw new Error('usage: watch-client.child.ts <WatchClientConfig as JSON>');
  // The parent wrote it with JSON.stringify from a WatchClientConfig.
  return JSON.parse(text) as WatchClientConfig;
}

const config = parseConfig(process.argv[2]);
const run = await runnerFor(config);

const warmupCounter = new Counter(0, false);
await run(true, warmupCounter);

const counter = new Counter(config.sampleEvery, config.forceGc);
let error = '';
const cpuBefore = process.cpuUsage();
const started = process.hrtime.bigint();
try {
  await run(false, counter);
} catch (failure) {
  error = failure instanceof Error ? `${failure.name}: ${failure.message}` : String(failure);
}
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
const cpu = process.cpuUsage(cpuBefore);

const result: WatchClientResult = {
  type: 'result',
  contender: config.contender,
  events: counter.count,
  warmupEventsReceived: warmupCounter.count,
  lastResourceVersion: resourceVersionOf(counter.last),
  seconds,
  cpuMicros: cpu.user + cpu.system,
  heapSamples: counter.heapSamples,
  maxRssBytes: process.resourceUsage().maxRSS * 1024,
  error,
};
process.send?.(result, () => process.exit(0));
