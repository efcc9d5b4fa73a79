import { fork, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROJECT_ROOT } from '../../generator/config.js';

/** The bearer token the kubeconfig carries and the server requires. */
export const BENCH_TOKEN = 'tls-reads-bench-token';

/** Parent → child: `reset` zeroes the counters; both are answered with the (post-reset) counters. */
export type TlsParentMessage = { type: 'reset' } | { type: 'stats' };

export interface TlsServerStats {
  type: 'stats';
  /** Requests served since the last reset. */
  requests: number;
  /** TCP connections accepted since the last reset. */
  tcpConnections: number;
  /** TLS handshakes completed ('secureConnection') since the last reset. */
  tlsHandshakes: number;
  /** Of those, handshakes that resumed an earlier session (abbreviated handshakes). */
  resumedSessions: number;
  /** Distinct TLS connections (new or kept alive from before the reset) that served those requests. */
  usedConnections: number;
}

export type TlsChildMessage =
  | TlsServerStats
  | { type: 'listening'; url: string; kubeconfig: string; leaseBytes: number };

function isChildMessage(value: unknown): value is TlsChildMessage {
  if (typeof value !== 'object' || value === null) return false;
  const type: unknown = Reflect.get(value, 'type');
  return type === 'stats' || type === 'listening';
}

export interface TlsLeaseServer {
  /** `https://127.0.0.1:<port>` */
  readonly url: string;
  /** A kubeconfig naming the server, its CA (certificate-authority-data) and the bearer token. */
  readonly kubeconfig: string;
  readonly leaseBytes: number;
  reset(): Promise<TlsServerStats>;
  stats(): Promise<TlsServerStats>;
  close(): Promise<void>;
}

/** Starts tls-reads-server.child.ts in a child process (through tsx) and resolves once it listens. */
export async function startTlsLeaseServer(): Promise<TlsLeaseServer> {
  const entry = join(dirname(fileURLToPath(import.meta.url)), 'tls-reads-server.child.ts');
  const child: ChildProcess = fork(entry, [], {
    cwd: PROJECT_ROOT,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending: Array<{ resolve: (stats: TlsServerStats) => void; reject: (error: Error) => void }> = [];
  let exited = false;

  const listening = new Promise<{ url: string; kubeconfig: string; leaseBytes: number }>((resolve, reject) => {
    child.on('message', (message: unknown) => {
      if (!isChildMessage(message)) return;
      if (message.type === 'listening') resolve(message);
      else pending.shift()?.resolve(message);
    });
    child.once('exit', (code, signal) => {
      exited = true;
      const error = new Error(`TLS lease server exited (code ${String(code)}, signal ${String(signal)})`);
      reject(error);
      for (const waiter of pending.splice(0)) waiter.reject(error);
    });
    child.once('error', reject);
  });
  const { url, kubeconfig, leaseBytes } = await listening;

  function ask(message: TlsParentMessage): Promise<TlsServerStats> {
    return new Promise((resolve, reject) => {
      if (exited) {
        reject(new Error('TLS lease server has exited'));
        return;
      }
      pending.push({ resolve, reject });
      child.send(message);
    });
  }

  return {
    url,
    kubeconfig,
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
