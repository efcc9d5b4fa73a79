/**
 * Child process of the hostile-body benchmark: the Lease API server (from templates/k8s-lease-api-server/src, through tsx)
 * in its own process, so the parent's probes measure its event loop and its RSS is its own (the parse
 * worker's memory included: a worker thread shares the process).
 */
import { startLeaseApiServer } from '../../templates/k8s-lease-api-server/src/index.js';
import type { HostileChildMessage } from './hostile-body.js';

const server = await startLeaseApiServer({ namespaces: ['default'] });
const send = (message: HostileChildMessage): void => void process.send?.(message);
process.on('message', (message: unknown) => {
  if (message === 'rss') send({ type: 'rss', maxRssBytes: process.resourceUsage().maxRSS * 1024 });
  if (message === 'close') void server.close().then(() => process.exit(0));
});
send({ type: 'listening', url: server.url });
