// The chaos run: three `k8s-lease lock` processes contend for one Lease, 50 rounds, with SIGSTOP and SIGCONT
// sent to the contenders. Mutual exclusion is judged from what the commands themselves recorded (one shared file,
// appended to), never from the contenders' logs.
//
// What is paused is a contender's whole process group, k8s-lease and its command together, as a frozen container
// or VM pauses them. A command cannot be stopped by a supervisor that is itself paused, and when the group is
// continued both run again at the same instant; so the guarantee tested is the one that can hold: a command writes
// nothing while another term's command runs, except right after its own group was continued past its term, and
// then only until k8s-lease, whose first act on waking is to find its term over (machine.ts) and the grace spent
// (term-watch.ts), SIGKILLs it: it never gets to finish its work. The commands ignore SIGTERM, so a grace given
// afresh after the pause would let them run to their end, which the test would see.
// The elector underneath is the library's (client-go's tryAcquireOrRenew; test/k8s-lease-client/runtime/
// leaderelection has client-go's cases and a two-process SIGSTOP takeover).
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exited, spawnCli, until, useCluster } from './harness.js';

const cluster = useCluster('k8s-lease-chaos-');
const { scratch } = cluster;
const records = join(scratch, 'records');

/**
 * Short timings: a paused holder's term ends after 1 s, another contender may take over 2 s after it last saw a
 * renewal; renew-deadline + grace (1.6 s) stays below lease-duration.
 */
const TIMINGS = ['--lease-duration', '2s', '--renew-deadline', '1s', '--retry-period', '100ms', '--grace', '600ms'];
const ROUNDS = 50;
/** Records a command continued past its term may still write before its SIGKILL (it writes one per 50 ms). */
const STALE_LIMIT = 4;

/**
 * The command: records its start, six heartbeats 50 ms apart and its end, each line naming its term (the fencing
 * token's transitions), its pid and its k8s-lease's pid (its process group). SIGTERM is ignored: only SIGKILL ends it.
 */
const WORK = `trap '' TERM; r() { echo "$1 $K8S_LEASE_TRANSITIONS $$ $PPID" >> ${records}; }; r start; i=0; while [ $i -lt 6 ]; do r hb; sleep 0.05; i=$((i + 1)); done; r end`;

type Chaos = 'holder-long' | 'holder-short' | 'waiter';
const CHAOS: readonly Chaos[] = ['holder-long', 'holder-short', 'waiter'];

function lines(): string[] {
  return existsSync(records) ? readFileSync(records, 'utf8').split('\n').filter(Boolean) : [];
}

/** The test's own markers go into the same file, before the signal, so the commands' records are ordered after them. */
function signalGroup(group: number, signal: 'SIGSTOP' | 'SIGCONT'): void {
  appendFileSync(records, `${signal === 'SIGSTOP' ? 'stop' : 'cont'} ${group}\n`);
  process.kill(-group, signal);
}

/** The process groups (k8s-lease pids) whose commands have started, in order. */
function startedGroups(groups: ReadonlySet<number>): number[] {
  return lines().flatMap((line) => {
    const [kind, , , parent] = line.split(' ');
    const group = Number(parent);
    return kind === 'start' && groups.has(group) ? [group] : [];
  });
}

interface Round {
  readonly chaos: Chaos;
  readonly paused: number | undefined;
  /** Exit codes by process group. */
  readonly codes: ReadonlyMap<number, number | null>;
}

async function round(n: number, chaos: Chaos, spawned: number[]): Promise<Round> {
  const contenders = [0, 1, 2].map((k) =>
    spawnCli(
      [
        'lock',
        'chaos',
        '--kubeconfig',
        cluster.kubeconfig,
        '--identity',
        `r${n}-${k}`,
        '--fencing-env',
        ...TIMINGS,
        '--',
        'sh',
        '-c',
        WORK,
      ],
      {},
      true,
    ),
  );
  const groups = new Set(contenders.map((c) => c.pid ?? -1));
  spawned.push(...groups);
  const ends = contenders.map(exited);
  await until(() => startedGroups(groups).length >= 1);
  const holder = startedGroups(groups)[0] ?? -1;
  let paused: number | undefined;
  if (chaos === 'waiter') {
    // Another contender (most likely still waiting for the Lease) is paused for half a second.
    paused = [...groups].find((g) => g !== holder);
    if (paused !== undefined) {
      signalGroup(paused, 'SIGSTOP');
      await new Promise((r) => setTimeout(r, 500));
      signalGroup(paused, 'SIGCONT');
    }
  } else {
    paused = holder;
    signalGroup(holder, 'SIGSTOP');
    // Long: until another contender's command runs (its Lease taken over); short: well within the term.
    if (chaos === 'holder-long') await until(() => startedGroups(groups).length >= 2);
    else await new Promise((r) => setTimeout(r, 300));
    signalGroup(holder, 'SIGCONT');
  }
  const results = await Promise.all(ends);
  return { chaos, paused, codes: new Map(contenders.map((c, i) => [c.pid ?? -1, results[i]?.code ?? null])) };
}

/** Every breach of mutual exclusion the records show, in words; [] when there is none. */
function breaches(all: readonly string[]): string[] {
  const found: string[] = [];
  /** Where each group was last continued. */
  const continued = new Map<number, number>();
  /** Where each term was overtaken by the next one's start. */
  const overtaken = new Map<number, number>();
  const stale = new Map<number, number>();
  let newest = -1;
  for (const [at, line] of all.entries()) {
    const [kind = '', a = '', pid = '', parent = ''] = line.split(' ');
    if (kind === 'stop') continue;
    if (kind === 'cont') {
      continued.set(Number(a), at);
      continue;
    }
    const term = Number(a);
    if (kind === 'start') {
      if (term <= newest) found.push(`line ${at + 1}: term ${term} started after term ${newest}: ${line}`);
      overtaken.set(newest, at);
      newest = Math.max(newest, term);
      continue;
    }
    if (term >= newest) continue;
    // A record of an older term while a newer one runs: only a command whose group was continued after it was
    // overtaken may write it, a few times at most, and never its end.
    const group = Number(parent);
    const resumed = (continued.get(group) ?? -1) > (overtaken.get(term) ?? Infinity);
    const count = (stale.get(Number(pid)) ?? 0) + 1;
    stale.set(Number(pid), count);
    if (!resumed) found.push(`line ${at + 1}: term ${term} ran on while term ${newest} ran, not paused: ${line}`);
    else if (kind === 'end')
      found.push(`line ${at + 1}: term ${term}, continued past its term, ran to its end: ${line}`);
    else if (count > STALE_LIMIT)
      found.push(`line ${at + 1}: term ${term} wrote ${count} records after its term: ${line}`);
  }
  return found;
}

describe('k8s-lease lock under SIGSTOP/SIGCONT chaos', () => {
  it('judges records as it should: an overlap without a pause, a resumed command running to its end, a term twice', () => {
    const ok = [
      'start 1 10 1',
      'hb 1 10 1',
      'stop 1',
      'start 2 20 2',
      'cont 1',
      'hb 1 10 1',
      'hb 2 20 2',
      'end 2 20 2',
    ];
    expect(breaches(ok)).toEqual([]);
    expect(breaches(['start 1 10 1', 'start 2 20 2', 'hb 1 10 1'])).toEqual([
      'line 3: term 1 ran on while term 2 ran, not paused: hb 1 10 1',
    ]);
    expect(breaches(['start 1 10 1', 'stop 1', 'start 2 20 2', 'cont 1', 'end 1 10 1'])).toEqual([
      'line 5: term 1, continued past its term, ran to its end: end 1 10 1',
    ]);
    expect(breaches(['start 1 10 1', 'stop 1', 'cont 1', 'start 2 20 2', 'hb 1 10 1'])).toHaveLength(1);
    expect(breaches(['start 3 10 1', 'start 3 20 2'])).toEqual(['line 2: term 3 started after term 3: start 3 20 2']);
  });

  it(`three contenders, ${ROUNDS} rounds: never two commands at once but right after a pause, and never for long`, async () => {
    const spawned: number[] = [];
    const rounds: Round[] = [];
    try {
      for (let n = 0; n < ROUNDS; n++) rounds.push(await round(n, CHAOS[n % CHAOS.length] ?? 'waiter', spawned));
    } finally {
      for (const group of spawned) {
        for (const signal of ['SIGCONT', 'SIGKILL'] as const) {
          try {
            process.kill(-group, signal);
          } catch {
            // Already gone.
          }
        }
      }
    }
    const all = lines();
    expect(breaches(all)).toEqual([]);
    // Every contender's command started once: 150 terms, each granted once.
    expect(all.filter((line) => line.startsWith('start '))).toHaveLength(ROUNDS * 3);
    // A holder paused until another's command ran lost the Lease (exit 3), its command killed; a contender paused
    // briefly may have been holding by then and lost its term (3) or not (0); every other one ran its command to its end.
    const unexpected = rounds.flatMap(({ chaos, paused, codes }, n) =>
      [...codes].flatMap(([group, code]) => {
        const expected = group !== paused ? [0] : chaos === 'holder-long' ? [3] : [0, 3];
        return expected.includes(code ?? -1)
          ? []
          : [`round ${n} (${chaos}): group ${group}${group === paused ? ' (paused)' : ''} exited ${code}`];
      }),
    );
    expect(unexpected).toEqual([]);
  }, 420_000);
});
