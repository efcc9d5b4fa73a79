/**
 * Child process of the `reads` benchmark for the clients that run on another
 * Node than the parent: started by reads.bench.ts with Node 22 (client-node
 * 2.x needs Node ≥ 22), compiled to bench/.build/ to run on bare node. It
 * builds its clients, checks and warms each, then runs the rounds the parent
 * asks for, one client at a time, so they interleave with the parent's own
 * clients and the parent reads the server's counters around each round.
 *
 *   argv[2]: a ReadsChildConfig as JSON
 */
import { clientNodeOptions } from '../lib/client-node-options.js';
import {
  isReadsChildCommand,
  type ReadsChildConfig,
  type ReadsChildMessage,
  type RemoteReadsContender,
} from './reads-remote.js';
import { LEASE_NAME, LEASE_NAMESPACE, LEASE_PATH, leaseName } from '../lib/bench-lease.js';

type Read = () => Promise<unknown>;

async function reader(contender: RemoteReadsContender, baseUrl: string): Promise<Read> {
  switch (contender) {
    case 'fetch floor (Node 22)':
      return () => fetch(baseUrl + LEASE_PATH).then((r) => r.json());
    case 'ours (Node 22)': {
      const { createClient, readNamespacedLease } = await import('../../generated/k8s-lease-client/dist/index.js');
      const client = createClient({ baseUrl });
      return () => readNamespacedLease(client, { namespace: LEASE_NAMESPACE, name: LEASE_NAME });
    }
    case 'client-node 2.0.1 (Node 22)': {
      const { CoordinationV1Api, KubeConfig } = await import('client-node-2');
      const kubeConfig = new KubeConfig();
      kubeConfig.loadFromOptions(clientNodeOptions(baseUrl));
      const coordination = kubeConfig.makeApiClient(CoordinationV1Api);
      return () => coordination.readNamespacedLease({ namespace: LEASE_NAMESPACE, name: LEASE_NAME });
    }
  }
}

const send = (message: ReadsChildMessage): void => void process.send?.(message);
const config = JSON.parse(process.argv[2] ?? 'null') as ReadsChildConfig | null;
if (config === null) throw new Error('usage: reads-client.child.mjs <ReadsChildConfig as JSON>');

const readers = new Map<RemoteReadsContender, Read>();
for (const contender of config.contenders) {
  const read = await reader(contender, config.baseUrl);
  const name = leaseName(await read());
  if (name !== LEASE_NAME) throw new Error(`${contender}: expected Lease ${LEASE_NAME}, got ${String(name)}`);
  for (let i = 1; i < config.warmup; i++) await read();
  readers.set(contender, read);
}
send({ type: 'ready', node: process.version });

process.on('message', (message: unknown) => {
  if (!isReadsChildCommand(message)) return;
  const read = readers.get(message.contender);
  if (read === undefined) throw new Error(`unknown contender ${message.contender}`);
  void (async () => {
    try {
      const cpuBefore = process.cpuUsage();
      const started = process.hrtime.bigint();
      for (let i = 0; i < message.requests; i++) await read();
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const cpu = process.cpuUsage(cpuBefore);
      send({ type: 'round', contender: message.contender, seconds, cpuMicros: cpu.user + cpu.system });
    } catch (error) {
      // Reported, not thrown: an unhandled rejection would take the other Node 22 contenders down with it.
      const cause = error instanceof Error && error.cause instanceof Error ? ` (cause: ${error.cause.message})` : '';
      const text = error instanceof Error ? `${error.message}${cause}` : String(error);
      send({ type: 'failed', contender: message.contender, error: text });
    }
  })();
});
process.on('disconnect', () => process.exit(0));
