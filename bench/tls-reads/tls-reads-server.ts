import { startStatsChild } from '../lib/stats-child.js';

/** The bearer token the kubeconfig carries and the server requires. */
export const BENCH_TOKEN = 'tls-reads-bench-token';

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

/** What tls-reads-server.child.ts says once it listens and has written the kubeconfig. */
export interface TlsServerListening {
  type: 'listening';
  url: string;
  kubeconfig: string;
  leaseBytes: number;
}

export type TlsChildMessage = TlsServerStats | TlsServerListening;

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
  const child = await startStatsChild<TlsServerListening, TlsServerStats>(
    new URL('./tls-reads-server.child.ts', import.meta.url),
    'TLS lease server',
  );
  const { url, kubeconfig, leaseBytes } = child.listening;
  return { url, kubeconfig, leaseBytes, reset: child.reset, stats: child.stats, close: child.close };
}
