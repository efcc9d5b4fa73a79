import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../generator/config.js';
import { chartOf, judgedGoals } from './charts.js';
import type { RecordedGoal } from './goal.js';
import { describeFailures } from './harness.js';

interface RecordedResult {
  name: string;
  command: string;
  environment: string;
  measuredAt: string;
  goals: RecordedGoal[];
  figures: Record<string, number | string>;
  failed?: Array<{ contender: string; round: number; error: string }>;
}

/** The order pictures appear in: what users compare first. Benchmarks not listed follow alphabetically. */
const ORDER = [
  'reads',
  'watch',
  'informer-scale',
  'generate',
  'bundle-size',
  'tls-reads',
  'leader-election',
  'slow-watcher',
  'package-size',
  'candidate-flood',
  'hostile-body',
  'parse-fairness',
];

function rank(name: string): number {
  const index = ORDER.indexOf(name);
  return index === -1 ? ORDER.length : index;
}

/** A goal's text is free-form: keep a table cell one line and its pipes literal. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s+/g, ' ');
}

/**
 * bench/results/SUMMARY.md, rewritten after every full run from the recorded
 * JSON and SVG files: the pictures first, each with its one-line caption, then
 * one compact row per benchmark. Verdicts are the goals declared in goals.ts
 * judged from the recorded figures, as the charts draw them, so table and
 * picture agree. A contender that failed heads its row's "not measured" cell
 * as FAILED: its figures were dropped, so the goals that need them are unjudged.
 * `dir` is bench/results unless a test points it at a directory of its own.
 */
export function writeSummary(dir = join(PROJECT_ROOT, 'bench', 'results')): string {
  const files = new Set(readdirSync(dir));
  const results = [...files]
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as RecordedResult)
    .sort((a, b) => rank(a.name) - rank(b.name) || (a.name < b.name ? -1 : 1));
  const lines = [
    '# Recorded benchmark figures',
    '',
    'Written by `npm run bench` (or redrawn by `npm run bench -- --charts-only`) from `bench/results/*.json`; see bench/README.md for what each benchmark measures. Blue bars are this project; each goal is a dashed line marked ✓ met, ✗ MISSED or – not measured, and every goal is listed under its chart.',
    '',
  ];
  for (const r of results) {
    const chart = chartOf(r.name, r.figures, r.goals);
    if (chart !== undefined && files.has(`${r.name}.svg`))
      lines.push(`**${r.name}**: ${chart.caption}`, '', `![${r.name}](${r.name}.svg)`, '');
  }
  lines.push('| benchmark | goals met | missed | not measured | command | measured |', '|---|---|---|---|---|---|');
  for (const r of results) {
    const judged = judgedGoals(r.name, r.figures, r.goals);
    const texts = (verdict: string): string[] =>
      judged.filter((j) => j.verdict === verdict).map((j) => cell(j.spec.text));
    const failures = (r.failed ?? []).map((f) => cell(`FAILED: ${describeFailures([f])}`));
    const joined = (items: readonly string[]): string => items.join('; ') || '—';
    const met = judged.filter((j) => j.verdict === 'met').length;
    lines.push(
      `| [${r.name}](${r.name}.json) | ${met} of ${judged.length} | ${joined(texts('missed'))} | ${joined([...failures, ...texts('not measured')])} | \`${r.command}\` | ${r.measuredAt.slice(0, 10)}, ${cell(r.environment)} |`,
    );
  }
  lines.push('');
  const file = join(dir, 'SUMMARY.md');
  writeFileSync(file, lines.join('\n'));
  return file;
}
