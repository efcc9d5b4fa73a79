/**
 * What the server-scale processes say to each other over IPC: the parent
 * (server-scale.bench.ts), the Lease API server child and the watchers child.
 */
import { field } from '../lib/field.js';
import { formatMicroTime } from 'k8s-lease-client';
import type { Lease } from '../../templates/k8s-lease-api-server/src/index.js';

export const SCALE_NAMESPACE = 'kube-node-lease';
export const LEASES_PATH = `/apis/coordination.k8s.io/v1/namespaces/${SCALE_NAMESPACE}/leases`;
/** Every write of the bench stamps this annotation with its wall time in ms, so a watcher can tell its lag. */
export const WRITTEN_AT = 'bench.k8s-lease/written-at';

/** argv[2] of server-scale-server.child.ts, as JSON. */
export interface ScaleServerConfig {
  /** Leases created through the store handle before listening (0: the parent asks for them). */
  readonly seed: number;
  /** The server's start option (false: one encoding per watcher per event; a server without it ignores it). */
  readonly watchBatching: boolean;
}

/** A kubelet's node Lease as the bench writes it: `written` (ms since the epoch) in the annotation, `renewal` in renewTime. */
export function scaleLease(index: number, renewal: number, written: number): Lease {
  const name = leaseName(index);
  const renewTime = formatMicroTime(new Date(Date.UTC(2026, 0, 1) + renewal * 10_000));
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name, namespace: SCALE_NAMESPACE, annotations: { [WRITTEN_AT]: written.toFixed(3) } },
    spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime },
  };
}

export function leaseName(index: number): string {
  return `node-${String(index).padStart(6, '0')}`;
}

/** Parent → server child. */
export type ScaleServerCommand =
  /** Forced GC (twice), then heapUsed. */
  | { readonly type: 'heap' }
  /** This process's CPU so far (process.cpuUsage, user + system). */
  | { readonly type: 'cpu' }
  /** `count` updates through the store handle, paced at `rate` per second, over Leases 0 … leases-1 in turn. */
  | { readonly type: 'write'; readonly rate: number; readonly count: number; readonly leases: number }
  /** Ends a `write` early; it then answers `written` with what it did. */
  | { readonly type: 'stop' }
  /** Creates Leases `from` … `to`-1 through the store handle (the bulk of a large count, before the timed HTTP creates). */
  | { readonly type: 'seed'; readonly from: number; readonly to: number };

/** Server child → parent. */
export type ScaleServerMessage =
  | { readonly type: 'listening'; readonly port: number; readonly resourceVersion: string }
  | { readonly type: 'heap'; readonly heapUsed: number }
  | { readonly type: 'cpu'; readonly cpuMicros: number; readonly resourceVersion: string }
  | { readonly type: 'written'; readonly writes: number; readonly seconds: number }
  | { readonly type: 'seeded'; readonly resourceVersion: string };

/** argv[2] of server-scale-watchers.child.ts, as JSON. */
export interface WatchersConfig {
  readonly baseUrl: string;
  readonly watchers: number;
  /** Watch from here on: no initial ADDED events for the Leases already there. */
  readonly resourceVersion: string;
  /** Events each watcher is to receive before the child reports. */
  readonly events: number;
  /** Report with what arrived if no event came for this long. */
  readonly stallMs: number;
}

/** Watchers child → parent. */
export type WatchersMessage =
  | { readonly type: 'ready' }
  | {
      readonly type: 'done';
      /** Events received, over all watchers. */
      readonly deliveries: number;
      /** From the first event received to the last. */
      readonly seconds: number;
      /** Largest (receipt time − written-at) seen: for the first event of every chunk read, the one that waited longest. */
      readonly maxLagMs: number;
      /** Watch streams that ended before the end (a server that terminated them as blocked, say). */
      readonly ended: number;
    };

export function isScaleServerMessage(value: unknown): value is ScaleServerMessage {
  const type = field(value, 'type');
  return type === 'listening' || type === 'heap' || type === 'cpu' || type === 'written' || type === 'seeded';
}

export function isScaleServerCommand(value: unknown): value is ScaleServerCommand {
  const type = field(value, 'type');
  return type === 'heap' || type === 'cpu' || type === 'write' || type === 'stop' || type === 'seed';
}

export function isWatchersMessage(value: unknown): value is WatchersMessage {
  const type = field(value, 'type');
  return type === 'ready' || type === 'done';
}
