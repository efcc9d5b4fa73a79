/**
 * What the informer-scale processes say to each other: the parent
 * (informer-scale.bench.ts), the Lease API server child and one informer
 * child at a time, over IPC.
 */

import { field } from '../lib/field.js';

export type InformerContender = 'ours' | 'client-node';

export const NODE_LEASE_NAMESPACE = 'kube-node-lease';

/** argv[2] of informer-scale-client.child.ts, as JSON. */
export interface InformerClientConfig {
  readonly contender: InformerContender;
  readonly baseUrl: string;
  readonly leases: number;
  /** Renewal rounds to follow after the sync (0: sync only); every lease is renewed once per round. */
  readonly renewalRounds: number;
}

/** Client → parent once the informer has synced (and its heap was measured). */
export interface InformerSynced {
  readonly type: 'synced';
  readonly contender: InformerContender;
  readonly syncMs: number;
  readonly cached: number;
  /** heapUsed after GC: before the informer started, and once it had synced. */
  readonly heapBeforeBytes: number;
  readonly heapSyncedBytes: number;
}

/** Client → parent at the end. */
export interface InformerClientResult {
  readonly type: 'result';
  readonly contender: InformerContender;
  readonly synced: InformerSynced;
  /** Update events handled during the renewal phase. */
  readonly updates: number;
  /** From the first to the last renewal event. */
  readonly renewalSeconds: number;
  /** This process's user + system CPU over the same span (GC helper threads included), less the forced GCs of the heap samples. */
  readonly renewalCpuMicros: number;
  /** heapUsed after GC, once per renewal round (every `leases` updates). */
  readonly heapSamples: readonly number[];
  readonly cachedAtEnd: number;
  readonly maxRssBytes: number;
  readonly error: string;
}

/** Parent → server child. */
export type ServerCommand = { readonly type: 'renew'; readonly rounds: number };

/** Server child → parent. */
export type ServerMessage =
  | { readonly type: 'listening'; readonly port: number; readonly seedSeconds: number; readonly listBytes: number }
  | { readonly type: 'renewed'; readonly updates: number; readonly seconds: number; readonly resourceVersion: string };

export function isServerMessage(value: unknown): value is ServerMessage {
  const type = field(value, 'type');
  return type === 'listening' || type === 'renewed';
}

export function isServerCommand(value: unknown): value is ServerCommand {
  return field(value, 'type') === 'renew' && typeof Reflect.get(value as object, 'rounds') === 'number';
}

export function isInformerSynced(value: unknown): value is InformerSynced {
  return field(value, 'type') === 'synced';
}

export function isInformerClientResult(value: unknown): value is InformerClientResult {
  return field(value, 'type') === 'result';
}
