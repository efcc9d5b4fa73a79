// One candidate process for the two-process test: runs an elector on real timers and reports on stdout, one JSON line per event.
import { createClient, createLeaderElector } from '../../templates/runtime/index.js';

const [url, name, identity] = process.argv.slice(2);
if (url === undefined || name === undefined || identity === undefined)
  throw new Error('usage: elector.child.ts URL LEASE IDENTITY');
const say = (event: string, extra: Record<string, unknown> = {}): void => {
  process.stdout.write(`${JSON.stringify({ event, identity, at: Date.now(), ...extra })}\n`);
};
const stop = new AbortController();
process.on('SIGTERM', () => stop.abort());
const elector = createLeaderElector({
  // The user agent tells the server's request log which process sent what.
  client: createClient({ baseUrl: url, headers: { 'user-agent': identity }, timeoutMs: 1_000 }),
  namespace: 'default',
  name,
  identity,
  leaseDuration: 2_000,
  renewDeadline: 1_500,
  retryPeriod: 300,
  signal: stop.signal,
  onStartedLeading: (signal) => {
    say('started');
    signal.addEventListener('abort', () => say('signal-aborted'));
  },
  onStoppedLeading: () => say('stopped'),
  onNewLeader: (leader) => say('new-leader', { leader }),
});
say('ready');
await elector.run();
process.exit(0);
