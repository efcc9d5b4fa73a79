/** The reads benchmark's clients that run in a Node 22 child (reads-client.child.ts), and what it and the parent say over IPC. */

import { field } from '../lib/field.js';

export const REMOTE_READS_CONTENDERS = [
  'fetch floor (Node 22)',
  'ours (Node 22)',
  'client-node 2.0.1 (Node 22)',
] as const;
export type RemoteReadsContender = (typeof REMOTE_READS_CONTENDERS)[number];

export interface ReadsChildConfig {
  readonly baseUrl: string;
  readonly contenders: readonly RemoteReadsContender[];
  readonly warmup: number;
}

/** Parent → child: run one timed round of `requests` sequential reads. */
export interface ReadsChildCommand {
  readonly type: 'round';
  readonly contender: RemoteReadsContender;
  readonly requests: number;
}

export type ReadsChildMessage =
  | { readonly type: 'ready'; readonly node: string }
  | {
      readonly type: 'round';
      readonly contender: RemoteReadsContender;
      readonly seconds: number;
      readonly cpuMicros: number;
    }
  /** A round that threw: the child stays up for the other contenders. */
  | { readonly type: 'failed'; readonly contender: RemoteReadsContender; readonly error: string };

export function isReadsChildCommand(value: unknown): value is ReadsChildCommand {
  return (
    field(value, 'type') === 'round' &&
    typeof field(value, 'requests') === 'number' &&
    REMOTE_READS_CONTENDERS.some((c) => c === field(value, 'contender'))
  );
}

export function isReadsChildMessage(value: unknown): value is ReadsChildMessage {
  const type = field(value, 'type');
  return (
    type === 'ready' ||
    (type === 'round' && typeof field(value, 'seconds') === 'number') ||
    (type === 'failed' && typeof field(value, 'error') === 'string')
  );
}
