import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../generator/config.js';
import { environment, median, round, timeCommand, type BenchContext, type BenchResult } from './harness.js';

/** Goals: a first run (fresh clone, CI) at most 1.2 × openapi-typescript, a run with nothing changed at most 1.0 ×. */
const GOAL_COLD = 1.2;
const GOAL_WARM = 1.0;

/**
 * `npm run generate` (every release, whole process, as maintainers run it) against openapi-typescript
 * generating types alone for one release, in two states:
 *
 * - cold: no `.build/` (no launcher bundle, V8 code cache, format or compile cache) and no output directory,
 *   as on a fresh clone's or a CI run's first generate;
 * - warm: nothing changed since the previous run (every cache filled, the output already up to date).
 *
 * Each round runs cold, openapi-typescript and warm back to back, the order reversed every other round, so
 * that both ratios of a round see the same load on the machine; the figures are the medians of the per-round
 * ratios.
 */
export async function benchGenerate(context: BenchContext): Promise<BenchResult> {
  const rounds = context.quick ? 3 : 9;
  const outParent = mkdtempSync(join(tmpdir(), 'bench-gen-'));
  const oracleParent = mkdtempSync(join(tmpdir(), 'bench-oats-'));
  const out = join(outParent, 'generated');
  const oracleOut = join(oracleParent, 'types.ts');
  const runOurs = (): number => timeCommand('npm', ['run', '-s', 'generate', '--', '--out', out]);
  const runCold = (): number => {
    rmSync(join(PROJECT_ROOT, '.build'), { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
    return runOurs();
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
  try {
    // One untimed run each: the page cache and npm's own start-up are then warm for both sides.
    runOurs();
    runTheirs();
    const cold: number[] = [];
    const warm: number[] = [];
    const theirs: number[] = [];
    for (let i = 0; i < rounds; i++) {
      // A warm run always follows a complete run of ours (the previous round's last, or this round's first).
      if (i % 2 === 0) {
        cold.push(runCold());
        theirs.push(runTheirs());
        warm.push(runOurs());
      } else {
        warm.push(runOurs());
        theirs.push(runTheirs());
        cold.push(runCold());
      }
    }
    const coldRatio = median(cold.map((value, i) => value / theirs[i]!));
    const warmRatio = median(warm.map((value, i) => value / theirs[i]!));
    const perRound = (values: readonly number[]): string => values.map((v) => round(v, 0)).join(', ');
    return {
      name: 'generate',
      command: 'npm run bench -- generate',
      environment: environment(),
      figures: {
        rounds,
        'npm run generate, cold: median ms': round(median(cold), 0),
        'npm run generate, warm: median ms': round(median(warm), 0),
        'openapi-typescript, types for one release: median ms': round(median(theirs), 0),
        'npm run generate, cold: ms per round': perRound(cold),
        'npm run generate, warm: ms per round': perRound(warm),
        'openapi-typescript: ms per round': perRound(theirs),
        'ratio cold generate / openapi-typescript (median of round ratios)': round(coldRatio, 3),
        'ratio warm generate / openapi-typescript (median of round ratios)': round(warmRatio, 3),
      },
      goals: [
        {
          goal: `cold npm run generate (no .build/, no output; all releases) ≤ ${GOAL_COLD} × openapi-typescript (one release), median of round ratios (got ${round(coldRatio, 3)}×)`,
          met: coldRatio <= GOAL_COLD,
        },
        {
          goal: `warm npm run generate (nothing changed; all releases) ≤ ${GOAL_WARM} × openapi-typescript (one release), median of round ratios (got ${round(warmRatio, 3)}×)`,
          met: warmRatio <= GOAL_WARM,
        },
      ],
    };
  } finally {
    rmSync(outParent, { recursive: true, force: true });
    rmSync(oracleParent, { recursive: true, force: true });
  }
}
