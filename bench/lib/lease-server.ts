import { fork, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROJECT_ROOT } from '../../generator/config.js';

/** The one Lease the benchmark server holds. */
export const LEASE_NAMESPACE = 'default';
export const LEASE_NAME = 'bench';
export const LEASE_PATH = `/apis/coordination.k8s.io/v1/namespaces/${LEASE_NAMESPACE}/leases/${LEASE_NAME}`;

/** Parent → child: `reset` zeroes the counters; both are answered with the (post-reset) counters. */
export type ParentMessage = { type: 'reset' } | { type: 'stats' };

export interface ServerStats {
  type: 'stats';
  /** Requests served since the last reset. */
  requests: number;
  /** TCP connections accepted since the last reset. */
  newConnections: number;
  /** Distinct TCP connections (new or kept alive from before the reset) that served those requests. */
  usedConnections: number;
}

type ChildMessage = ServerStats | { type: 'listening'; port: number; leaseBytes: number };

function isChildMessage(value: unknown): value is ChildMessage {
  if (typeof value !== 'object' || value === null) return false;
  const type: unknown = Reflect.get(value, 'type');
  return type === 'stats' || type === 'listening';
}

export interface LeaseServer {
  /** `http://127.0.0.1:<port>` */
  readonly baseUrl: string;
  /** Size of the Lease JSON the server returns. */
  readonly leaseBytes: number;
  reset(): Promise<ServerStats>;
  stats(): Promise<ServerStats>;
  close(): Promise<void>;
}

/**
 * Starts lease-server.child.ts in a child process (through tsx, as the
 * benchmarks themselves run) and resolves once it listens on loopback.
 */
export async function startLeaseServer(): Promise<LeaseServer> {
  const entry = join(dirname(fileURLToPath(import.meta.url)), 'lease-server.child.ts');
  const child: ChildProcess = fork(entry, [], {
    cwd: PROJECT_ROOT,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending: Array<{ resolve: (stats: ServerStats) => void; reject: (error: Error) => void }> = [];
  let exited = false;

  const listening = new Promise<{ port: number; leaseBytes: number }>((resolve, reject) => {
    child.on('message', (message: unknown) => {
      if (!isChildMessage(message)) return;
      if (message.type === 'listening') resolve(message);
      else pending.shift()?.resolve(message);
    });
    child.once('exit', (code, signal) => {
      exited = true;
      const error = new Error(`lease server exited (code ${String(code)}, signal ${String(signal)})`);
      reject(error);
      for (const waiter of pending.splice(0)) waiter.reject(error);
    });
    child.once('error', reject);
  });
  const { port, leaseBytes } = await listening;

  function ask(message: ParentMessage): Promise<ServerStats> {
    return new Promise((resolve, reject) => {
      if (exited) {
        reject(new Error('lease server has exited'));
        return;
      }
      pending.push({ resolve, reject });
      child.send(message);
    });
  }

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    leaseBytes,
    reset: () => ask({ type: 'reset' }),
    stats: () => ask({ type: 'stats' }),
    async close() {
      if (exited) return;
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.disconnect();
      await gone;
    },
  };
}
