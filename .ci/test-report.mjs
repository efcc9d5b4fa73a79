// Reads vitest's JSON reports for .ci/run. CI keeps only the tail of its log, so every failure is named
// here, beside the final count.
//
//   node .ci/test-report.mjs failed-files <report>
//     the test files with a failed test or a suite that failed to run, one per line
//   node .ci/test-report.mjs summary <report> [<rerun report>] <extra failures>
//     a line per failed and per flaky test, then "N passed, N failed, N skipped";
//     exits 1 when a test failed in both runs (or in the only run)
//
// A test that failed and then passed when its file ran again is FLAKY: it is counted as passed and named,
// as gotestsum --rerun-fails reports a Go test that passes on its rerun. Only the files that had a
// failure run again, once.
import { readFileSync } from 'node:fs';

const [command, ...args] = process.argv.slice(2);
const root = `${process.cwd()}/`;

function read(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

function relative(file) {
  return file.startsWith(root) ? file.slice(root.length) : file;
}

/** A suite with no test results failed before its tests ran (an import or a hook). */
function failedToRun(suite) {
  return suite.status === 'failed' && suite.assertionResults.length === 0;
}

function firstLines(text, lines) {
  return String(text ?? '')
    .split('\n')
    .slice(0, lines)
    .join('\n  ')
    .slice(0, 600);
}

if (command === 'failed-files') {
  const report = read(args[0]);
  for (const suite of report.testResults) {
    if (failedToRun(suite) || suite.assertionResults.some((a) => a.status === 'failed')) {
      console.log(relative(suite.name));
    }
  }
} else if (command === 'summary') {
  const report = read(args[0]);
  const rerun = args.length > 2 ? read(args[1]) : undefined;
  const extra = Number(args.at(-1));
  const rerunSuites = new Map((rerun?.testResults ?? []).map((s) => [relative(s.name), s]));

  let passed = report.numPassedTests;
  let failed = extra;
  for (const suite of report.testResults) {
    const file = relative(suite.name);
    const again = rerunSuites.get(file);
    if (failedToRun(suite)) {
      if (again !== undefined && !failedToRun(again) && again.assertionResults.every((a) => a.status !== 'failed')) {
        const count = again.assertionResults.filter((a) => a.status === 'passed').length;
        passed += count;
        console.log(`\nFLAKY suite ${file}: failed to run, then its ${count} tests passed when it ran again`);
        console.log(`  ${firstLines(suite.message, 1)}`);
      } else {
        failed += 1;
        console.log(`\nFAILED suite ${file}: ${firstLines(suite.message, 1)}`);
      }
      continue;
    }
    for (const test of suite.assertionResults) {
      if (test.status !== 'failed') continue;
      const retried = again?.assertionResults.find((a) => a.fullName === test.fullName);
      const message = firstLines((test.failureMessages ?? [])[0], 3);
      if (retried?.status === 'passed') {
        passed += 1;
        console.log(`\nFLAKY ${file} > ${test.fullName}: failed, then passed when its file ran again`);
      } else {
        failed += 1;
        console.log(`\nFAILED ${file} > ${test.fullName}`);
      }
      console.log(`  ${message}`);
    }
  }
  console.log(`\n${passed} passed, ${failed} failed, ${report.numPendingTests + report.numTodoTests} skipped`);
  process.exitCode = failed - extra > 0 ? 1 : 0;
} else {
  console.error(`usage: node .ci/test-report.mjs failed-files <report> | summary <report> [<rerun report>] <extra>`);
  process.exitCode = 2;
}
