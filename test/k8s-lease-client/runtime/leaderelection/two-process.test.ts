// Two elector processes on real timers: kill -STOP the leader, see the takeover; kill -CONT it, see it step down without writing.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { LeaseApiServer } from '../../../../templates/k8s-lease-api-server/src/index.js';
import { start } from '../../../k8s-lease-api-server/helpers.js';

const CHILD = fileURLToPath(new URL('./elector.child.ts', import.meta.url));
const LEASE = 'two-process';

interface ChildEvent {
  event: string;
  identity: string;
  at: number;
  leader?: string;
}

interface Candidate {
  process: ChildProcess;
  events: ChildEvent[];
  exited: Promise<number | null>;
}

let server: LeaseApiServer;
const children: Candidate[] = [];
beforeAll(async () => {
  server = await start();
});
afterAll(async () => {
  for (const child of children) {
    if (child.process.exitCode === null && child.process.pid !== undefined) {
      process.kill(child.process.pid, 'SIGCONT');
      child.process.kill('SIGKILL');
    }
  }
  await server.close();
});

function launch(identity: string): Candidate {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, server.url, LEASE, identity], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const events: ChildEvent[] = [];
  let buffer = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      events.push(JSON.parse(buffer.slice(0, nl)) as ChildEvent);
      buffer = buffer.slice(nl + 1);
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const candidate = { process: child, events, exited };
  children.push(candidate);
  return candidate;
}

/** Polls (real time, bounded) until `found` returns something. */
async function waitFor<T>(what: string, found: () => T | undefined, limitMs = 15_000): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = found();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const has = (c: Candidate, event: string): ChildEvent | undefined => c.events.find((e) => e.event === event);

it('kill -STOP the leader: the other process takes over; kill -CONT: the stale leader steps down without writing', async () => {
  const a = launch('proc-a');
  await waitFor('proc-a to lead', () => has(a, 'started'));
  const b = launch('proc-b');
  await waitFor('proc-b to see proc-a', () => b.events.find((e) => e.event === 'new-leader' && e.leader === 'proc-a'));
  const pid = a.process.pid;
  if (pid === undefined) throw new Error('no pid');

  process.kill(pid, 'SIGSTOP');
  const stoppedAt = Date.now();
  const takeover = await waitFor('proc-b to take over', () => has(b, 'started'));
  expect(server.store.get('default', LEASE)?.spec).toMatchObject({ holderIdentity: 'proc-b', leaseTransitions: 1 });
  // leaseDuration 2 s after proc-b last saw proc-a's renewal, plus at most a jittered retry.
  console.log(
    `two processes: takeover ${takeover.at - stoppedAt} ms after SIGSTOP (leaseDuration 2000, retryPeriod 300)`,
  );

  server.clearRequests();
  process.kill(pid, 'SIGCONT');
  await waitFor('proc-a to step down', () => has(a, 'stopped'));
  expect(await a.exited).toBe(0);
  expect(has(a, 'signal-aborted')).toBeDefined();
  const writesByA = server.requests().filter((r) => r.userAgent === 'proc-a' && r.method !== 'GET');
  expect(writesByA).toEqual([]);
  // proc-b still leads, undisturbed.
  await new Promise((r) => setTimeout(r, 700));
  expect(server.store.get('default', LEASE)?.spec).toMatchObject({ holderIdentity: 'proc-b', leaseTransitions: 1 });
  expect(has(b, 'signal-aborted')).toBeUndefined();
  b.process.kill('SIGTERM');
  expect(await b.exited).toBe(0);
  expect(has(b, 'stopped')).toBeDefined();
}, 60_000);
