/**
 * Child process of the parse-fairness benchmark: the Lease API server (from templates/k8s-lease-api-server/src,
 * through tsx) in its own process, with a token for the measured user and a token refused Leases for the
 * flooder, so the parent's requests meet the server's parse workers as two users.
 */
import { startLeaseApiServer } from '../../templates/k8s-lease-api-server/src/index.js';
import type { HostileChildMessage } from '../hostile-body/hostile-body.js';
import { FLOOD_TOKEN, USER_TOKEN } from './parse-fairness.js';

const server = await startLeaseApiServer({
  namespaces: ['default'],
  token: USER_TOKEN,
  forbiddenTokens: [FLOOD_TOKEN],
});
const send = (message: HostileChildMessage): void => void process.send?.(message);
process.on('message', (message: unknown) => {
  if (message === 'close') void server.close().then(() => process.exit(0));
});
send({ type: 'listening', url: server.url });
