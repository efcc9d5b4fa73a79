import type { ChildProcess } from 'node:child_process';
import { forkChild } from '../lib/fork-child.js';
import { recordGoals } from '../lib/goal.js';
import { goalsOf } from '../lib/goals.js';
import { environment, median, round, runInterleaved, type BenchContext, type BenchResult } from '../lib/harness.js';
import { type HostileChildMessage, isHostileChildMessage } from '../hostile-body/hostile-body.js';
import { USER_TOKEN, percentile } from './parse-fairness.js';

const KIB = 1024;
const MIB = 1024 * KIB;
const LEASES = '/apis/coordination.k8s.io/v1/namespaces/default/leases';

interface Child {
  url: string;
  close(): Promise<void>;
}

function startChild(): Promise<Child> {
  const child: ChildProcess = forkChild(new URL('./parse-fairness.child.ts', import.meta.url), [], { tsx: true });
  return new Promise((resolve) => {
    child.once('message', (message: unknown) => {
      const listening = message as HostileChildMessage;
      resolve({
        url: isHostileChildMessage(message) && listening.type === 'listening' ? listening.url : '',
        close: () =>
          new Promise<void>((done) => {
            child.once('exit', () => done());
            child.send('close');
          }),
      });
    });
  });
}

type Contender = 'quiet' | 'flood 3 MiB' | 'flood 1.4 MiB';
const CONTENDERS: readonly Contender[] = ['quiet', 'flood 3 MiB', 'flood 1.4 MiB'];
/** The flooder's Namespace body per contender: over the 1.5 MiB limit (refused unparsed), and just under it (parsed). */
const FLOOD_BYTES: Record<Contender, number> = { quiet: 0, 'flood 3 MiB': 3 * MIB - KIB, 'flood 1.4 MiB': 1.4 * MIB };
/** Requests the flooder keeps in flight: more than its parse queue holds. */
const FLOOD_CONCURRENCY = 12;

interface Samples {
  json: number[];
  yaml: number[];
  flooderAnswers: Record<string, number>;
}

async function timed(url: string, init: RequestInit): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  const res = await fetch(url, init);
  await res.arrayBuffer();
  return { ms: performance.now() - started, status: res.status };
}

/** The measured user: alternately a 300 KiB JSON create and a 300 KiB YAML apply, one at a time. */
async function userRequests(url: string, count: number, round: number, contender: Contender): Promise<Samples> {
  const samples: Samples = { json: [], yaml: [], flooderAnswers: {} };
  const auth = { Authorization: `Bearer ${USER_TOKEN}` };
  const holder = 'h'.repeat(300 * KIB);
  const tag = contender.replace(/[^a-z0-9]/g, '');
  for (let i = 0; i < count; i++) {
    const name = `r${round}-${tag}-${i}`;
    const created = await timed(`${url}${LEASES}`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ metadata: { name }, spec: { holderIdentity: holder } }),
    });
    if (created.status !== 201) throw new Error(`JSON create answered ${created.status}`);
    samples.json.push(created.ms);
    const yaml = `apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata:\n  name: ${name}-a\nspec:\n  holderIdentity: ${holder}\n`;
    const applied = await timed(`${url}${LEASES}/${name}-a?fieldManager=bench`, {
      method: 'PATCH',
      headers: { ...auth, 'Content-Type': 'application/apply-patch+yaml' },
      body: yaml,
    });
    if (applied.status !== 201) throw new Error(`YAML apply answered ${applied.status}`);
    samples.yaml.push(applied.ms);
  }
  return samples;
}

/** The flooder (its own process): FLOOD_CONCURRENCY loops of YAML Namespace creates until stopped. */
function startFlood(url: string, bytes: number): { stop(): Promise<Record<string, number>> } {
  const child = forkChild(
    new URL('./parse-fairness-flood.child.ts', import.meta.url),
    [url, String(bytes), String(FLOOD_CONCURRENCY)],
    { tsx: true },
  );
  const answers = new Promise<Record<string, number>>((resolve) => {
    child.once('message', (message: unknown) => resolve((message as { answers: Record<string, number> }).answers));
  });
  return {
    stop: () => {
      if (child.connected) child.send('stop');
      return answers;
    },
  };
}

async function oneRound(contender: Contender, roundIndex: number, count: number): Promise<Samples> {
  const child = await startChild();
  try {
    // Warm-up: the first worker and the first create of each kind pay for loading code.
    await userRequests(child.url, 1, roundIndex, contender).catch(() => undefined);
    if (contender === 'quiet') return await userRequests(child.url, count, roundIndex + 100, contender);
    const flood = startFlood(child.url, FLOOD_BYTES[contender]);
    try {
      // Let the flood fill the queue before measuring.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const samples = await userRequests(child.url, count, roundIndex + 100, contender);
      return { ...samples, flooderAnswers: await flood.stop() };
    } finally {
      await flood.stop();
    }
  } finally {
    await child.close();
  }
}

/**
 * `parse-fairness`: an authorised user's p99 latency for 300 KiB JSON creates and YAML applies (both parsed in
 * the server's parse workers), quiet and while a user refused Leases floods YAML Namespace bodies: 3 MiB
 * (over the Namespace limit: refused before parsing) and 1.4 MiB (under it: each parsed for seconds).
 * Before the workers were shared by user, the flood had every such request of the user refused 429.
 */
export async function benchParseFairness(context: BenchContext): Promise<BenchResult> {
  const count = context.quick ? 5 : 20;
  const rounds = context.quick ? 1 : 3;
  const { results, failed } = await runInterleaved(CONTENDERS, rounds, (c, r) => oneRound(c, r, count));
  const all = (c: Contender, kind: 'json' | 'yaml'): number[] => (results.get(c) ?? []).flatMap((s) => s[kind]);
  const p99 = (c: Contender, kind: 'json' | 'yaml'): number => percentile(all(c, kind), 99);
  /** Median over rounds of the round's flooded p99 ÷ the same round's quiet p99. */
  const ratio = (c: Contender, kind: 'json' | 'yaml'): number => {
    const quiet = results.get('quiet') ?? [];
    const flooded = results.get(c) ?? [];
    const perRound = flooded.map((s, i) => percentile(s[kind], 99) / percentile(quiet[i]?.[kind] ?? [], 99));
    return median(perRound.filter(Number.isFinite));
  };
  const flooderAnswers = (c: Contender): string =>
    Object.entries(
      (results.get(c) ?? []).reduce<Record<string, number>>((sum, s) => {
        for (const [status, n] of Object.entries(s.flooderAnswers)) sum[status] = (sum[status] ?? 0) + n;
        return sum;
      }, {}),
    )
      .map(([status, n]) => `${n}× ${status}`)
      .join(', ');
  const figures = {
    'requests per kind per round': count,
    rounds,
    'quiet: JSON create p99 (ms)': round(p99('quiet', 'json'), 0),
    'quiet: YAML apply p99 (ms)': round(p99('quiet', 'yaml'), 0),
    '3 MiB flood: JSON create p99 (ms)': round(p99('flood 3 MiB', 'json'), 0),
    '3 MiB flood: YAML apply p99 (ms)': round(p99('flood 3 MiB', 'yaml'), 0),
    '1.4 MiB flood: JSON create p99 (ms)': round(p99('flood 1.4 MiB', 'json'), 0),
    '1.4 MiB flood: YAML apply p99 (ms)': round(p99('flood 1.4 MiB', 'yaml'), 0),
    '3 MiB flood / quiet: JSON create p99': round(ratio('flood 3 MiB', 'json')),
    '3 MiB flood / quiet: YAML apply p99': round(ratio('flood 3 MiB', 'yaml')),
    '1.4 MiB flood / quiet: JSON create p99': round(ratio('flood 1.4 MiB', 'json')),
    '1.4 MiB flood / quiet: YAML apply p99': round(ratio('flood 1.4 MiB', 'yaml')),
    "flooder's answers, 3 MiB": flooderAnswers('flood 3 MiB'),
    "flooder's answers, 1.4 MiB": flooderAnswers('flood 1.4 MiB'),
  };
  return {
    name: 'parse-fairness',
    command: `npm run bench -- parse-fairness${context.quick ? ' --quick' : ''}`,
    environment: environment(),
    figures,
    goals: recordGoals(goalsOf('parse-fairness'), figures, {
      'user-served': { met: failed.length === 0 },
    }),
    failed,
  };
}
