import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../generator/config.js';
import { recordGoals } from '../lib/goal.js';
import { goalsOf } from '../lib/goals.js';
import {
  environment,
  median,
  round,
  runInterleaved,
  timeCommand,
  type BenchContext,
  type BenchResult,
} from '../lib/harness.js';

/** The contenders of a round, in the order of even rounds (odd rounds reverse it: warm, openapi-typescript, cold). */
const CONTENDERS = ['cold', 'openapi-typescript', 'warm'] as const;
type Contender = (typeof CONTENDERS)[number];

/**
 * `npm run generate` (every release, whole process, as maintainers run it) against openapi-typescript
 * generating types alone for one release, in two states:
 *
 * - cold: no `.build/` (no launcher bundle, V8 code cache, format or compile cache) and no output directory,
 *   as on a fresh clone's or a CI run's first generate;
 * - warm: nothing changed since the previous run (every cache filled, the output already up to date).
 *
 * Each round runs cold, openapi-typescript and warm back to back, the order reversed every other round
 * (runInterleaved), so that both ratios of a round see the same load on the machine; the figures are the
 * medians of the per-round ratios. Goals: bench/lib/goals.ts.
 */
export async function benchGenerate(context: BenchContext): Promise<BenchResult> {
  const rounds = context.quick ? 3 : 9;
  const outParent = mkdtempSync(join(tmpdir(), 'bench-gen-'));
  const oracleParent = mkdtempSync(join(tmpdir(), 'bench-oats-'));
  const out = join(outParent, 'generated');
  const oracleOut = join(oracleParent, 'types.ts');
  /** Whether the last run of ours completed, leaving caches and output in place for a warm run. */
  let complete = false;
  const runOurs = (): number => {
    complete = false;
    const ms = timeCommand('npm', ['run', '-s', 'generate', '--', '--out', out]);
    complete = true;
    return ms;
  };
  /** What a contender's state needs before it is timed (untimed). */
  const prepare: Record<Contender, () => void> = {
    cold: () => {
      complete = false;
      rmSync(join(PROJECT_ROOT, '.build'), { recursive: true, force: true });
      rmSync(out, { recursive: true, force: true });
    },
    // In order, a warm run follows a complete run of ours (this round's cold or the previous round's warm);
    // after a failed cold run it would not be warm, so an untimed run restores the state first.
    warm: () => void (complete || runOurs()),
    'openapi-typescript': () => {},
  };
  const runTheirs = (): number =>
    timeCommand('npx', [
      '--no-install',
      'openapi-typescript',
      'spec/openapi/v1.35.0.json',
      '-o',
      oracleOut,
      '--silent',
    ]);
  const timed: Record<Contender, () => number> = { cold: runOurs, 'openapi-typescript': runTheirs, warm: runOurs };
  const run = (contender: Contender): number => {
    prepare[contender]();
    // Untimed too: the file system writes back what the previous runs and the removals above left dirty, so
    // that no contender is timed paying for another's deletions. Without it, on this machine's ext4, cold runs
    // grew 1.7 s → 2.6 s over nine rounds and openapi-typescript's 1.45 s → 1.8 s.
    spawnSync('sync');
    return timed[contender]();
  };
  try {
    // One untimed run each: the page cache and npm's own start-up are then warm for both sides.
    runOurs();
    runTheirs();
    const { results, failed } = await runInterleaved(CONTENDERS, rounds, async (contender) => run(contender));
    /** A failed contender has no series: its figures and the ratios that need it are left out (not measured). */
    const series = (contender: Contender): number[] | undefined => results.get(contender);
    const perRound = (values: readonly number[]): string => values.map((v) => round(v, 0)).join(', ');
    const theirs = series('openapi-typescript');
    const figures: Record<string, number | string> = { rounds };
    const labels: Record<Contender, string> = {
      cold: 'npm run generate, cold',
      warm: 'npm run generate, warm',
      'openapi-typescript': 'openapi-typescript, types for one release',
    };
    // Figures in the order the record has always listed them: ours cold, ours warm, then openapi-typescript.
    const listed = ['cold', 'warm', 'openapi-typescript'] as const;
    for (const contender of listed) {
      const values = series(contender);
      if (values === undefined) continue;
      figures[`${labels[contender]}: median ms`] = round(median(values), 0);
    }
    for (const contender of listed) {
      const values = series(contender);
      if (values === undefined) continue;
      const name = contender === 'openapi-typescript' ? 'openapi-typescript' : labels[contender];
      figures[`${name}: ms per round`] = perRound(values);
    }
    for (const state of ['cold', 'warm'] as const) {
      const ours = series(state);
      if (ours === undefined || theirs === undefined) continue;
      figures[`ratio ${state} generate / openapi-typescript (median of round ratios)`] = round(
        median(ours.map((value, i) => value / theirs[i]!)),
        3,
      );
    }
    return {
      name: 'generate',
      command: 'npm run bench -- generate',
      environment: environment(),
      figures,
      ...(failed.length === 0 ? {} : { failed }),
      goals: recordGoals(goalsOf('generate'), figures, {}),
    };
  } finally {
    rmSync(outParent, { recursive: true, force: true });
    rmSync(oracleParent, { recursive: true, force: true });
  }
}
