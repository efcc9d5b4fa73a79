import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../generator/config.js';
import { describeFailures } from './harness.js';

interface RecordedResult {
  name: string;
  command: string;
  environment: string;
  measuredAt: string;
  goals: Array<{ goal: string; met: boolean }>;
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
 * JSON and SVG files: the pictures first, then one compact row per goal, so
 * the figures quoted next to each command are the ones that command produced.
 */
export function writeSummary(): string {
  const dir = join(PROJECT_ROOT, 'bench', 'results');
  const files = new Set(readdirSync(dir));
  const results = [...files]
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as RecordedResult)
    .sort((a, b) => rank(a.name) - rank(b.name) || (a.name < b.name ? -1 : 1));
  const lines = [
    '# Recorded benchmark figures',
    '',
    'Written by `npm run bench` from `bench/results/*.json` and `*.svg`; see bench/README.md for what each benchmark measures. Blue bars are this project, the dashed red line is the goal.',
    '',
  ];
  for (const r of results) {
    if (files.has(`${r.name}.svg`)) lines.push(`![${r.name}](${r.name}.svg)`, '');
  }
  lines.push('| benchmark | goals met | not met | command | measured |', '|---|---|---|---|---|');
  for (const r of results) {
    const missed = [
      ...(r.failed ?? []).map((f) => cell(`FAILED: ${describeFailures([f])}`)),
      ...r.goals.filter((g) => !g.met).map((g) => cell(g.goal)),
    ];
    const met = r.goals.filter((g) => g.met).length;
    lines.push(
      `| [${r.name}](${r.name}.json) | ${met} of ${r.goals.length} | ${missed.length === 0 ? '—' : missed.join('; ')} | \`${r.command}\` | ${r.measuredAt.slice(0, 10)}, ${cell(r.environment)} |`,
    );
  }
  lines.push('');
  const file = join(dir, 'SUMMARY.md');
  writeFileSync(file, lines.join('\n'));
  return file;
}
