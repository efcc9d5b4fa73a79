// One candidate process for the two-process tests: runs an elector on real timers and reports on stdout, one JSON line per event.
// With --pause-on-mark it stops itself (SIGSTOP) on a reply marked `x-test-pause: stop` (by the stale-acquisition test's
// proxy), once the reply is read and before the client hands it on: the moment a paused process meets an old reply.
import { createClient, createLeaderElector } from '../../../../templates/k8s-lease-client/src/runtime/index.js';

const [url, name, identity] = process.argv.slice(2);
if (url === undefined || name === undefined || identity === undefined)
  throw new Error('usage: elector.child.ts URL LEASE IDENTITY [--pause-on-mark]');
const say = (event: string, extra: Record<string, unknown> = {}): void => {
  process.stdout.write(`${JSON.stringify({ event, identity, at: Date.now(), ...extra })}\n`);
};
const pausingFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  if (response.headers.get('x-test-pause') !== 'stop') return response;
  const text = await response.text();
  // Synchronous: the process stops here, the reply in hand, until the test sends SIGCONT.
  process.kill(process.pid, 'SIGSTOP');
  return new Response(text, { status: response.status, headers: response.headers });
};
const pausing = process.argv.includes('--pause-on-mark');
const stop = new AbortController();
process.on('SIGTERM', () => stop.abort());
const elector = createLeaderElector({
  // The user agent tells the server's request log which process sent what.
  client: createClient({
    baseUrl: url,
    headers: { 'user-agent': identity },
    // Pausing: no request timeout, and a longer term, so that a loaded machine's slow proxy does not make the
    // candidate give up on a reply before it reads it (the elector's own deadline still bounds every attempt).
    timeoutMs: pausing ? undefined : 1_000,
    fetch: pausing ? pausingFetch : undefined,
  }),
  namespace: 'default',
  name,
  identity,
  leaseDuration: pausing ? 3_000 : 2_000,
  renewDeadline: pausing ? 2_500 : 1_500,
  retryPeriod: 300,
  signal: stop.signal,
  onStartedLeading: (signal, token) => {
    say('started', { token });
    signal.addEventListener('abort', () => say('signal-aborted'));
  },
  onStoppedLeading: () => say('stopped'),
  onNewLeader: (leader) => say('new-leader', { leader }),
});
say('ready');
await elector.run();
process.exit(0);
