import type { ChildProcess } from 'node:child_process';
import { forkChild } from '../lib/fork-child.js';
import { recordGoals } from '../lib/goal.js';
import { goalsOf } from '../lib/goals.js';
import { environment, median, round, type BenchContext, type BenchResult } from '../lib/harness.js';
import { type HostileChildMessage, isHostileChildMessage, yamlLeaseBody } from './hostile-body.js';

const MB = 1024 * 1024;

interface Child {
  url: string;
  rss(): Promise<number>;
  close(): Promise<void>;
}

function startChild(): Promise<Child> {
  const child: ChildProcess = forkChild(new URL('./hostile-body.child.ts', import.meta.url), [], { tsx: true });
  const waiting: ((message: HostileChildMessage) => void)[] = [];
  child.on('message', (message: unknown) => {
    if (isHostileChildMessage(message)) waiting.shift()?.(message);
  });
  const next = (): Promise<HostileChildMessage> => new Promise((resolve) => waiting.push(resolve));
  return next().then((listening) => ({
    url: listening.type === 'listening' ? listening.url : '',
    rss: async () => {
      const reply = next();
      child.send('rss');
      const message = await reply;
      return message.type === 'rss' ? message.maxRssBytes : 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.send('close');
      }),
  }));
}

/** The slowest of back-to-back GET /version requests (one always in flight) while `during` runs. */
async function worstVersionMs<T>(url: string, during: () => Promise<T>): Promise<{ worst: number; value: T }> {
  let done = false;
  let worst = 0;
  const probes = (async () => {
    while (!done) {
      const started = performance.now();
      await (await fetch(`${url}/version`)).arrayBuffer();
      worst = Math.max(worst, performance.now() - started);
    }
  })();
  const value = await during().finally(() => {
    done = true;
  });
  await probes;
  return { worst, value };
}

interface Round {
  baselineWorstMs: number;
  attackWorstMs: number;
  attackMs: number;
  status: number;
  rssGrowthBytes: number;
}

async function oneRound(bytes: number): Promise<Round> {
  const child = await startChild();
  try {
    const create = (body: string) => async () => {
      const started = performance.now();
      const res = await fetch(`${child.url}/apis/coordination.k8s.io/v1/namespaces/default/leases`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/yaml' },
        body,
      });
      await res.arrayBuffer();
      return { status: res.status, ms: performance.now() - started };
    };
    // The same probing around a small YAML create, for how slow /version is on this machine anyway.
    const baseline = await worstVersionMs(child.url, create(yamlLeaseBody('small', 2048)));
    const rssBefore = await child.rss();
    const body = yamlLeaseBody('big', bytes);
    const attack = await worstVersionMs(child.url, create(body));
    const rssAfter = await child.rss();
    return {
      baselineWorstMs: baseline.worst,
      attackWorstMs: attack.worst,
      attackMs: attack.value.ms,
      status: attack.value.status,
      rssGrowthBytes: rssAfter - rssBefore,
    };
  } finally {
    await child.close();
  }
}

/**
 * `hostile-body`: how long a 3 MiB YAML create (tens of thousands of small nodes, the shape that costs the
 * yaml package seconds to compose) keeps the Lease API server from answering GET /version, and how much
 * its peak RSS grows. Before bodies were parsed off the event loop, this blocked every request for 10–22 s.
 */
export async function benchHostileBody(context: BenchContext): Promise<BenchResult> {
  const bytes = context.quick ? 512 * 1024 : 3 * MB - 1024;
  const rounds = context.quick ? 1 : 3;
  const results: Round[] = [];
  for (let i = 0; i < rounds; i++) results.push(await oneRound(bytes));
  const worst = Math.max(...results.map((r) => r.attackWorstMs));
  const baseline = Math.max(...results.map((r) => r.baselineWorstMs));
  const added = Math.max(0, worst - baseline);
  const growth = Math.max(...results.map((r) => r.rssGrowthBytes));
  const figures = {
    'YAML body (KiB)': round(bytes / 1024, 0),
    rounds,
    'worst GET /version during a small YAML create (ms)': round(baseline, 0),
    'worst GET /version during the hostile YAML create (ms)': round(worst, 0),
    'blocking added by the hostile body (ms)': round(added, 0),
    'median hostile create time (ms)': round(median(results.map((r) => r.attackMs)), 0),
    'peak RSS growth (MB)': round(growth / MB, 1),
  };
  return {
    name: 'hostile-body',
    command: `npm run bench -- hostile-body${context.quick ? ' --quick' : ''}`,
    environment: environment(),
    figures,
    goals: recordGoals(goalsOf('hostile-body'), figures, { created: { met: results.every((r) => r.status === 201) } }),
  };
}
