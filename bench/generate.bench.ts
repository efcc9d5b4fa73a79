import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordGoals } from './goal.js';
import { goalsOf } from './goals.js';
import { environment, median, round, timeCommand, type BenchContext, type BenchResult } from './harness.js';

/**
 * `npm run generate` (every release, whole process, as maintainers run it)
 * against openapi-typescript generating types alone for one release, both
 * measured in this run, alternated (the order flipped every other pair), so
 * that the ratio of each pair sees the same load on the machine. Goal: the
 * median of the pair ratios ≤ 1.0.
 */
export async function benchGenerate(context: BenchContext): Promise<BenchResult> {
  const pairs = context.quick ? 3 : 9;
  const outParent = mkdtempSync(join(tmpdir(), 'bench-gen-'));
  const oracleParent = mkdtempSync(join(tmpdir(), 'bench-oats-'));
  const out = join(outParent, 'generated');
  const oracleOut = join(oracleParent, 'types.ts');
  const runOurs = (): number => timeCommand('npm', ['run', '-s', 'generate', '--', '--out', out]);
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
    // One untimed run each: the first generation after a source change rebuilds the launcher's bundle and caches.
    runOurs();
    runTheirs();
    const ours: number[] = [];
    const theirs: number[] = [];
    for (let i = 0; i < pairs; i++) {
      if (i % 2 === 0) {
        ours.push(runOurs());
        theirs.push(runTheirs());
      } else {
        theirs.push(runTheirs());
        ours.push(runOurs());
      }
    }
    const ratios = ours.map((value, i) => value / theirs[i]!);
    const pairRatio = median(ratios);
    const generateMs = median(ours);
    const openapiTypescriptMs = median(theirs);
    const figures = {
      pairs,
      'npm run generate, all releases: median ms': round(generateMs, 0),
      'openapi-typescript, types for one release: median ms': round(openapiTypescriptMs, 0),
      'npm run generate: ms per pair': ours.map((v) => round(v, 0)).join(', '),
      'openapi-typescript: ms per pair': theirs.map((v) => round(v, 0)).join(', '),
      'ratio generate / openapi-typescript (median of pair ratios)': round(pairRatio, 3),
      'ratio generate / openapi-typescript (ratio of medians)': round(generateMs / openapiTypescriptMs, 3),
    };
    return {
      name: 'generate',
      command: 'npm run bench -- generate',
      environment: environment(),
      figures,
      goals: recordGoals(goalsOf('generate'), figures, {}),
    };
  } finally {
    rmSync(outParent, { recursive: true, force: true });
    rmSync(oracleParent, { recursive: true, force: true });
  }
}
