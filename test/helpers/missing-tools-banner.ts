// vitest globalSetup: gives the run a file in which needs-tool.ts records every suite skipped for a missing tool,
// and prints the banner listing them once the run is over (after vitest's own summary).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import type { MissingToolRecord } from './external-tools.js';
import { missingToolsBanner } from './external-tools.js';
import { PROJECT_ROOT } from './project.js';

export default function setup(project: TestProject): () => void {
  const dir = join(PROJECT_ROOT, '.tmp', 'missing-tools');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${process.pid}.jsonl`);
  writeFileSync(file, '');
  project.provide('missingToolsFile', file);
  return () => {
    const records = readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as MissingToolRecord);
    rmSync(file, { force: true });
    const banner = missingToolsBanner(records);
    if (banner !== '') process.stdout.write(`${banner}\n`);
  };
}
