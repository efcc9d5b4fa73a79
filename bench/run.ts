import { benchBundleSize } from './bundle-size/bundle-size.bench.js';
import { benchCli } from './cli/cli.bench.js';
import { benchCandidateFlood } from './candidate-flood/candidate-flood.bench.js';
import { benchGenerate } from './generate/generate.bench.js';
import { benchHostileBody } from './hostile-body/hostile-body.bench.js';
import { benchInformerScale } from './informer-scale/informer-scale.bench.js';
import { benchLeaderElection } from './leader-election/leader-election.bench.js';
import { benchParseFairness } from './parse-fairness/parse-fairness.bench.js';
import { benchPackageSize } from './package-size/package-size.bench.js';
import { benchReads } from './reads/reads.bench.js';
import { benchServerScale } from './server-scale/server-scale.bench.js';
import { benchSlowWatcher } from './slow-watcher/slow-watcher.bench.js';
import { benchTlsReads } from './tls-reads/tls-reads.bench.js';
import { benchWatch } from './watch/watch.bench.js';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../generator/config.js';
import { describeFailures, writeChart, writeResult, type BenchContext, type BenchResult } from './lib/harness.js';
import { writeSummary } from './lib/summary.js';

/**
 * `npm run bench [-- name…] [--quick]`: runs benchmarks, prints their figures
 * and goals, and records them in bench/results/ (quick runs, as in CI, go to
 * .tmp/bench/ so they never overwrite the recorded figures).
 * `npm run bench -- --charts-only` (or `--charts`) measures nothing: it redraws
 * every bench/results/<name>.svg and SUMMARY.md from the recorded JSON.
 */
const BENCHMARKS: Record<string, (context: BenchContext) => Promise<BenchResult>> = {
  generate: benchGenerate,
  reads: benchReads,
  'bundle-size': benchBundleSize,
  'package-size': benchPackageSize,
  watch: benchWatch,
  'slow-watcher': benchSlowWatcher,
  'tls-reads': benchTlsReads,
  'leader-election': benchLeaderElection,
  'informer-scale': benchInformerScale,
  'candidate-flood': benchCandidateFlood,
  'hostile-body': benchHostileBody,
  'parse-fairness': benchParseFairness,
  'server-scale': benchServerScale,
  cli: benchCli,
};

const args = process.argv.slice(2);
const quick = args.includes('--quick');
if (args.includes('--charts') || args.includes('--charts-only')) {
  // Redraws every recorded picture and SUMMARY.md from bench/results/*.json, measuring nothing.
  const dir = join(PROJECT_ROOT, 'bench', 'results');
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const recorded = JSON.parse(readFileSync(join(dir, file), 'utf8')) as BenchResult & {
      measuredAt: string;
      quick: boolean;
    };
    writeChart(dir, recorded);
  }
  console.log(`summary: ${writeSummary()}`);
  process.exit(0);
}
const selected = args.filter((a) => !a.startsWith('--'));
const names = selected.length > 0 ? selected : Object.keys(BENCHMARKS);
let failed = 0;
for (const name of names) {
  const bench = BENCHMARKS[name];
  if (bench === undefined) {
    console.error(`unknown benchmark ${name} (known: ${Object.keys(BENCHMARKS).join(', ')})`);
    process.exitCode = 2;
    continue;
  }
  try {
    const result = await bench({ quick });
    const file = writeResult(result, quick);
    console.log(`\n# ${result.name} (${result.environment})${quick ? ' [quick]' : ''}`);
    for (const [key, value] of Object.entries(result.figures)) console.log(`  ${key}: ${value}`);
    for (const goal of result.goals) console.log(`  goal ${goal.met ? 'met' : 'NOT met'}: ${goal.goal}`);
    if (result.failed !== undefined && result.failed.length > 0)
      console.log(`  FAILED: ${describeFailures(result.failed)}`);
    console.log(`  recorded in ${file}; reproduce with: ${result.command}`);
  } catch (error) {
    failed++;
    console.error(`benchmark ${name} failed: ${error instanceof Error ? error.stack : String(error)}`);
  }
}
if (!quick) console.log(`\nsummary: ${writeSummary()}`);
if (failed > 0) process.exitCode = 1;
