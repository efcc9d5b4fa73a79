// Tests mirror the code, so a module's test is found by its path (CONTRIBUTING.md, "Conventions"):
// templates/<package>/src/<path>.ts → test/<package>/<path>.test.ts, generator/<stage>/<name>.ts →
// test/generator/<stage>/<name>.test.ts. This checks the folders; the file names inside are the authors' care.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listPackageFolders } from '../../generator/fs/package-folders.js';
import { filesBelow } from '../helpers/files-below.js';
import { PROJECT_ROOT } from '../helpers/project.js';

const TEST_DIR = join(PROJECT_ROOT, 'test');
const PACKAGES = listPackageFolders(join(PROJECT_ROOT, 'templates')).map((folder) => folder.name);

/** test/'s own folders that mirror no code: what each holds is in its name. */
const CROSS_CUTTING = new Set([
  'generator', // mirrors generator/, checked below
  'interop', // real clients against our packages: kubectl, the official Python client, client-node
  'engines', // the JavaScript-engine matrix: Node versions, Deno, Bun, Chromium
  'package', // the packed tarballs as a user installs them
  'docs', // the API reference and JSDoc coverage
  'repository', // the repository's own rules, like this one
  'bench', // the benchmarks' own code, mirroring bench/ (checked below)
  'helpers', // shared test code
  'golden', // golden IR tables (data)
  'fixtures', // upstream documents and other inputs (data)
]);

/** Folders inside a package's or a stage's tests that hold support code or data rather than mirror a module folder. */
const SUPPORT = new Set(['helpers', 'conformance', 'cases', 'types', 'fixtures']);

function folders(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'node_modules' && entry.name !== 'results')
    .map((entry) => entry.name);
}

/** Every folder below `testDir` (relative to it) that must exist below `codeDir` as well. */
function unmirrored(testDir: string, codeDir: string): string[] {
  const missing: string[] = [];
  const walk = (rel: string): void => {
    for (const name of folders(join(testDir, rel))) {
      if (SUPPORT.has(name)) continue;
      const child = rel === '' ? name : `${rel}/${name}`;
      const code = join(codeDir, child);
      if (!existsSync(code) || !statSync(code).isDirectory())
        missing.push(`${relative(PROJECT_ROOT, join(testDir, child))} (no ${relative(PROJECT_ROOT, code)})`);
      else walk(child);
    }
  };
  walk('');
  return missing;
}

function testFiles(dir: string): string[] {
  return filesBelow(dir, new Set(['node_modules']))
    .filter((path) => /\.test(-d)?\.ts$/.test(path))
    .map((path) => relative(PROJECT_ROOT, path));
}

describe('test/ mirrors the code', () => {
  it('holds one folder per shipped package, per generator stage folder, and the named cross-cutting ones', () => {
    const unknown = folders(TEST_DIR).filter((name) => !PACKAGES.includes(name) && !CROSS_CUTTING.has(name));
    expect(unknown).toEqual([]);
    expect(PACKAGES).toEqual(['k8s-lease-api-server', 'k8s-lease-client', 'k8s-lease-client-node']);
  });

  it.each(PACKAGES)('test/%s/ has only folders that templates/<package>/src/ has', (name) => {
    expect(unmirrored(join(TEST_DIR, name), join(PROJECT_ROOT, 'templates', name, 'src'))).toEqual([]);
  });

  it('test/generator/ has only folders that generator/ has', () => {
    expect(unmirrored(join(TEST_DIR, 'generator'), join(PROJECT_ROOT, 'generator'))).toEqual([]);
  });

  it('test/bench/ has only folders that bench/ has', () => {
    expect(unmirrored(join(TEST_DIR, 'bench'), join(PROJECT_ROOT, 'bench'))).toEqual([]);
  });

  it('no test is named after a work item, by its file name or by a describe or it title', () => {
    const workItem = /\b(issue|task|ticket)[-_ ]?#?\d+/i;
    const files = testFiles(TEST_DIR);
    expect(files.filter((file) => workItem.test(file))).toEqual([]);
    const titles = files.flatMap((file) =>
      [
        ...readFileSync(join(PROJECT_ROOT, file), 'utf8').matchAll(
          /\b(?:describe|it|test)(?:\.\w+)*\(\s*(['"`])(.*?)\1/g,
        ),
      ]
        .map((match) => match[2] ?? '')
        .filter((title) => workItem.test(title))
        .map((title) => `${file}: ${title}`),
    );
    expect(titles).toEqual([]);
  });

  it('finds the folders it checks (the check can fail)', () => {
    expect(unmirrored(join(TEST_DIR, 'k8s-lease-client'), join(PROJECT_ROOT, 'generator'))).toContain(
      'test/k8s-lease-client/runtime (no generator/runtime)',
    );
  });
});
