import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { environment, median, round, timeCommand, type BenchContext, type BenchResult } from './harness.js';

/**
 * `npm run generate` (every release, whole process, as maintainers run it)
 * against openapi-typescript generating types alone for one release, both
 * measured in this run. Goal: ≤ 1.5 s median of 5.
 */
export async function benchGenerate(context: BenchContext): Promise<BenchResult> {
  const runs = context.quick ? 3 : 5;
  const out = join(mkdtempSync(join(tmpdir(), 'bench-gen-')), 'generated');
  const oracleOut = join(mkdtempSync(join(tmpdir(), 'bench-oats-')), 'types.ts');
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let i = 0; i < runs; i++) {
    ours.push(timeCommand('npm', ['run', '-s', 'generate', '--', '--out', out]));
    theirs.push(timeCommand('npx', ['--no-install', 'openapi-typescript', 'spec/openapi/v1.35.0.json', '-o', oracleOut, '--silent']));
  }
  const generateMs = median(ours);
  const openapiTypescriptMs = median(theirs);
  return {
    name: 'generate',
    command: 'npm run bench -- generate',
    environment: environment(),
    figures: {
      runs,
      'npm run generate, all releases, median ms': round(generateMs, 0),
      'openapi-typescript, types for one release, median ms': round(openapiTypescriptMs, 0),
      'ratio (generate / openapi-typescript)': round(generateMs / openapiTypescriptMs),
    },
    goals: [{ goal: 'npm run generate ≤ 1500 ms (median, whole process)', met: generateMs <= 1500 }],
  };
}
