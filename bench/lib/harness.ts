import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../generator/config.js';
import { renderChart } from './chart.js';
import { chartOf } from './charts.js';
import type { RecordedGoal } from './goal.js';

export interface BenchContext {
  /** CI runs every benchmark with small counts: figures are smoke checks, not records. */
  readonly quick: boolean;
}

export interface BenchResult {
  readonly name: string;
  /** The command that reproduces the figures. */
  readonly command: string;
  readonly environment: string;
  readonly figures: Record<string, number | string>;
  /** Goals declared in goals.ts, each judged against the figures of this same run (recordGoals). */
  readonly goals: readonly RecordedGoal[];
  /** Contenders that failed (their figures left out, every other contender's kept); absent when none did. */
  readonly failed?: readonly ContenderFailure[] | undefined;
}

/** A contender whose round threw: recorded in the result, on its chart and in SUMMARY.md. */
export interface ContenderFailure {
  readonly contender: string;
  /** The round (0-based) in which it failed; -1 before the first (starting, checking or warming up). */
  readonly round: number;
  readonly error: string;
}

export interface InterleavedRounds<K extends string, R> {
  /** Every round's result, per contender that never failed (a failed contender has no entry). */
  readonly results: Map<K, R[]>;
  readonly failed: ContenderFailure[];
}

/**
 * Runs `rounds` rounds of every contender, interleaved and in reversed order every other
 * round (A B C, C B A, …), so drift of the whole machine hits everyone alike. A contender
 * whose round throws (a client that dies, a server that refuses it) is recorded as failed,
 * its figures are dropped (a partial series would pair the wrong rounds in per-round
 * ratios) and it sits out the remaining rounds: one broken contender never costs the
 * figures of the others.
 */
export async function runInterleaved<K extends string, R>(
  contenders: readonly K[],
  rounds: number,
  run: (contender: K, round: number) => Promise<R>,
): Promise<InterleavedRounds<K, R>> {
  const results = new Map<K, R[]>(contenders.map((c) => [c, []]));
  const failed: ContenderFailure[] = [];
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? contenders : [...contenders].reverse();
    for (const contender of order) {
      const list = results.get(contender);
      if (list === undefined) continue;
      try {
        list.push(await run(contender, r));
      } catch (error) {
        results.delete(contender);
        failed.push({ contender, round: r, error: describeError(error) });
        console.error(`bench: ${contender} failed in round ${r + 1}: ${describeError(error)}`);
      }
    }
  }
  return { results, failed };
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (cause: ${error.cause.message})` : '';
  return `${error.message}${cause}`;
}

/** "contender (round n): error", one per failure, for summaries and chart subtitles. */
export function describeFailures(failed: readonly ContenderFailure[] | undefined): string {
  return (failed ?? []).map((f) => `${f.contender} (${whenFailed(f)}): ${f.error}`).join('; ');
}

export function whenFailed(failure: ContenderFailure): string {
  return failure.round < 0 ? 'before the first round' : `round ${failure.round + 1}`;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Wall time of a whole command, in milliseconds. */
export function timeCommand(command: string, args: readonly string[]): number {
  const started = process.hrtime.bigint();
  const result = spawnSync(command, args, { cwd: PROJECT_ROOT, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr}`);
  return elapsed;
}

export function environment(): string {
  return `node ${process.version}, ${process.platform}/${process.arch}`;
}

export function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

export function writeResult(result: BenchResult, quick: boolean): string {
  const dir = quick ? join(PROJECT_ROOT, '.tmp', 'bench') : join(PROJECT_ROOT, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${result.name}.json`);
  const measuredAt = new Date().toISOString();
  writeFileSync(file, `${JSON.stringify({ ...result, measuredAt, quick }, null, 2)}\n`);
  writeChart(dir, { ...result, measuredAt, quick });
  return file;
}

/**
 * <name>.svg beside <name>.json, drawn from the recorded figures alone, so
 * `npm run bench -- --charts` can redraw every picture without measuring again.
 */
export function writeChart(
  dir: string,
  recorded: Pick<BenchResult, 'name' | 'environment' | 'figures' | 'goals' | 'failed'> & {
    measuredAt: string;
    quick: boolean;
  },
): void {
  const chart = chartOf(recorded.name, recorded.figures, recorded.goals);
  if (chart === undefined) return;
  // A failed contender has no bars; the subtitle says so rather than letting it vanish silently.
  const failed = (recorded.failed ?? []).map((f) => f.contender);
  const subtitle = `${recorded.environment}${recorded.quick ? ' [quick]' : ''}, ${recorded.measuredAt.slice(0, 10)}${failed.length === 0 ? '' : `; FAILED: ${failed.join(', ')}`}`;
  writeFileSync(
    join(dir, `${recorded.name}.svg`),
    renderChart({ ...chart, subtitle: chart.subtitle === undefined ? subtitle : `${chart.subtitle}; ${subtitle}` }),
  );
}
