import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { annotateSince } from '../../../generator/ir/annotate-since.js';
import { diffReleases } from '../../../generator/diff/diff-releases.js';
import { clientOperations } from '../../../generator/ir/client-surface.js';
import { emitRelease, exportedModelNames } from '../../../generator/emit/emit-release.js';
import { releaseModuleName } from '../../../generator/shared/release-names.js';
import type { GroupVersionIr, ModelIr, ReleaseIr } from '../../../generator/ir/types.js';
import { rootGroupVersionIr } from '../../../generator/ir/build-release-ir.js';
import { tempDir } from '../../helpers/cli.js';
import { manifestReleases, releaseIr } from '../../helpers/project.js';
import { runtimeSources, typeCheckDirectory } from '../../helpers/type-check.js';

/**
 * The compatibility promise, checked by the compiler: a consumer written
 * against release N compiles against N+1 unless the API diff classified a
 * change between them as breaking. "Compiles" means: every model of N is
 * assignable to N+1's and back (a consumer both writes and reads them), N's
 * fields all still exist, N's call arguments are accepted by N+1's functions,
 * and N+1's results are readable as N's.
 */
function compatibilityChecker(
  oldImport: string,
  newImport: string,
  older: GroupVersionIr,
  newer: GroupVersionIr,
): string {
  const lines = [
    `import type * as Old from '${oldImport}';`,
    `import type * as New from '${newImport}';`,
    'type Check<A, B> = [A] extends [B] ? true : false;',
    'const ok = <T extends true>(): T | undefined => undefined;',
  ];
  const newModels = new Set(exportedModelNames(newer));
  const oldModels = new Set(exportedModelNames(older));
  for (const model of older.models.filter((m) => oldModels.has(m.name))) {
    if (!newModels.has(model.name)) {
      lines.push(`ok<Check<'${model.name}', keyof typeof import('${newImport}')>>(); // model removed`);
      continue;
    }
    lines.push(
      `ok<Check<Old.${model.name}, New.${model.name}>>();`,
      `ok<Check<New.${model.name}, Old.${model.name}>>();`,
    );
    if (model.shape.kind === 'object') lines.push(`ok<Check<keyof Old.${model.name}, keyof New.${model.name}>>();`);
  }
  const newOperations = new Set(clientOperations(newer).map((o) => o.name));
  for (const op of clientOperations(older)) {
    if (!newOperations.has(op.name)) {
      lines.push(`void (null as unknown as typeof New)['${op.name}']; // operation removed`);
      continue;
    }
    const params = `Parameters<typeof Old.${op.name}>`;
    lines.push(`ok<Check<${params}, Parameters<typeof New.${op.name}>>>();`);
    lines.push(`ok<Check<Awaited<ReturnType<typeof New.${op.name}>>, Awaited<ReturnType<typeof Old.${op.name}>>>>();`);
  }
  return `${lines.join('\n')}\n`;
}

function compiles(files: Map<string, string>, checker: string): string[] {
  const dir = tempDir('lease-compat-');
  for (const [path, text] of files) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
  writeFileSync(join(dir, 'checker.ts'), checker);
  return typeCheckDirectory(dir);
}

function emitPair(older: ReleaseIr, newer: ReleaseIr): Map<string, string> {
  const files = new Map<string, string>();
  const [a, b] = annotateSince([older, newer]);
  for (const ir of [a!, b!]) {
    for (const [path, text] of emitRelease({ ir, documentPath: 'test', contentHash: 'test' }))
      files.set(`src/${path}`, text);
  }
  return files;
}

/**
 * The Lease API of each release (the release entry's own exports): LeaseCandidate's group versions come and go
 * between releases as whole namespaces, which the diff lists as one entry each (test/generator/diff/group-versions.test.ts).
 */
const leaseOnly = (ir: ReleaseIr): ReleaseIr => ({ release: ir.release, groupVersions: [rootGroupVersionIr(ir)] });

function checkPair(wholeOlder: ReleaseIr, wholeNewer: ReleaseIr): { errors: string[]; breaking: number } {
  const [older, newer] = [leaseOnly(wholeOlder), leaseOnly(wholeNewer)];
  const files = new Map([
    ...[...runtimeSources()].map(([path, text]): [string, string] => [`src/${path}`, text]),
    ...emitPair(older, newer),
  ]);
  const checker = compatibilityChecker(
    `./src/${releaseModuleName(older.release)}/index.js`,
    `./src/${releaseModuleName(newer.release)}/index.js`,
    rootGroupVersionIr(older),
    rootGroupVersionIr(newer),
  );
  return { errors: compiles(files, checker), breaking: diffReleases(older, newer).counts.breaking };
}

const releases = manifestReleases().map((r) => r.release);
const pairs = releases.slice(1).map((release, i) => [releases[i]!, release] as const);

describe('type-level compatibility between consecutive releases', () => {
  it.each(pairs)('a consumer of %s compiles against %s (no breaking change listed)', (older, newer) => {
    const result = checkPair(releaseIr(older), releaseIr(newer));
    expect(result.breaking).toBe(0);
    expect(result.errors).toEqual([]);
  });

  const base = leaseOnly(releaseIr('1.35.0'));
  const lease = rootGroupVersionIr(base);
  const next = (edit: (spec: ModelIr) => ModelIr): ReleaseIr => ({
    release: '1.36.0',
    groupVersions: [
      { ...lease, release: '1.36.0', models: lease.models.map((m) => (m.name === 'LeaseSpec' ? edit(m) : m)) },
    ],
  });
  const editProperties = (
    m: ModelIr,
    f: (
      p: Extract<ModelIr['shape'], { kind: 'object' }>['properties'],
    ) => Extract<ModelIr['shape'], { kind: 'object' }>['properties'],
  ): ModelIr => (m.shape.kind === 'object' ? { ...m, shape: { ...m.shape, properties: f(m.shape.properties) } } : m);

  it.each([
    [
      'an optional field added',
      (m: ModelIr) =>
        editProperties(m, (ps) => [
          ...ps,
          { name: 'renewCount', type: { kind: 'integer' }, required: false, description: '' },
        ]),
      false,
    ],
    [
      'a required field added',
      (m: ModelIr) =>
        editProperties(m, (ps) => [
          ...ps,
          { name: 'epoch', type: { kind: 'integer' }, required: true, description: '' },
        ]),
      true,
    ],
    [
      'an optional field removed',
      (m: ModelIr) => editProperties(m, (ps) => ps.filter((p) => p.name !== 'holderIdentity')),
      true,
    ],
    [
      'a field retyped',
      (m: ModelIr) =>
        editProperties(m, (ps) =>
          ps.map((p) => (p.name === 'leaseTransitions' ? { ...p, type: { kind: 'string' as const } } : p)),
        ),
      true,
    ],
    [
      'a description changed',
      (m: ModelIr) => editProperties(m, (ps) => ps.map((p) => ({ ...p, description: `${p.description} (reworded)` }))),
      false,
    ],
  ] as const)('agrees with the diff for %s', (_name, edit, breaking) => {
    const result = checkPair(base, next(edit));
    expect(result.breaking > 0).toBe(breaking);
    expect(result.errors.length > 0).toBe(breaking);
  });
});
