import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { filesBelow } from '../helpers/files-below.js';
import { PROJECT_ROOT } from '../helpers/project.js';

/**
 * Tests and benchmarks run on any clone: they read nothing beside or outside the repository (a maintainer's
 * mirror of upstream documents lives next to it on some machines; tests use test/fixtures/upstream instead).
 */
const OUTSIDE_PATHS: readonly RegExp[] = [
  /\.\.\/shared\b/,
  /shared\/specs/,
  // path.join spelling of the same places
  /['"`]\.\.['"`]\s*,\s*['"`]shared['"`]/,
  /['"`]shared['"`]\s*,\s*['"`]specs['"`]/,
  // an absolute /work/ path; "host/work/" in a URL or "dir/work/" in a relative path is not one
  /(?<![\w.-])\/work\//,
];

const SELF = fileURLToPath(import.meta.url);

function outsidePathLines(text: string): string[] {
  return text.split('\n').filter((line) => OUTSIDE_PATHS.some((pattern) => pattern.test(line)));
}

// node_modules and .build/ (built bench children, which name absolute paths of this machine) are not committed.
const NOT_COMMITTED = new Set(['node_modules', '.build']);

describe('tests and benchmarks read nothing outside the repository', () => {
  it.each([
    ["join(PROJECT_ROOT, '..', 'shared', 'specs')", true],
    ["readFileSync('../shared/specs/README.md')", true],
    ["const SNAPSHOT = '/work/shared/x.json';", true],
    ['spawn("node", ["/work/main/cli.js"])', true],
    ['new URL("file:///work/main/x.json")', true],
    ['finalizers is a shared field, any actor with permission can reorder it', false],
    ['https://git.k8s.io/community/work/x', false],
    ["new URL('../fixtures/upstream/kubernetes/v1.35.0/swagger.json', import.meta.url)", false],
  ] as const)('the check flags %j: %s', (line, flagged) => {
    expect(outsidePathLines(line).length > 0).toBe(flagged);
  });

  it('no file under test/ or bench/ names a path beside or outside the repository', () => {
    const files = ['test', 'bench']
      .flatMap((dir) => filesBelow(join(PROJECT_ROOT, dir), NOT_COMMITTED))
      .filter((file) => file !== SELF);
    // Not vacuous: the walk reaches the tests, the benchmarks and the committed upstream fixtures.
    expect(files).toEqual(
      expect.arrayContaining([
        join(PROJECT_ROOT, 'test', 'helpers', 'project.ts'),
        join(PROJECT_ROOT, 'bench', 'run.ts'),
        join(PROJECT_ROOT, 'test', 'fixtures', 'upstream', 'kubernetes', 'v1.35.0', 'swagger.json'),
      ]),
    );
    const findings = files.flatMap((file) => {
      const bytes = readFileSync(file);
      if (bytes.includes(0)) return [];
      return outsidePathLines(bytes.toString('utf8')).map((line) => `${relative(PROJECT_ROOT, file)}: ${line.trim()}`);
    });
    expect(findings).toEqual([]);
  });
});
