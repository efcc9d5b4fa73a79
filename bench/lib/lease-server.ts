import { startStatsChild } from './stats-child.js';

export interface ServerStats {
  type: 'stats';
  /** Requests served since the last reset. */
  requests: number;
  /** TCP connections accepted since the last reset. */
  newConnections: number;
  /** Distinct TCP connections (new or kept alive from before the reset) that served those requests. */
  usedConnections: number;
}

/** What lease-server.child.ts says once it listens. */
export interface LeaseServerListening {
  type: 'listening';
  port: number;
  leaseBytes: number;
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
  const child = await startStatsChild<LeaseServerListening, ServerStats>(
    new URL('./lease-server.child.ts', import.meta.url),
    'lease server',
  );
  return {
    baseUrl: `http://127.0.0.1:${child.listening.port}`,
    leaseBytes: child.listening.leaseBytes,
    reset: child.reset,
    stats: child.stats,
    close: child.close,
  };
}
