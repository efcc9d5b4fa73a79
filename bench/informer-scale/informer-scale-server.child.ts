/**
 * Child process of the `informer-scale` benchmark: the shipped Lease API server
 * (templates/k8s-lease-api-server/src) holding `argv[2]` node Leases in kube-node-lease, created
 * through its store handle. On `renew`, renews every Lease once per round
 * through the store handle (same validation, managed fields and watch events
 * as an HTTP update), as fast as the server takes them, and reports how long
 * it took. Runs under tsx, as the benchmarks do.
 */
import { formatMicroTime } from 'k8s-lease-client';
import { startLeaseApiServer, type Lease } from '../../templates/k8s-lease-api-server/src/index.js';
import { NODE_LEASE_NAMESPACE, isServerCommand, type ServerMessage } from './informer-scale.js';

const leases = Number(process.argv[2]);
if (!Number.isInteger(leases) || leases <= 0)
  throw new Error(`usage: informer-scale-server.child.ts <leases>, got ${String(process.argv[2])}`);

// A compressed renewal phase pushes events far faster than kubelets would; a client that falls
// behind is measured by its own throughput, not cut off as a blocked watcher (which is the
// slow-watcher benchmark's subject). The backlog then waits in this process, not the client's.
const server = await startLeaseApiServer({
  watchBufferBytes: 1024 * 1024 * 1024,
  watchBlockedTimeoutMs: 3_600_000,
  bookmarkIntervalMs: 3_600_000,
});
const send = (message: ServerMessage): void => void process.send?.(message);

/** A kubelet's node Lease: named after its node, held by it, 40 s duration, renewed every 10 s (kubelet's nodeLeaseRenewInterval). */
function nodeLease(index: number, renewal: number): Lease {
  const name = `node-${String(index).padStart(5, '0')}`;
  const renewTime = formatMicroTime(new Date(Date.UTC(2026, 0, 1) + renewal * 10_000));
  return {
    metadata: {
      name,
      namespace: NODE_LEASE_NAMESPACE,
      ownerReferences: [
        { apiVersion: 'v1', kind: 'Node', name, uid: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}` },
      ],
    },
    spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime },
  };
}

const seedStarted = performance.now();
for (let i = 0; i < leases; i++) {
  const created = server.store.create(nodeLease(i, 0), 'kubelet');
  if (!created.ok) throw new Error(`seeding lease ${i}: ${created.error.message}`);
}
const seedSeconds = (performance.now() - seedStarted) / 1000;
const list = await fetch(`${server.url}/apis/coordination.k8s.io/v1/namespaces/${NODE_LEASE_NAMESPACE}/leases`);
const listBytes = (await list.arrayBuffer()).byteLength;
send({ type: 'listening', port: server.port, seedSeconds, listBytes });

/** Renewal rounds continue across commands, so every renewal writes a new renewTime. */
let renewal = 0;
const yieldToSockets = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

process.on('message', (message: unknown) => {
  if (!isServerCommand(message)) return;
  void (async () => {
    const started = performance.now();
    for (let round = 0; round < message.rounds; round++) {
      renewal++;
      for (let i = 0; i < leases; i++) {
        const renewed = server.store.update(nodeLease(i, renewal), 'kubelet');
        if (!renewed.ok) throw new Error(`renewing lease ${i}: ${renewed.error.message}`);
        // Let the watch streams flush between batches, as a server taking requests would.
        if (i % 200 === 199) await yieldToSockets();
      }
    }
    send({
      type: 'renewed',
      updates: message.rounds * leases,
      seconds: (performance.now() - started) / 1000,
      resourceVersion: server.store.resourceVersion,
    });
  })();
});
process.on('disconnect', () => void server.close().then(() => process.exit(0)));
