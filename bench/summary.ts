import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../generator/config.js';

interface RecordedResult {
  name: string;
  command: string;
  environment: string;
  measuredAt: string;
  goals: Array<{ goal: string; met: boolean }>;
  figures: Record<string, number | string>;
}

/** Keys worth a line in the summary: ratios, medians, sizes and counts, not per-round detail. */
function isHeadline(key: string): boolean {
  return /ratio|median|gzip|goal|received|slope bytes per 100k|peak RSS/i.test(key) && !/per round/i.test(key);
}

/**
 * bench/results/SUMMARY.md, rewritten after every full run from the recorded
 * JSON, so the figures quoted next to each command are the ones that command
 * produced.
 */
export function writeSummary(): string {
  const dir = join(PROJECT_ROOT, 'bench', 'results');
  const results = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as RecordedResult);
  const lines = ['# Recorded benchmark figures', '', 'Written by `npm run bench` from `bench/results/*.json`; see bench/README.md for what each benchmark measures.', ''];
  for (const r of results) {
    lines.push(`## ${r.name}`, '', `Command: \`${r.command}\` — ${r.environment}, measured ${r.measuredAt}.`, '');
    lines.push('| goal | met |', '|---|---|', ...r.goals.map((g) => `| ${g.goal} | ${g.met ? 'yes' : '**no**'} |`), '');
    lines.push('| figure | value |', '|---|---|', ...Object.entries(r.figures).filter(([k]) => isHeadline(k)).map(([k, v]) => `| ${k} | ${v} |`), '');
  }
  const file = join(dir, 'SUMMARY.md');
  writeFileSync(file, lines.join('\n'));
  return file;
}
