import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importedPackages, listPackageFolders, packageSources } from '../../../generator/fs/package-folders.js';
import { PROJECT_ROOT } from '../../helpers/project.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lease-package-folders-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function write(path: string, text: string): void {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), text);
}

describe('listPackageFolders', () => {
  it('lists the folders with a package.json skeleton, by name, and nothing else', () => {
    write('b-pkg/package.json.hbs', '{}');
    write('a-pkg/package.json.hbs', '{}');
    write('no-skeleton/README.md.hbs', '');
    write('package-tsconfig.json', '{}');
    expect(listPackageFolders(dir).map((folder) => folder.name)).toEqual(['a-pkg', 'b-pkg']);
  });

  it("finds this project's three packages", () => {
    expect(listPackageFolders(join(PROJECT_ROOT, 'templates')).map((folder) => folder.name)).toEqual([
      'k8s-lease-api-server',
      'k8s-lease-client',
      'k8s-lease-client-node',
    ]);
  });
});

describe('packageSources', () => {
  it('keys src/ files by their path below src/, each with a header naming its source; tests stay behind', () => {
    write('pkg/package.json.hbs', '{}');
    write('pkg/src/index.ts', "export * from './a/b.js';\n");
    write('pkg/src/a/b.ts', 'export const b = 1;\n');
    write('pkg/src/a/b.test.ts', 'nope\n');
    write('pkg/src/notes.md', 'nope\n');
    const sources = packageSources({ name: 'pkg', dir: join(dir, 'pkg') });
    expect([...sources.keys()]).toEqual(['a/b.ts', 'index.ts']);
    expect(sources.get('a/b.ts')).toBe(
      '// Copied by lease-api-generator from templates/pkg/src/a/b.ts. DO NOT EDIT: edit that file and run `npm run generate`.\nexport const b = 1;\n',
    );
  });

  it('keeps a shebang the first line', () => {
    write('pkg/src/bin.ts', '#!/usr/bin/env node\nconsole.log(1);\n');
    const text = packageSources({ name: 'pkg', dir: join(dir, 'pkg') }).get('bin.ts') ?? '';
    expect(text.split('\n').slice(0, 2)).toEqual([
      '#!/usr/bin/env node',
      '// Copied by lease-api-generator from templates/pkg/src/bin.ts. DO NOT EDIT: edit that file and run `npm run generate`.',
    ]);
  });
});

describe('importedPackages', () => {
  it('names the npm packages imported statically, dynamically or for effect, scoped and by subpath', () => {
    const sources = new Map([
      ['a.ts', "import { parse } from 'yaml';\nimport type { X } from '@peculiar/x509';\n"],
      ['b.ts', "await import('reflect-metadata');\nimport 'side-effect';\nimport pb from 'protobufjs/minimal.js';\n"],
    ]);
    expect(importedPackages(sources, new Set())).toEqual([
      '@peculiar/x509',
      'protobufjs',
      'reflect-metadata',
      'side-effect',
      'yaml',
    ]);
  });

  it("leaves out relative imports, Node's built-ins, excluded packages, and imports in comments or JSDoc examples", () => {
    const sources = new Map([
      [
        'a.ts',
        [
          "import { readFile } from 'node:fs/promises';",
          "import { x } from './x.js';",
          "import type { Lease } from 'k8s-lease-client';",
          '/**',
          ' * @example',
          " * import { startLeaseApiServer } from 'k8s-lease-api-server';",
          ' */',
          "// import { y } from 'commented-out';",
        ].join('\n'),
      ],
    ]);
    expect(importedPackages(sources, new Set(['k8s-lease-client']))).toEqual([]);
  });

  it('finds a package import in any of its spellings among files that import only siblings and Node', () => {
    const siblingsOnly = "import { a } from './a.js';\nimport { readFile } from 'node:fs';\nexport * from '../b.js';\n";
    const spellings: ReadonlyArray<[string, string]> = [
      ['export-from', "export { x } from\n  'exported';\n"],
      ['require', "import fs = require('required');\n"],
      ['dynamic with spaces', "const m = await import (  'dynamic');\n"],
      ['side effect', 'import "effect";\n'],
      ['type-only', "type T = typeof import('typed');\n"],
      ['dynamic after a comment', "await import(/* webpackIgnore: true */ 'commented');\n"],
      ['export-from after a comment', "export * from // the rest\n  'commented';\n"],
    ];
    for (const [name, text] of spellings) {
      const sources = new Map([
        ['siblings.ts', siblingsOnly],
        [`${name}.ts`, siblingsOnly + text],
      ]);
      expect(importedPackages(sources, new Set()), name).toHaveLength(1);
    }
    expect(importedPackages(new Map([['s.ts', siblingsOnly]]), new Set())).toEqual([]);
  });

  it('gives the server package exactly what its package.json depends on besides the client', () => {
    const server = listPackageFolders(join(PROJECT_ROOT, 'templates')).find((f) => f.name === 'k8s-lease-api-server');
    expect(server).toBeDefined();
    expect(importedPackages(packageSources(server!), new Set(['k8s-lease-client']))).toEqual([
      '@peculiar/x509',
      'protobufjs',
      're2js',
      'reflect-metadata',
      'yaml',
    ]);
  });
});
