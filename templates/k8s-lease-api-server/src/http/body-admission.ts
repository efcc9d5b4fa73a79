// Admission before a large body is read, per user, as API Priority and Fairness admits a request before its
// handler reads the body (k8s.io/apiserver/pkg/server/filters/priority-and-fairness.go: the filter waits for a
// seat from fairqueuing/queueset, then calls the handler, which reads the body with limitedReadBody). A
// flood of large bodies from one user then waits in that user's own queue, unread and unbuffered, while other
// users' bodies are still read and parsed; a user whose queue is full is answered 429 without being read.
// Differences from APF (README): only requests whose body may be large queue (small ones, the everyday case,
// and watches are served at once), with the queueing of decode/fair-queue.ts (one queue per user, at most one
// large body per user read and parsed at a time).
import type { IncomingMessage } from 'node:http';
import { FairQueue } from '../decode/fair-queue.js';
import type { FairQueueLimits, Release } from '../decode/fair-queue.js';
import { INLINE_YAML_CHARS } from '../decode/parse-pool.js';
import { declaredLength } from './body.js';

/**
 * Bodies declared up to this size are read without waiting: below the smallest size any format is sent to a
 * parse worker for (decode/parse-pool.ts), they cost little to read and parse, and buffering a handful of
 * them per connection is bounded by the connections.
 */
export const ADMIT_OVER_BYTES: number = INLINE_YAML_CHARS;

/**
 * Four large bodies read or parsed at once (at most 4 × 3 MiB buffered), one per user: a user's next large
 * body waits for the last to be answered, as that user's parses run one after another anyway
 * (parse-pool.ts). Up to 16 wait per user and 64 in all; queueset's default queue length is 50.
 */
export const BODY_ADMISSION_LIMITS: FairQueueLimits = {
  seats: 4,
  seatsPerFlow: 1,
  waitingPerFlow: 16,
  waitingTotal: 64,
};

const queue = new FairQueue(BODY_ADMISSION_LIMITS);

/** Large bodies admitted and waiting now (tests watch the queue fill and drain). */
export function bodyAdmissionLoad(): { running: number; waiting: number } {
  return queue.load;
}

/** Whether the request's body may be large: declared over ADMIT_OVER_BYTES, or of unknown length (chunked). */
export function mayBeLarge(req: IncomingMessage): boolean {
  const length = declaredLength(req);
  if (length !== undefined) return length > ADMIT_OVER_BYTES;
  return req.headers['transfer-encoding'] !== undefined;
}

/**
 * `free`: nothing to wait for (the body is small); `admitted`: a seat, to be released once the request is
 * answered; `busy`: the user's queue (or all queues) full.
 */
export type Admission = { kind: 'free' } | { kind: 'admitted'; release: Release } | { kind: 'busy' };

const FREE: Admission = { kind: 'free' };
const BUSY: Admission = { kind: 'busy' };

/** Waits for `flow`'s turn to read the request's body when it may be large. */
export async function admitBody(req: IncomingMessage, flow: string): Promise<Admission> {
  if (!mayBeLarge(req)) return FREE;
  const seat = queue.acquire(flow);
  if (seat === undefined) return BUSY;
  return { kind: 'admitted', release: await seat };
}
