// The parse worker: runs the one job parse-pool.ts hands it (worker-job.ts) and posts the reply back.
import { parentPort, workerData } from 'node:worker_threads';
import type { WorkerJob } from './worker-job.js';
import { runJob } from './worker-job.js';

parentPort?.postMessage(runJob(workerData as WorkerJob));
