/**
 * Shared by the watch benchmark's processes (watch.bench.ts, the server in
 * watch-server.child.ts and the clients in watch-client.child.ts): the watch
 * stream they all agree on, and the messages they exchange.
 */

export const WATCH_NAMESPACE = 'default';
export const WATCH_PATH = `/apis/coordination.k8s.io/v1/namespaces/${WATCH_NAMESPACE}/leases`;
/** A `labelSelector` with this value gets the short warm-up stream instead of the measured one. */
export const WARMUP_SELECTOR = 'bench-warmup';
/** Distinct Leases the events cycle through (a watch's deduplication state holds one entry per object). */
export const DISTINCT_LEASES = 1000;
/** resourceVersion of event 0; fixed width (8 digits) keeps every event the same size. */
const FIRST_RESOURCE_VERSION = 10_000_001;
/** Each chunk the server writes is whole lines, at least this many bytes. */
const CHUNK_BYTES = 1 << 20;
const RENEW_BASE_MS = Date.UTC(2025, 10, 20, 8, 0, 0);

export function resourceVersionOf(index: number): string {
  return String(FIRST_RESOURCE_VERSION + index);
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

/** `2025-11-20T08:12:44.603127Z`: a MicroTime, six fractional digits. */
function microTime(micros: number): string {
  const ms = Math.floor(micros / 1000);
  return new Date(RENEW_BASE_MS + ms).toISOString().replace('Z', `${pad(micros % 1000, 3)}Z`);
}

/**
 * Event `index` of the stream, one line of JSON without the newline (~635
 * bytes): a MODIFIED kubelet-style renewal of one of DISTINCT_LEASES Leases
 * in `default`, with labels, one managedFields entry and MicroTimes.
 */
export function watchEventLine(index: number): string {
  const lease = index % DISTINCT_LEASES;
  const renewMicros = index * 13_337 + 123_456;
  const renewTime = microTime(renewMicros);
  const event = {
    type: 'MODIFIED',
    object: {
      kind: 'Lease',
      apiVersion: 'coordination.k8s.io/v1',
      metadata: {
        name: `node-${pad(lease, 4)}`,
        namespace: WATCH_NAMESPACE,
        uid: `6f1c2a7e-3b7d-4e3a-9a53-2f0d5b8c${pad(lease, 4)}`,
        resourceVersion: resourceVersionOf(index),
        creationTimestamp: '2025-01-14T09:21:07Z',
        labels: { 'kubernetes.io/os': 'linux' },
        managedFields: [
          {
            manager: 'kubelet',
            operation: 'Update',
            apiVersion: 'coordination.k8s.io/v1',
            time: `${renewTime.slice(0, 19)}Z`,
            fieldsType: 'FieldsV1',
            fieldsV1: { 'f:spec': { 'f:holderIdentity': {}, 'f:leaseDurationSeconds': {}, 'f:renewTime': {} } },
          },
        ],
      },
      spec: {
        holderIdentity: `node-${pad(lease, 4)}`,
        leaseDurationSeconds: 40,
        renewTime,
      },
    },
  };
  return JSON.stringify(event);
}

export interface WatchStream {
  /** Newline-terminated events, whole lines per chunk, each chunk ≥ 1 MiB (the last may be shorter). */
  readonly chunks: Buffer[];
  readonly events: number;
  readonly bytes: number;
  readonly lastResourceVersion: string;
}

/** The first `events` events as the server sends them. Deterministic: every process builds the same bytes. */
export function buildWatchStream(events: number): WatchStream {
  const chunks: Buffer[] = [];
  let pending: string[] = [];
  let pendingBytes = 0;
  let bytes = 0;
  for (let i = 0; i < events; i++) {
    const line = `${watchEventLine(i)}\n`;
    pending.push(line);
    pendingBytes += line.length;
    if (pendingBytes >= CHUNK_BYTES) {
      chunks.push(Buffer.from(pending.join(''), 'utf8'));
      bytes += chunks[chunks.length - 1]!.length;
      pending = [];
      pendingBytes = 0;
    }
  }
  if (pending.length > 0) {
    chunks.push(Buffer.from(pending.join(''), 'utf8'));
    bytes += chunks[chunks.length - 1]!.length;
  }
  return { chunks, events, bytes, lastResourceVersion: events > 0 ? resourceVersionOf(events - 1) : '' };
}

export type WatchContender =
  | 'bytes only'
  | 'byte-split floor'
  | 'fetch floor'
  | 'ours'
  | 'client-node'
  | 'JSON.parse only'
  | 'ours (Node 22)'
  | 'client-node 2.0.1 (Node 22)';

/** Contenders whose process runs on Node 22 (client-node 2.x needs Node ≥ 22); the others run on the parent's Node. */
export function runsOnNode22(contender: WatchContender): boolean {
  return contender.endsWith('(Node 22)');
}

/** What the parent asks one client child to do (passed as JSON in argv[2]). */
export interface WatchClientConfig {
  readonly contender: WatchContender;
  readonly baseUrl: string;
  readonly events: number;
  readonly warmupEvents: number;
  /** Heap is sampled every this many events. */
  readonly sampleEvery: number;
  /** Run `gc()` before each heap sample (the child is started with --expose-gc); only for the untimed heap run. */
  readonly forceGc: boolean;
}

/** What a client child reports back (one IPC message). */
export interface WatchClientResult {
  readonly type: 'result';
  readonly contender: WatchContender;
  readonly events: number;
  readonly warmupEventsReceived: number;
  /** metadata.resourceVersion of the last event received ('' if none). */
  readonly lastResourceVersion: string;
  readonly seconds: number;
  /** The child's user + system CPU over the timed stream, in microseconds. */
  readonly cpuMicros: number;
  /** `process.memoryUsage().heapUsed` every `sampleEvery` events. */
  readonly heapSamples: number[];
  /** `process.resourceUsage().maxRSS`, in bytes: the child's peak resident set (warm-up and setup included). */
  readonly maxRssBytes: number;
  /** What the timed stream failed with ('' when it ended cleanly). */
  readonly error: string;
}

/** The server child's one message: it listens, and what it serves. */
export interface WatchServerMessage {
  readonly type: 'listening';
  readonly port: number;
  readonly events: number;
  readonly bytes: number;
  readonly lastResourceVersion: string;
  readonly warmupEvents: number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

export function isWatchClientResult(value: unknown): value is WatchClientResult {
  return (
    isRecord(value) &&
    value['type'] === 'result' &&
    typeof value['events'] === 'number' &&
    Array.isArray(value['heapSamples'])
  );
}

export function isListeningMessage(value: unknown): value is WatchServerMessage {
  return isRecord(value) && value['type'] === 'listening' && typeof value['port'] === 'number';
}
