/**
 * Every import in every emitted module is used: the import tracker writes imports from what the emitters
 * referenced, so no module of any release imports a name it never mentions (which a user's linter, or a
 * tsconfig with noUnusedLocals that includes the sources, would report).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitRelease } from '../../../generator/emit/emit-release.js';
import { manifestReleases, releaseIr } from '../../helpers/project.js';
import {
  diagnosticPath,
  makeTempDir,
  removeTempDir,
  runtimeSources,
  STRICT_OPTIONS,
  typeCheck,
  writeTree,
  type CheckResult,
} from '../../helpers/type-check.js';

/** A module importing one name it never uses, to show the check below notices one. */
const CONTROL = 'control/unused.ts';
const CONTROL_TEXT = [
  "import type { Lease } from '../v1_35/models.js';",
  "import type { Client } from '../runtime/transport.js';",
  '',
  'export type Leases = Lease[];',
  '',
].join('\n');

describe('imports of emitted modules', () => {
  let root: string | undefined;
  let emitted: string[] = [];
  let check: CheckResult;

  beforeAll(() => {
    const files = new Map<string, string>();
    for (const { release, document, contentHash } of manifestReleases()) {
      for (const [path, text] of emitRelease({ ir: releaseIr(release), documentPath: document, contentHash }))
        files.set(`src/${path}`, text);
    }
    emitted = [...files.keys()].sort();
    for (const [path, text] of runtimeSources()) files.set(`src/${path}`, text);
    files.set(`src/${CONTROL}`, CONTROL_TEXT);
    root = makeTempDir('lease-imports-used-');
    const written = writeTree(root, files);
    check = typeCheck(
      root,
      written.filter((file) => !file.includes(join('src', 'runtime'))),
      { ...STRICT_OPTIONS, noUnusedLocals: true },
    );
  }, 120_000);

  afterAll(() => removeTempDir(root));

  it('covers every release, each with models, paths, operations and watches', () => {
    for (const { release } of manifestReleases()) {
      const dir = `src/v${release.split('.').slice(0, 2).join('_')}`;
      for (const module of ['models', 'paths', 'operations', 'watches'])
        expect(emitted, `${dir}/${module}.ts`).toContain(`${dir}/${module}.ts`);
    }
    // 1.31 and later emit coordination.k8s.io's other versions one folder deeper, with imports of their own.
    expect(
      emitted.filter((path) => /^src\/v\d+_\d+\/v1(alpha|beta)\d+\/operations\.ts$/.test(path)).length,
    ).toBeGreaterThan(0);
  });

  it('reports no unused import (nor any other error) in any emitted module', () => {
    const inEmitted = check.diagnostics.filter((d) => {
      const path = diagnosticPath(root ?? '', d);
      return path !== undefined && emitted.includes(path);
    });
    expect(inEmitted.map((d) => check.messages[check.diagnostics.indexOf(d)])).toEqual([]);
  });

  it('would notice an unused import: the control module is reported, naming the name', () => {
    const control = check.messages.filter((m) => m.startsWith(`src/${CONTROL}`));
    expect(control).toEqual([`src/${CONTROL}:2:1 - TS6133: 'Client' is declared but its value is never read.`]);
  });
});
