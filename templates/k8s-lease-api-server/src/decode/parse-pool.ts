// Parsing bodies off the event loop. A body may be 3 MiB, and composing a 3 MiB YAML document of small
// nodes takes the yaml package seconds (and hundreds of MB) while a strict JSON parse of one takes half a
// second: on the event loop either would stall every other request. Small bodies, the everyday case,
// still parse in place; larger ones (and any YAML that may hold aliases, whose expansion go-yaml's budget
// lets grow to millions of nodes) go to a worker thread with a memory cap, one at a time, with a bounded
// queue. A fresh worker per body keeps it simple and gives every byte back when the parse ends.
import { Worker } from 'node:worker_threads';
import { parseJson } from '../json.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { BodyFormat, ParsedText, WireResult } from './parse-text.js';
import { parseTextSync } from './parse-text.js';
import type { StrictShape } from './strict-shape.js';

/** Largest JSON body parsed on the event loop (a few ms of strict parsing). */
export const INLINE_JSON_CHARS: number = 256 * 1024;
/** Largest YAML body composed on the event loop (YAML costs ~10× JSON per byte). */
export const INLINE_YAML_CHARS: number = 32 * 1024;
/** Parses running at once: the machine's other core stays with the event loop. */
const MAX_RUNNING = 1;
/** Parses waiting for the worker before further large bodies are answered 429. */
export const MAX_WAITING = 8;
/**
 * The worker's heap. A 3 MiB YAML document of the smallest nodes peaks at about 400 MB in the yaml
 * package; past this cap the worker is stopped and the request fails rather than the server.
 */
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 768, maxYoungGenerationSizeMb: 48 } as const;

export type ParseFailure = { kind: 'syntax'; message: string } | { kind: 'busy' } | { kind: 'failed'; message: string };

const HERE = import.meta.url;
/**
 * The worker's entry. Under the test runner the sources are TypeScript: a one-line bootstrap registers
 * tsx in the worker, then imports the TypeScript entry.
 */
function spawnWorker(text: string, format: BodyFormat, shape: StrictShape | undefined): Worker {
  const options = { workerData: { text, format, shape }, resourceLimits: RESOURCE_LIMITS };
  if (!HERE.endsWith('.ts')) return new Worker(new URL('./parse-worker.js', HERE), options);
  const entry = new URL('./parse-worker.ts', HERE).href;
  const bootstrap = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}

export function parsesInline(text: string, format: BodyFormat): boolean {
  if (format === 'json') return text.length <= INLINE_JSON_CHARS;
  return text.length <= INLINE_YAML_CHARS && !text.includes('*');
}

function fromWire(wire: WireResult): Result<ParsedText, ParseFailure> {
  if (!wire.ok) return err({ kind: 'syntax', message: wire.error });
  const parsed: ParsedText = { value: parseJson(wire.json), duplicates: wire.duplicates };
  if (wire.numbers !== undefined) parsed.numbers = new Map(wire.numbers);
  if (wire.duplicateLines !== undefined) parsed.duplicateLines = wire.duplicateLines;
  if (wire.strictErrors !== undefined) parsed.strictErrors = wire.strictErrors;
  return ok(parsed);
}

function runWorker(
  text: string,
  format: BodyFormat,
  shape: StrictShape | undefined,
): Promise<Result<ParsedText, ParseFailure>> {
  return new Promise((resolve) => {
    const worker = spawnWorker(text, format, shape);
    let settled = false;
    const finish = (result: Result<ParsedText, ParseFailure>): void => {
      if (settled) return;
      settled = true;
      resolve(result);
      void worker.terminate();
    };
    worker.once('message', (wire: WireResult) => finish(fromWire(wire)));
    worker.once('error', (e: Error) => finish(err({ kind: 'failed', message: e.message })));
    worker.once('exit', (code: number) => finish(err({ kind: 'failed', message: `parser exited with code ${code}` })));
  });
}

let running = 0;
const waiting: (() => void)[] = [];

/** Takes a worker slot, waiting in line if need be; false when the line is full. */
async function acquire(): Promise<boolean> {
  if (running < MAX_RUNNING) {
    running++;
    return true;
  }
  if (waiting.length >= MAX_WAITING) return false;
  await new Promise<void>((resolve) => waiting.push(resolve));
  return true;
}

/** Hands the slot to the next in line, or frees it. */
function release(): void {
  const next = waiting.shift();
  if (next !== undefined) next();
  else running--;
}

/** Parses a body, in place when small, otherwise in the parse worker; `shape` as parseTextSync's. */
export async function parseText(
  text: string,
  format: BodyFormat,
  shape?: StrictShape,
): Promise<Result<ParsedText, ParseFailure>> {
  if (parsesInline(text, format)) {
    const parsed = parseTextSync(text, format, shape);
    return parsed.ok ? parsed : err({ kind: 'syntax', message: parsed.error });
  }
  if (!(await acquire())) return err({ kind: 'busy' });
  try {
    return await runWorker(text, format, shape);
  } finally {
    release();
  }
}
