import { CoordinationV1Api, KubeConfig } from '@kubernetes/client-node';
import createOpenapiFetchClient from 'openapi-fetch';
import { createClient, readNamespacedLease, type Lease } from '../generated/k8s-lease-client/dist/index.js';
import { environment, median, round, type BenchContext, type BenchResult } from './harness.js';
import { LEASE_NAME, LEASE_NAMESPACE, LEASE_PATH, startLeaseServer, type ServerStats } from './lease-server.js';

/**
 * The one operation the reads benchmark calls, typed as openapi-typescript
 * types it (`paths[…]['get']`), written out by hand so this file type-checks
 * without a generated file. openapi-fetch's runtime never looks at it.
 */
interface LeasePaths {
  '/apis/coordination.k8s.io/v1/namespaces/{namespace}/leases/{name}': {
    parameters: { query?: never; header?: never; path: { namespace: string; name: string }; cookie?: never };
    get: {
      parameters: { query?: { pretty?: string }; header?: never; path: { namespace: string; name: string }; cookie?: never };
      requestBody?: never;
      responses: { 200: { headers: { [name: string]: unknown }; content: { 'application/json': Lease } } };
    };
  };
}

interface Contender {
  readonly key: string;
  /** One GET of the Lease; resolves to the decoded body. */
  readonly read: () => Promise<unknown>;
}

interface Measured {
  rps: number[];
  /** This process's CPU time (user + system) per request: the client's cost, with the server's CPU in the child left out. */
  cpuMicros: number[];
  usedConnections: number[];
  newConnections: number[];
}

function leaseName(body: unknown): unknown {
  const metadata: unknown = typeof body === 'object' && body !== null ? Reflect.get(body, 'metadata') : undefined;
  return typeof metadata === 'object' && metadata !== null ? Reflect.get(metadata, 'name') : undefined;
}

/**
 * 5,000 sequential GETs of one ~1 KB Lease from a loopback server in a child
 * process, for: plain `fetch(url).then(r => r.json())` (the floor), our
 * `readNamespacedLease`, `@kubernetes/client-node` and openapi-fetch. Each is
 * warmed up, then timed in interleaved rounds (order reversed every other
 * round so drift hits everyone alike); figures are median requests/second,
 * the client's CPU per request and the TCP connections the server saw.
 * Goals, as medians of per-round ratios within this run:
 * ours ≥ 0.95 × floor, ours ≥ 1.3 × client-node, and ours keeps its
 * connection alive (≤ 5 connections per round).
 */
export async function benchReads(context: BenchContext): Promise<BenchResult> {
  const requests = context.quick ? 500 : 5000;
  const rounds = context.quick ? 3 : 5;
  const warmup = context.quick ? 200 : 1000;
  const server = await startLeaseServer();
  try {
    const url = server.baseUrl + LEASE_PATH;

    const ours = createClient({ baseUrl: server.baseUrl });

    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromOptions({
      clusters: [{ name: 'bench', server: server.baseUrl, skipTLSVerify: true }],
      users: [{ name: 'bench' }],
      contexts: [{ name: 'bench', cluster: 'bench', user: 'bench' }],
      currentContext: 'bench',
    });
    const coordination = kubeConfig.makeApiClient(CoordinationV1Api);

    const openapiFetch = createOpenapiFetchClient<LeasePaths>({ baseUrl: server.baseUrl });

    const contenders: Contender[] = [
      { key: 'fetch floor', read: () => fetch(url).then((r) => r.json()) },
      { key: 'ours', read: () => readNamespacedLease(ours, { namespace: LEASE_NAMESPACE, name: LEASE_NAME }) },
      { key: 'client-node', read: () => coordination.readNamespacedLease({ namespace: LEASE_NAMESPACE, name: LEASE_NAME }) },
      {
        key: 'openapi-fetch',
        read: () =>
          openapiFetch
            .GET('/apis/coordination.k8s.io/v1/namespaces/{namespace}/leases/{name}', { params: { path: { namespace: LEASE_NAMESPACE, name: LEASE_NAME } } })
            .then((r) => r.data),
      },
    ];

    for (const contender of contenders) {
      const name = leaseName(await contender.read());
      if (name !== LEASE_NAME) throw new Error(`${contender.key}: expected Lease ${LEASE_NAME}, got ${String(name)}`);
      for (let i = 1; i < warmup; i++) await contender.read();
    }

    const measured = new Map<string, Measured>(contenders.map((c) => [c.key, { rps: [], cpuMicros: [], usedConnections: [], newConnections: [] }]));
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 === 0 ? contenders : [...contenders].reverse();
      for (const contender of order) {
        await server.reset();
        const cpuBefore = process.cpuUsage();
        const started = process.hrtime.bigint();
        for (let i = 0; i < requests; i++) await contender.read();
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        const cpu = process.cpuUsage(cpuBefore);
        const stats: ServerStats = await server.stats();
        if (stats.requests !== requests) throw new Error(`${contender.key}: server saw ${stats.requests} requests, expected ${requests}`);
        const m = measured.get(contender.key)!;
        m.rps.push(requests / seconds);
        m.cpuMicros.push((cpu.user + cpu.system) / requests);
        m.usedConnections.push(stats.usedConnections);
        m.newConnections.push(stats.newConnections);
      }
    }

    const rps = (key: string): number => median(measured.get(key)!.rps);
    /**
     * Median over rounds of ours / baseline within the same round. The two ran
     * back to back, so load from elsewhere on the machine (which moves whole
     * rounds by ±20 % here) mostly cancels; the goals are checked on these.
     */
    const pairedRatio = (key: string): number => {
      const baseline = measured.get(key)!.rps;
      return median(measured.get('ours')!.rps.map((value, i) => value / baseline[i]!));
    };
    const floor = rps('fetch floor');
    const ourRps = rps('ours');
    const clientNode = rps('client-node');
    const oursVsFloor = pairedRatio('fetch floor');
    const oursVsClientNode = pairedRatio('client-node');
    const ourConnections = Math.max(...measured.get('ours')!.usedConnections);

    const figures: Record<string, number | string> = {
      'requests per round': requests,
      rounds,
      'warm-up requests per client': warmup,
      'Lease response bytes': server.leaseBytes,
    };
    for (const contender of contenders) {
      const m = measured.get(contender.key)!;
      figures[`${contender.key}: median req/s`] = round(median(m.rps), 0);
      figures[`${contender.key}: req/s per round`] = m.rps.map((v) => round(v, 0)).join(', ');
      figures[`${contender.key}: client CPU µs per request (median)`] = round(median(m.cpuMicros), 0);
    }
    figures['ratio ours / fetch floor (median of per-round ratios)'] = round(oursVsFloor, 3);
    figures['ratio ours / fetch floor (ratio of medians)'] = round(ourRps / floor, 3);
    figures['ratio ours / client-node (median of per-round ratios)'] = round(oursVsClientNode, 3);
    figures['ratio ours / client-node (ratio of medians)'] = round(ourRps / clientNode, 3);
    figures['ratio ours / openapi-fetch (median of per-round ratios)'] = round(pairedRatio('openapi-fetch'), 3);
    figures['ratio openapi-fetch / fetch floor (ratio of medians)'] = round(rps('openapi-fetch') / floor, 3);
    for (const contender of contenders) {
      const m = measured.get(contender.key)!;
      figures[`${contender.key}: TCP connections used per round (max)`] = Math.max(...m.usedConnections);
      figures[`${contender.key}: TCP connections opened per round (max)`] = Math.max(...m.newConnections);
    }

    return {
      name: 'reads',
      command: 'npm run bench -- reads',
      environment: environment(),
      figures,
      goals: [
        { goal: `ours ≥ 0.95 × fetch floor (req/s, median of per-round ratios; got ${round(oursVsFloor, 3)}×)`, met: oursVsFloor >= 0.95 },
        { goal: `ours ≥ 1.3 × @kubernetes/client-node (req/s, median of per-round ratios; got ${round(oursVsClientNode, 3)}×)`, met: oursVsClientNode >= 1.3 },
        { goal: `ours keeps connections alive: ≤ 5 TCP connections per ${requests} requests (got ${ourConnections})`, met: ourConnections <= 5 },
      ],
    };
  } finally {
    await server.close();
  }
}
