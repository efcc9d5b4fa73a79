// Parsing bodies off the event loop. A body may be 3 MiB, and composing a 3 MiB YAML document of small
// nodes takes the yaml package seconds (and hundreds of MB) while a strict JSON parse of one takes half a
// second: on the event loop either would stall every other request. Small bodies, the everyday case,
// still parse in place; larger ones (and any YAML that may hold aliases, whose expansion go-yaml's budget
// lets grow to millions of nodes, and large protobuf bodies, whose fields gogo merges however often they
// repeat) go to a worker thread with a memory cap. Workers are seats shared fairly between users
// (fair-queue.ts), so one user's flood of slow bodies neither fills the queue for others nor makes them
// wait behind it. A fresh worker per body keeps it simple and gives every byte back when the parse ends.
import type { ResourceLimits } from 'node:worker_threads';
import { Worker } from 'node:worker_threads';
import { isJsonObject, parseJson } from '../json.js';
import type { ProtobufBody } from '../protobuf/request-body.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { StatusError } from '../status.js';
import { FairQueue } from './fair-queue.js';
import type { FairQueueLimits } from './fair-queue.js';
import type { BodyFormat, ParsedText, WireResult } from './parse-text.js';
import { parseTextSync } from './parse-text.js';
import type { StrictShape } from './strict-shape.js';
import type { ProtobufTarget, ProtobufWire, WorkerJob, WorkerReply } from './worker-job.js';
import { decodeProtobufSync } from './worker-job.js';

/** Largest JSON body parsed on the event loop (a few ms of strict parsing). */
export const INLINE_JSON_CHARS: number = 256 * 1024;
/** Largest YAML body composed on the event loop (YAML costs ~10× JSON per byte). */
export const INLINE_YAML_CHARS: number = 32 * 1024;
/** Largest protobuf body decoded on the event loop (≈150 ms per MB when every field repeats: ≈40 ms). */
export const INLINE_PROTOBUF_BYTES: number = 256 * 1024;
/**
 * Two seats, one per user at a time: a lone user's bodies parse one after another, leaving the machine's
 * other core to the event loop, and a second user never waits behind the first's running parse.
 */
export const PARSE_LIMITS: FairQueueLimits = { seats: 2, seatsPerFlow: 1, waitingPerFlow: 8, waitingTotal: 32 };
/** Parses one user may have waiting before their further large bodies are answered 429. */
export const MAX_WAITING: number = PARSE_LIMITS.waitingPerFlow;
/**
 * The worker's heap. A 3 MiB YAML document of the smallest nodes peaks at about 400 MB in the yaml
 * package; past this cap the worker is stopped and the body refused rather than the server failing.
 */
export const RESOURCE_LIMITS: ResourceLimits = { maxOldGenerationSizeMb: 768, maxYoungGenerationSizeMb: 48 };

/**
 * `busy`: the user's queue (or all queues) full; `tooLarge`: the body's parse outgrew the worker's heap;
 * `refused`: a protobuf body the decoder answered with a Status; `failed`: the worker died otherwise.
 */
export type ParseFailure =
  | { kind: 'syntax'; message: string }
  | { kind: 'busy' }
  | { kind: 'tooLarge' }
  | { kind: 'refused'; status: StatusError }
  | { kind: 'failed'; message: string };

const queue = new FairQueue(PARSE_LIMITS);

/** Parses running and waiting now (tests and the bench watch the queue drain). */
export function parseLoad(): { running: number; waiting: number } {
  return queue.load;
}

const HERE = import.meta.url;
/**
 * The worker's entry. Under the test runner the sources are TypeScript: a one-line bootstrap registers
 * tsx in the worker, then imports the TypeScript entry.
 */
function spawnWorker(job: WorkerJob, resourceLimits: ResourceLimits): Worker {
  const options = { workerData: job, resourceLimits };
  if (!HERE.endsWith('.ts')) return new Worker(new URL('./parse-worker.js', HERE), options);
  const entry = new URL('./parse-worker.ts', HERE).href;
  const bootstrap = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}

export function parsesInline(text: string, format: BodyFormat): boolean {
  if (format === 'json') return text.length <= INLINE_JSON_CHARS;
  return text.length <= INLINE_YAML_CHARS && !text.includes('*');
}

function fromTextWire(wire: WireResult): Result<ParsedText, ParseFailure> {
  if (!wire.ok) return err({ kind: 'syntax', message: wire.error });
  const parsed: ParsedText = { value: parseJson(wire.json), duplicates: wire.duplicates };
  if (wire.numbers !== undefined) parsed.numbers = new Map(wire.numbers);
  if (wire.duplicateLines !== undefined) parsed.duplicateLines = wire.duplicateLines;
  if (wire.strictErrors !== undefined) parsed.strictErrors = wire.strictErrors;
  return ok(parsed);
}

function fromProtobufWire(wire: ProtobufWire): Result<ProtobufBody, ParseFailure> {
  if (!wire.ok) return err({ kind: 'refused', status: wire.error });
  const value = parseJson(wire.json);
  if (!isJsonObject(value)) return err({ kind: 'failed', message: 'the decoder answered no object' });
  return ok({ value, numbers: new Map(wire.numbers) });
}

/** The worker's death as a failure: Node names a heap past resourceLimits ERR_WORKER_OUT_OF_MEMORY. */
function workerFailure(e: Error): ParseFailure {
  if ('code' in e && e.code === 'ERR_WORKER_OUT_OF_MEMORY') return { kind: 'tooLarge' };
  return { kind: 'failed', message: e.message };
}

/** Runs one job in a fresh worker with the heap `limits` (tests give a smaller one than RESOURCE_LIMITS). */
export function runInWorker(
  job: WorkerJob,
  limits: ResourceLimits = RESOURCE_LIMITS,
): Promise<Result<WorkerReply, ParseFailure>> {
  return new Promise((resolve) => {
    const worker = spawnWorker(job, limits);
    let settled = false;
    const finish = (result: Result<WorkerReply, ParseFailure>): void => {
      if (settled) return;
      settled = true;
      resolve(result);
      void worker.terminate();
    };
    worker.once('message', (reply: WorkerReply) => finish(ok(reply)));
    worker.once('error', (e: Error) => finish(err(workerFailure(e))));
    worker.once('exit', (code: number) => finish(err({ kind: 'failed', message: `parser exited with code ${code}` })));
  });
}

/** Runs `job` in a worker once `flow` is given a seat; busy when its queue is full. */
async function inWorker(job: WorkerJob, flow: string): Promise<Result<WorkerReply, ParseFailure>> {
  const seat = queue.acquire(flow);
  if (seat === undefined) return err({ kind: 'busy' });
  const release = await seat;
  try {
    return await runInWorker(job);
  } finally {
    release();
  }
}

/**
 * Parses a body, in place when small, otherwise in a parse worker. `flow` is who sent it (the
 * authenticated user; every anonymous request is one flow): the worker seats are shared fairly by it. `shape`
 * as parseTextSync's: a JSON body's strict errors collected in the order the decoder meets them.
 */
export async function parseText(
  text: string,
  format: BodyFormat,
  flow: string,
  shape?: StrictShape,
): Promise<Result<ParsedText, ParseFailure>> {
  if (parsesInline(text, format)) {
    const parsed = parseTextSync(text, format, shape);
    return parsed.ok ? parsed : err({ kind: 'syntax', message: parsed.error });
  }
  const reply = await inWorker({ kind: 'text', text, format, shape }, flow);
  if (!reply.ok) return reply;
  if (reply.value.kind !== 'text') return err({ kind: 'failed', message: 'the worker answered another job' });
  return fromTextWire(reply.value.wire);
}

/** Decodes a protobuf body, in place when small, otherwise in a parse worker shared as parseText's are. */
export async function decodeProtobuf(
  bytes: Uint8Array,
  target: ProtobufTarget,
  flow: string,
): Promise<Result<ProtobufBody, ParseFailure>> {
  if (bytes.length <= INLINE_PROTOBUF_BYTES) {
    const decoded = decodeProtobufSync(bytes, target);
    return decoded.ok ? decoded : err({ kind: 'refused', status: decoded.error });
  }
  const reply = await inWorker({ kind: 'protobuf', bytes, target }, flow);
  if (!reply.ok) return reply;
  if (reply.value.kind !== 'protobuf') return err({ kind: 'failed', message: 'the worker answered another job' });
  return fromProtobufWire(reply.value.wire);
}
