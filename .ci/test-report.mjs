// Reads vitest's JSON reports for .ci/run. CI keeps only the tail of its log, so every failure is named
// here, beside the final count.
//
//   node .ci/test-report.mjs failed-files <report>
//     the test files with a failed test or a suite that failed to run, one per line
//   TESTS_EXIT=<vitest's exit status> TESTS_LOG=<its output> node .ci/test-report.mjs summary <report> [<rerun report>] <extra failures>
//     a line per failed and per flaky test, then "N passed, N failed, N skipped";
//     exits 1 when a test failed in both runs (or in the only run), or vitest failed outside its tests
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

/**
 * A file that failed with no failed test: an import error (no results at all) or a hook (a failing beforeAll
 * leaves its tests skipped, a failing afterAll leaves them passed).
 */
function failedToRun(suite) {
  return suite.status === 'failed' && !suite.assertionResults.some((a) => a.status === 'failed');
}

/** Each test with the number of earlier tests of the same name in its file, so `it.each` twins stay apart. */
function keyed(tests) {
  const seen = new Map();
  return tests.map((test) => {
    const n = seen.get(test.fullName) ?? 0;
    seen.set(test.fullName, n + 1);
    return [`${n}\u0000${test.fullName}`, test];
  });
}

function firstLines(text, lines) {
  return String(text ?? '')
    .split('\n')
    .slice(0, lines)
    .join('\n  ')
    .slice(0, 600);
}

/**
 * The section of vitest's log that names errors outside any test ("Unhandled Errors", "Type Errors"), cut to
 * 40 lines: CI keeps only the tail of its log, where the tests step's output is long gone.
 */
function errorsOutsideTests(logPath) {
  if (logPath === undefined || logPath === '') return '';
  let lines;
  try {
    // Colours and the cursor codes of the default reporter make the log hard to read in a summary.
    lines = readFileSync(logPath, 'utf8')
      .replace(/\u001b\[[0-9;]*[A-Za-z]/g, '')
      .split('\n');
  } catch {
    return '';
  }
  const start = lines.findIndex((line) => /Unhandled (Errors?|Rejection)|Type Errors|Failed Suites/.test(line));
  if (start === -1) return '';
  return lines
    .slice(start, start + 40)
    .join('\n  ')
    .slice(0, 4000);
}

if (command === 'failed-files') {
  const report = read(args[0]);
  for (const suite of report.testResults) {
    if (suite.status === 'failed' || suite.assertionResults.some((a) => a.status === 'failed')) {
      console.log(relative(suite.name));
    }
  }
} else if (command === 'summary') {
  const report = read(args[0]);
  const rerun = args.length > 2 ? read(args[1]) : undefined;
  const extra = Number(args.at(-1));
  const rerunSuites = new Map((rerun?.testResults ?? []).map((s) => [relative(s.name), s]));

  let passed = report.numPassedTests;
  let skipped = report.numPendingTests + report.numTodoTests;
  let failed = extra;
  for (const suite of report.testResults) {
    const file = relative(suite.name);
    const again = rerunSuites.get(file);
    if (failedToRun(suite)) {
      if (again?.status === 'passed') {
        const before = suite.assertionResults.filter((a) => a.status === 'passed').length;
        const count = again.assertionResults.filter((a) => a.status === 'passed').length;
        passed += count - before;
        // The tests a failed beforeAll skipped ran on the rerun.
        skipped -= suite.assertionResults.filter((a) => a.status === 'skipped' || a.status === 'pending').length;
        console.log(
          `\nFLAKY suite ${file}: failed outside its tests, then its ${count} tests passed when it ran again`,
        );
        console.log(`  ${firstLines(suite.message, 1)}`);
      } else {
        failed += 1;
        console.log(`\nFAILED suite ${file}: ${firstLines(suite.message, 1)}`);
      }
      continue;
    }
    const retries = new Map(keyed(again?.assertionResults ?? []));
    for (const [key, test] of keyed(suite.assertionResults)) {
      if (test.status !== 'failed') continue;
      const retried = retries.get(key);
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
  // vitest exited non-zero (TESTS_EXIT, set by .ci/run) though its report names no failure: an unhandled error
  // or a type error outside any test, which the JSON report leaves out. It still counts.
  const testsExit = Number(process.env.TESTS_EXIT ?? '0');
  if (testsExit !== 0 && failed === extra) {
    failed += 1;
    console.log(
      `\nFAILED: vitest exited ${testsExit} with no failed test in its report (an unhandled error? see the tests step's log)`,
    );
    const excerpt = errorsOutsideTests(process.env.TESTS_LOG);
    if (excerpt !== '') console.log(`  what vitest printed about it:\n  ${excerpt}`);
  }
  console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
  process.exitCode = failed - extra > 0 ? 1 : 0;
} else {
  console.error(`usage: node .ci/test-report.mjs failed-files <report> | summary <report> [<rerun report>] <extra>`);
  process.exitCode = 2;
}
