// The parse worker: reads the one body parse-pool.ts hands it (JSON or YAML) and posts the result back.
import { parentPort, workerData } from 'node:worker_threads';
import type { BodyFormat } from './parse-text.js';
import { parseTextSync, toWire } from './parse-text.js';
import type { StrictShape } from './strict-shape.js';

interface Job {
  text: string;
  format: BodyFormat;
  shape: StrictShape | undefined;
}

const job = workerData as Job;
parentPort?.postMessage(toWire(parseTextSync(job.text, job.format, job.shape)));
