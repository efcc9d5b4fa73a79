/**
 * Child process of the `slow-watcher` benchmark: starts the shipped Lease API server
 * (templates/k8s-lease-api-server/src, its default watch-buffer bounds), opens a watch that reads every event and, in the
 * `never-reading` scenario, a second watch whose socket never reads, then writes large events
 * through the store handle, paced by the reading watch. Reports this process's peak memory over IPC.
 *
 *   argv[2]: JSON SlowWatcherConfig
 */
import { connect } from 'node:net';
import { startLeaseApiServer } from '../../templates/k8s-lease-api-server/src/index.js';
import type { SlowWatcherConfig, SlowWatcherResult } from './slow-watcher.js';

const config: SlowWatcherConfig = JSON.parse(process.argv[2] ?? '{}');
const PATH = '/apis/coordination.k8s.io/v1/namespaces/default/leases';

async function until(predicate: () => boolean): Promise<void> {
  for (let i = 0; i < 12_000 && !predicate(); i++) await new Promise((r) => setTimeout(r, 5));
  if (!predicate()) throw new Error('timed out');
}

const server = await startLeaseApiServer({ historyWindow: 5, watchBufferBytes: config.watchBufferBytes });
const created = server.store.create({ metadata: { name: 'big', namespace: 'default' }, spec: {} });
if (!created.ok) throw new Error(created.error.message);
const from = server.store.resourceVersion;

// The reading watch: counts complete lines as they arrive.
let received = 0;
const reading = await fetch(`${server.url}${PATH}?watch=true&resourceVersion=${from}`);
const reader = reading.body?.getReader();
if (reader === undefined) throw new Error('no body');
void (async () => {
  for (;;) {
    const chunk = await reader.read().catch(() => ({ done: true as const, value: undefined }));
    if (chunk.done) return;
    for (const byte of chunk.value) if (byte === 10) received++;
  }
})();

if (config.scenario === 'never-reading') {
  const url = new URL(server.url);
  const socket = connect({ host: url.hostname, port: Number(url.port) });
  socket.pause();
  socket.on('error', () => undefined);
  socket.write(`GET ${PATH}?watch=true&resourceVersion=${from} HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`);
}
await until(() => server.activeWatches() === (config.scenario === 'never-reading' ? 2 : 1));

let peakLive = 0;
const payload = 'x'.repeat(config.eventBytes);
const started = process.hrtime.bigint();
for (let i = 0; i < config.events; i++) {
  const written = server.store.update({
    metadata: { name: 'big', namespace: 'default', annotations: { payload: `${i}${payload}` } },
    spec: {},
  });
  if (!written.ok) throw new Error(written.error.message);
  const usage = process.memoryUsage();
  peakLive = Math.max(peakLive, usage.heapUsed + usage.external);
  await until(() => received >= i - 1);
}
await until(() => received === config.events);
const result: SlowWatcherResult = {
  scenario: config.scenario,
  events: received,
  peakRssBytes: process.resourceUsage().maxRSS * 1024,
  peakLiveBytes: peakLive,
  activeWatchesAfter: server.activeWatches(),
  ms: Number(process.hrtime.bigint() - started) / 1e6,
};
process.send?.(result);
await server.close();
process.disconnect?.();
