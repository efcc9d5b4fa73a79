import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../generator/config.js';
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
  recorded: Pick<BenchResult, 'name' | 'environment' | 'figures' | 'goals'> & { measuredAt: string; quick: boolean },
): void {
  const chart = chartOf(recorded.name, recorded.figures, recorded.goals);
  if (chart === undefined) return;
  const subtitle = `${recorded.environment}${recorded.quick ? ' [quick]' : ''}, ${recorded.measuredAt.slice(0, 10)}`;
  writeFileSync(
    join(dir, `${recorded.name}.svg`),
    renderChart({ ...chart, subtitle: chart.subtitle === undefined ? subtitle : `${chart.subtitle}; ${subtitle}` }),
  );
}
