// Every public export of the three shipped packages, and every public member of their exported types, carries a
// JSDoc summary: what an editor shows on hover and what the API reference in docs/api/ is generated from.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../helpers/project.js';
import type { DocCoverage } from './public-api-docs.js';
import { docCoverage, entryPointsOf } from './public-api-docs.js';

const PACKAGES = ['k8s-lease-client', 'k8s-lease-client-node', 'k8s-lease-api-server'];

describe('JSDoc of the public API', () => {
  // One program for the three packages: the Node package and the server import the client, so most files are shared.
  let coverage: Map<string, DocCoverage>;
  beforeAll(() => {
    coverage = docCoverage(PACKAGES.flatMap((name) => entryPointsOf(join(PROJECT_ROOT, 'generated', name))));
  });

  for (const name of PACKAGES) {
    it(`${name}: every export and every member of an exported type has a summary`, () => {
      const checked = coverage.get(name);
      // Guards against a mapping mistake that would find nothing to check.
      expect(checked?.exports).toBeGreaterThan(10);
      const missing = (checked?.undocumented ?? []).map((u) => `${u.packageName} (${u.subpath}): ${u.name}`);
      expect(missing, `exports without a JSDoc summary:\n${missing.join('\n')}`).toEqual([]);
    });
  }
});

describe('the coverage check itself', () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsdoc-coverage-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('names the package and the export or member that lacks a summary, and follows re-exports', () => {
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'fixture-pkg', exports: { '.': { types: './dist/index.d.ts' } } }),
    );
    writeFileSync(join(dir, 'tsconfig.json'), '{}');
    const src = join(dir, 'src');
    mkdirSync(src);
    writeFileSync(
      join(src, 'impl.ts'),
      [
        '/** Documented where it is declared. */',
        'export function documented(): void {}',
        'export function bare(): void {}',
        '/** @since 1.0 */',
        'export const tagOnly = 1;',
        '/** Options. */',
        'export interface Opts {',
        '  /** Has one. */',
        '  a?: string;',
        '  b?: string;',
        '}',
        '/** An error. */',
        'export class Oops extends Error {',
        "  override readonly name = 'Oops';",
        '  private hidden = 1;',
        '}',
      ].join('\n'),
    );
    writeFileSync(
      join(src, 'index.ts'),
      "export { bare, documented, tagOnly, Oops } from './impl.js';\nexport type { Opts } from './impl.js';\n",
    );
    const coverage = docCoverage(entryPointsOf(dir)).get('fixture-pkg');
    expect(coverage?.undocumented.map((u) => `${u.packageName} (${u.subpath}): ${u.name}`).sort()).toEqual([
      'fixture-pkg (.): Opts.b',
      'fixture-pkg (.): bare',
      'fixture-pkg (.): tagOnly',
    ]);
    expect(coverage).toMatchObject({ exports: 5, documentedExports: 3 });
  });
});
