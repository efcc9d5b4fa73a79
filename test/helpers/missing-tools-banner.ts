// The end-of-run banner of suites skipped for a missing tool (external-tools.ts). The globalSetup gives the run a
// file in which needs-tool.ts records each such suite from the workers; the reporter, after vitest's own summary,
// prints the banner and one plain closing line `N passed, N failed, N skipped`. Both run in vitest's main process,
// so the file is named by its pid.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Reporter, TestModule, TestProject } from 'vitest/node';
import type { MissingToolRecord } from './external-tools.js';
import { checkToolVariables, missingToolsBanner } from './external-tools.js';
import { PROJECT_ROOT } from './project.js';

const recordsFile = (): string => join(PROJECT_ROOT, '.tmp', 'missing-tools', `${process.pid}.jsonl`);

export default function setup(project: TestProject): () => void {
  // A variable naming no usable program is the user's mistake, told once in one line before anything runs.
  const bad = checkToolVariables();
  if (bad !== undefined) {
    process.stderr.write(`npm test: ${bad.message}\n`);
    process.exit(2);
  }
  const file = recordsFile();
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, '');
  project.provide('missingToolsFile', file);
  return () => rmSync(file, { force: true });
}

function readRecords(): MissingToolRecord[] {
  const file = recordsFile();
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as MissingToolRecord);
}

/**
 * Added after the run's other reporters by a plugin in vitest.config.ts, so a `--reporter` on the command line keeps
 * it. It counts at onTestRunEnd and prints at onFinished, where the default reporter prints its summary: reporters
 * are called in order, so this comes last.
 */
export class MissingToolsReporter implements Reporter {
  private count = { passed: 0, failed: 0, skipped: 0 };

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    const count = { passed: 0, failed: unhandledErrors.length, skipped: 0 };
    for (const module of modules) {
      let failedTests = 0;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') count.passed++;
        else if (state === 'failed') failedTests++;
        else count.skipped++;
      }
      count.failed += failedTests;
      // A file that failed with no failed test (an import that threw, a beforeAll or afterAll hook that failed)
      // counts as one failure, so the line never says 0 failed when vitest fails the run.
      if (failedTests === 0 && module.state() === 'failed') count.failed++;
    }
    this.count = count;
  }

  onFinished(): void {
    const { passed, failed, skipped } = this.count;
    process.stdout.write(
      `${missingToolsBanner(readRecords())}\n${passed} passed, ${failed} failed, ${skipped} skipped\n`,
    );
  }
}
