import { CoordinationV1Api, KubeConfig } from '@kubernetes/client-node';
import { createClient, readNamespacedLease } from 'k8s-lease-client';
import { Agent, fetch as undiciFetch } from 'undici';
import { kubeconfigClientOptions, loadKubeconfig } from '../../templates/k8s-lease-client-node/src/index.js';
import { recordGoals } from '../lib/goal.js';
import { readFigures } from '../lib/read-figures.js';
import { goalsOf } from '../lib/goals.js';
import { environment, median, round, runInterleaved, type BenchContext, type BenchResult } from '../lib/harness.js';
import { LEASE_NAME, LEASE_NAMESPACE, LEASE_PATH, leaseName } from '../lib/bench-lease.js';
import { startTlsLeaseServer, type TlsServerStats } from './tls-reads-server.js';

/** A client as one contender builds it from the kubeconfig: its read and how to release it. */
interface Session {
  readonly read: () => Promise<unknown>;
  readonly close: () => Promise<void>;
}

interface Contender {
  readonly key: string;
  /** Loads the kubeconfig from the file and builds a client, as an application starting up would. */
  readonly open: (kubeconfig: string) => Promise<Session>;
}

interface Measured {
  rps: number[];
  tlsHandshakes: number[];
  tcpConnections: number[];
  resumedSessions: number[];
}

/**
 * The floor: undici's fetch on a keep-alive Agent with the kubeconfig's CA and token, parsing the JSON, and nothing
 * else (no client, no middleware). Ours can only add to it.
 */
async function undiciFloor(kubeconfig: string): Promise<Session> {
  const config = await loadKubeconfig({ kubeconfig });
  const cluster = config.clusters.get('bench');
  const user = config.users.get('bench');
  if (!cluster?.server || !user?.token) throw new Error('undici-floor: the bench kubeconfig has no server or token');
  const dispatcher = new Agent({ connect: { ca: cluster.certificateAuthorityData } });
  const url = `${cluster.server}${LEASE_PATH}`;
  const headers = { authorization: `Bearer ${user.token}`, accept: 'application/json' };
  return {
    read: async () => {
      const response = await undiciFetch(url, { headers, dispatcher });
      if (!response.ok) throw new Error(`undici-floor: status ${response.status}`);
      return response.json();
    },
    close: () => dispatcher.close(),
  };
}

const contenders: readonly Contender[] = [
  { key: 'undici-floor', open: undiciFloor },
  {
    key: 'ours',
    // Defaults as a user gets them: retries, API warnings and the User-Agent on, one undici Agent per config.
    async open(kubeconfig) {
      const config = await kubeconfigClientOptions({ kubeconfig });
      const client = createClient(config.clientOptions);
      return {
        read: () => readNamespacedLease(client, { namespace: LEASE_NAMESPACE, name: LEASE_NAME }),
        close: () => config.close(),
      };
    },
  },
  {
    key: 'client-node',
    async open(kubeconfig) {
      const kubeConfig = new KubeConfig();
      kubeConfig.loadFromFile(kubeconfig);
      const coordination = kubeConfig.makeApiClient(CoordinationV1Api);
      return {
        read: () => coordination.readNamespacedLease({ namespace: LEASE_NAMESPACE, name: LEASE_NAME }),
        close: async () => {},
      };
    },
  },
];

/**
 * Sequential GETs of one ~1 KB Lease over HTTPS from a loopback server in a child process, each
 * client configured from the same CA-verified kubeconfig (certificate-authority-data and a bearer
 * token): ours (`kubeconfigClientOptions` + `readNamespacedLease`) against the floor (undici's fetch on a
 * keep-alive Agent, same CA and token, `response.json()`) and `@kubernetes/client-node`
 * (`KubeConfig.loadFromFile` + `CoordinationV1Api.readNamespacedLease`). Each round builds a fresh
 * client from the file, so the handshakes a round counts include the client's first connection.
 * Goals: ours ≤ 1.15 × the floor's time per request and ≥ 5 × client-node (req/s), each the median of
 * per-round ratios, and ≤ 2 TLS handshakes per round (5,000 requests; 500 in quick runs).
 */
export async function benchTlsReads(context: BenchContext): Promise<BenchResult> {
  const requests = context.quick ? 500 : 5000;
  const rounds = context.quick ? 3 : 5;
  const warmup = context.quick ? 200 : 1000;
  const server = await startTlsLeaseServer();
  try {
    for (const contender of contenders) {
      const session = await contender.open(server.kubeconfig);
      try {
        const name = leaseName(await session.read());
        if (name !== LEASE_NAME) throw new Error(`${contender.key}: expected Lease ${LEASE_NAME}, got ${String(name)}`);
        for (let i = 1; i < warmup; i++) await session.read();
      } finally {
        await session.close();
      }
    }

    const byKey = new Map(contenders.map((c) => [c.key, c]));
    // A contender whose round throws is recorded as failed and sits out the later rounds; the others' figures stand.
    const { results, failed } = await runInterleaved(
      contenders.map((c) => c.key),
      rounds,
      async (key) => {
        const session = await byKey.get(key)!.open(server.kubeconfig);
        await server.reset();
        const cpuBefore = process.cpuUsage();
        const started = process.hrtime.bigint();
        try {
          for (let i = 0; i < requests; i++) await session.read();
        } finally {
          await session.close();
        }
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        const cpu = process.cpuUsage(cpuBefore);
        const stats: TlsServerStats = await server.stats();
        if (stats.requests !== requests)
          throw new Error(`${key}: server saw ${stats.requests} requests, expected ${requests}`);
        return { ...stats, rps: requests / seconds, cpuMicros: (cpu.user + cpu.system) / requests };
      },
    );

    /** A failed contender's series are empty: its figures come out NaN (left out of the record), so the goals that need them are not measured. */
    const get = (key: string): Measured => {
      const list = results.get(key) ?? [];
      return {
        rps: list.map((r) => r.rps),
        tlsHandshakes: list.map((r) => r.tlsHandshakes),
        tcpConnections: list.map((r) => r.tcpConnections),
        resumedSessions: list.map((r) => r.resumedSessions),
      };
    };
    /** Median over rounds of ours / client-node within the same round: machine-wide drift mostly cancels. */
    const pairedRatio = median(get('ours').rps.map((value, i) => value / get('client-node').rps[i]!));
    /** Time per request of ours ÷ the undici floor's, paired per round (floor req/s ÷ ours): 1.0 is no overhead. */
    const floorRatio = median(get('undici-floor').rps.map((value, i) => value / get('ours').rps[i]!));
    const ratioOfMedians = median(get('ours').rps) / median(get('client-node').rps);

    const figures = readFigures(
      { requests, rounds, warmup, leaseBytes: server.leaseBytes },
      contenders.map((c) => c.key),
      results,
    );
    figures['time per request ours ÷ undici floor (median of per-round ratios)'] = round(floorRatio, 3);
    figures['ratio ours / client-node (median of per-round ratios)'] = round(pairedRatio, 3);
    figures['ratio ours / client-node (ratio of medians)'] = round(ratioOfMedians, 3);
    for (const contender of contenders) {
      if (!results.has(contender.key)) continue;
      const m = get(contender.key);
      // Not scaled to 5,000 in quick runs: a kept-alive pool's handshakes are a fixed cost, not one per request.
      figures[`${contender.key}: TLS handshakes per round (max over rounds)`] = Math.max(...m.tlsHandshakes);
      figures[`${contender.key}: TLS handshakes per round`] = m.tlsHandshakes.join(', ');
      figures[`${contender.key}: resumed TLS sessions per round`] = m.resumedSessions.join(', ');
      figures[`${contender.key}: TCP connections per round`] = m.tcpConnections.join(', ');
    }

    return {
      name: 'tls-reads',
      command: 'npm run bench -- tls-reads',
      environment: environment(),
      figures,
      ...(failed.length === 0 ? {} : { failed }),
      goals: recordGoals(goalsOf('tls-reads'), figures, {}),
    };
  } finally {
    await server.close();
  }
}
