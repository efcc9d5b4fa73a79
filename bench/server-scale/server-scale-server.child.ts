/**
 * Child process of the `server-scale` benchmark: the shipped Lease API server
 * (templates/k8s-lease-api-server/src, `startLeaseApiServer`), in a process of its own so its
 * CPU and heap are its own. Started with --expose-gc under tsx, as the
 * benchmarks run. It seeds `seed` Leases through its store handle, then
 * answers the parent: forced-GC heap, its CPU so far, and paced writes
 * through the store handle (the same validation, managed fields and watch
 * events as an HTTP update, without an HTTP client process to pace).
 *
 *   argv[2]: a ScaleServerConfig as JSON
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { startLeaseApiServer } from '../../templates/k8s-lease-api-server/src/index.js';
import {
  isScaleServerCommand,
  scaleLease,
  type ScaleServerCommand,
  type ScaleServerConfig,
  type ScaleServerMessage,
} from './server-scale.js';

const config = JSON.parse(process.argv[2] ?? 'null') as ScaleServerConfig | null;
if (config === null) throw new Error('usage: server-scale-server.child.ts <ScaleServerConfig as JSON>');
const gc = globalThis.gc;
if (gc === undefined) throw new Error('server-scale-server.child.ts needs --expose-gc');

const server = await startLeaseApiServer({
  watchBatching: config.watchBatching,
  // 1,000 writes/s to 200 watchers outrun this machine: a watcher that falls behind is measured by
  // what reaches it and when, not cut off as blocked (the slow-watcher benchmark's subject).
  watchBufferBytes: 1024 * 1024 * 1024,
  watchBlockedTimeoutMs: 3_600_000,
  bookmarkIntervalMs: 3_600_000,
});
const send = (message: ScaleServerMessage): void => void process.send?.(message);

function seed(from: number, to: number): void {
  for (let i = from; i < to; i++) {
    const created = server.store.create(scaleLease(i, 0, Date.now()), 'kubelet');
    if (!created.ok) throw new Error(`seeding lease ${i}: ${created.error.message}`);
  }
}
seed(0, config.seed);
send({ type: 'listening', port: server.port, resourceVersion: server.store.resourceVersion });

/** Renewals continue across write commands, so every write changes renewTime. */
let renewal = 0;
let stopping = false;

/**
 * `count` updates at `rate` per second: every millisecond or so, as many as are due by the clock. A
 * server that cannot keep up falls behind its schedule and catches up in bursts, as under real load.
 */
async function write(command: Extract<ScaleServerCommand, { type: 'write' }>): Promise<void> {
  stopping = false;
  const started = performance.now();
  let done = 0;
  while (done < command.count && !stopping) {
    const due = Math.min(command.count, Math.floor(((performance.now() - started) / 1000) * command.rate) + 1);
    for (; done < due; done++) {
      const index = done % command.leases;
      if (index === 0) renewal++;
      const updated = server.store.update(scaleLease(index, renewal, Date.now()), 'kubelet');
      if (!updated.ok) throw new Error(`updating lease ${index}: ${updated.error.message}`);
    }
    await sleep(1);
  }
  send({ type: 'written', writes: done, seconds: (performance.now() - started) / 1000 });
}

process.on('message', (message: unknown) => {
  if (!isScaleServerCommand(message)) return;
  switch (message.type) {
    case 'heap':
      gc();
      gc();
      send({ type: 'heap', heapUsed: process.memoryUsage().heapUsed });
      return;
    case 'cpu': {
      const cpu = process.cpuUsage();
      send({ type: 'cpu', cpuMicros: cpu.user + cpu.system, resourceVersion: server.store.resourceVersion });
      return;
    }
    case 'write':
      void write(message);
      return;
    case 'stop':
      stopping = true;
      return;
    case 'seed':
      seed(message.from, message.to);
      send({ type: 'seeded', resourceVersion: server.store.resourceVersion });
      return;
  }
});
process.on('disconnect', () => void server.close().then(() => process.exit(0)));
