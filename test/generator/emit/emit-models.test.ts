/**
 * openapi-typescript as an independent oracle for the emitted models.
 *
 * For every release in spec/releases.json the emitted `src/` of that release
 * (plus the runtime templates), openapi-typescript's output for the same
 * normalised document and a generated checker module are written to a temp
 * directory and type-checked with the compiler API. The checker asserts, for
 * every model we emit, that it and `components['schemas'][schemaName]` are
 * mutually assignable modulo the MicroTime/Time brands, have the same keys and
 * the same required keys, and are not `any`; and that the two sides cover the
 * same schemas. Mutants of the emitted models show the checker can fail.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { Project, SyntaxKind } from 'ts-morph';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReleaseIr, rootGroupVersionIr } from '../../../generator/ir/build-release-ir.js';
import { compareReleases, releaseModuleName } from '../../../generator/shared/release-names.js';
import type { GroupVersionIr, ModelIr, ReleaseIr } from '../../../generator/ir/types.js';
import { emitRelease } from '../../../generator/emit/emit-release.js';
import type { JsonObject } from '../../../generator/shared/json.js';
import {
  diagnosticPath,
  makeTempDir,
  removeTempDir,
  runtimeSources,
  typeCheck,
  writeTree,
  type CheckResult,
} from '../../helpers/type-check.js';
import { PROJECT_ROOT } from '../../helpers/project.js';
import { LEASE_TARGET } from '../../../generator/config.js';

const SPEC_DIR = join(PROJECT_ROOT, 'spec');

interface ManifestEntry {
  readonly release: string;
  readonly document: string;
  readonly contentHash: string;
}

interface ReleaseFixture {
  readonly entry: ManifestEntry;
  readonly module: string;
  readonly document: JsonObject;
  /** The Lease API (coordination.k8s.io/v1), the release folder's own models. */
  readonly ir: GroupVersionIr;
  /** Every group version the release serves. */
  readonly whole: ReleaseIr;
  /** Emitted files keyed relative to the package's `src/`. */
  readonly emitted: Map<string, string>;
  readonly oracle: string;
}

const manifest = JSON.parse(readFileSync(join(SPEC_DIR, 'releases.json'), 'utf8')) as { releases: ManifestEntry[] };
const RELEASES = manifest.releases.map((r) => r.release);

function readDocument(entry: ManifestEntry): JsonObject {
  return JSON.parse(readFileSync(join(SPEC_DIR, entry.document), 'utf8')) as JsonObject;
}

/**
 * openapi-typescript's `components['schemas']` for a document. `emptyObjectsUnknown`:
 * a bare `type: object` (FieldsV1, Patch, RawExtension) admits any members in
 * OpenAPI; without it openapi-typescript writes `Record<string, never>`, a
 * documented stylistic default that says "no members" and would not be a
 * faithful oracle for what the spec allows.
 */
async function oracleFor(document: JsonObject): Promise<string> {
  // Passed as JSON text: openapi-typescript parses its own copy.
  const ast = await openapiTS(JSON.stringify(document), { emptyObjectsUnknown: true, silent: true });
  return astToString(ast);
}

/** Type-level helpers of the checker modules, shared by all releases. */
const HELPERS = `
export type IsAny<T> = 0 extends 1 & T ? true : false;
export type Assignable<A, B> = IsAny<A> extends true ? false : IsAny<B> extends true ? false : [A] extends [B] ? true : false;
export type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
/** Maps branded strings (\`string & { __brand }\`) to \`string\`, recursively through objects and arrays. */
export type Unbrand<T> = T extends string & { readonly __brand: unknown }
  ? string
  : T extends (infer U)[]
    ? Unbrand<U>[]
    : T extends readonly (infer U)[]
      ? readonly Unbrand<U>[]
      : T extends object
        ? { [K in keyof T]: Unbrand<T[K]> }
        : T;
/** Member names of an object type (index signatures give string); primitives have none to compare. */
export type Keys<T> = T extends object ? Extract<keyof T, string> : never;
export type RequiredKeys<T> = T extends object ? Extract<{ [K in keyof T]-?: {} extends Pick<T, K> ? never : K }[keyof T], string> : never;
export type AnyMembers<T> = T extends object ? { [K in keyof T]-?: IsAny<T[K]> extends true ? K : never }[keyof T] : never;
/** Mutual assignability alone misses an optional property present on one side only, hence the key checks. */
export type Verdict<Ours, Theirs> = {
  oursAssignableToOracle: Assignable<Unbrand<Ours>, Theirs>;
  oracleAssignableToOurs: Assignable<Theirs, Unbrand<Ours>>;
  sameKeys: Equals<Keys<Unbrand<Ours>>, Keys<Theirs>>;
  sameRequiredKeys: Equals<RequiredKeys<Unbrand<Ours>>, RequiredKeys<Theirs>>;
  noAnyMembers: Equals<AnyMembers<Ours>, never>;
};
export type Pass = { oursAssignableToOracle: true; oracleAssignableToOurs: true; sameKeys: true; sameRequiredKeys: true; noAnyMembers: true };
export declare function is<T>(): T;
`;

function checkIdentifier(model: ModelIr): string {
  return `check_${model.name}`;
}

/** The checker module for one release, at `check/<module>.ts`. */
function checkerFor(fixture: ReleaseFixture): string {
  const { ir, module } = fixture;
  const lines = [
    `import type { components } from '../oracle/${module}.js';`,
    `import type * as M from '../src/${module}/models.js';`,
    `import type { MicroTime as RuntimeMicroTime, Time as RuntimeTime } from '../src/runtime/time.js';`,
    `import { is, type Assignable, type Equals, type Pass, type Verdict } from './helpers.js';`,
    `type Oracle = components['schemas'];`,
    '',
    '// Both sides cover the same schemas.',
    `export const sameSchemas: true = is<Equals<keyof Oracle, ${[...new Set(fixture.whole.groupVersions.flatMap((gv) => gv.models.map((m) => JSON.stringify(m.schemaName))))].join(' | ')}>>();`,
    '',
  ];
  for (const model of ir.models) {
    lines.push(
      `export const ${checkIdentifier(model)}: Pass = is<Verdict<M.${model.name}, Oracle[${JSON.stringify(model.schemaName)}]>>();`,
    );
  }
  // The group's other versions (LeaseCandidate), each from its own folder; shared models are the Lease API's, checked above.
  const shared = new Set(ir.models.map((m) => m.schemaName));
  for (const gv of fixture.whole.groupVersions.filter((g) => g !== ir)) {
    lines.splice(1, 0, `import type * as M_${gv.version} from '../src/${module}/${gv.version}/models.js';`);
    for (const model of gv.models.filter((m) => !shared.has(m.schemaName))) {
      lines.push(
        `export const check_${gv.version}_${model.name}: Pass = is<Verdict<M_${gv.version}.${model.name}, Oracle[${JSON.stringify(model.schemaName)}]>>();`,
      );
    }
  }
  const hasPreferredHolder = compareReleases(ir.release, '1.31.0') >= 0;
  lines.push(
    '',
    '// Timestamps are branded exact strings, never Date.',
    `export const acquireTimeIsMicroTime: true = is<Equals<M.LeaseSpec['acquireTime'], RuntimeMicroTime | undefined>>();`,
    `export const renewTimeIsMicroTime: true = is<Equals<M.LeaseSpec['renewTime'], RuntimeMicroTime | undefined>>();`,
    `export const creationTimestampIsTime: true = is<Equals<M.ObjectMeta['creationTimestamp'], RuntimeTime | undefined>>();`,
    `export const dateIsNotMicroTime: false = is<Assignable<Date, NonNullable<M.LeaseSpec['acquireTime']>>>();`,
    `export const dateIsNotTime: false = is<Assignable<Date, NonNullable<M.ObjectMeta['creationTimestamp']>>>();`,
    `export const plainStringIsNotMicroTime: false = is<Assignable<string, NonNullable<M.LeaseSpec['renewTime']>>>();`,
    `export const timeIsNotMicroTime: false = is<Assignable<RuntimeTime, RuntimeMicroTime>>();`,
    '',
    `// LeaseSpec.preferredHolder/strategy exist from 1.31 on.`,
    `export const hasPreferredHolder: ${hasPreferredHolder} = is<'preferredHolder' extends keyof M.LeaseSpec ? true : false>();`,
    `export const hasStrategy: ${hasPreferredHolder} = is<'strategy' extends keyof M.LeaseSpec ? true : false>();`,
  );
  return `${lines.join('\n')}\n`;
}

/** Every file of the checked tree for the given releases, keyed relative to the tree's root. */
function treeFor(fixtures: readonly ReleaseFixture[], runtime: ReadonlyMap<string, string>): Map<string, string> {
  const files = new Map<string, string>([['check/helpers.ts', HELPERS]]);
  for (const [path, text] of runtime) files.set(`src/${path}`, text);
  for (const fixture of fixtures) {
    for (const [path, text] of fixture.emitted) files.set(`src/${path}`, text);
    files.set(`oracle/${fixture.module}.ts`, fixture.oracle);
    files.set(`check/${fixture.module}.ts`, checkerFor(fixture));
  }
  return files;
}

function checkTree(root: string, files: ReadonlyMap<string, string>): CheckResult {
  const written = writeTree(root, files);
  return typeCheck(root, written);
}

/** Diagnostics whose file lies under `prefix` of the checked tree. */
function messagesUnder(result: CheckResult, root: string, prefix: string): string[] {
  return result.diagnostics.flatMap((d, i) =>
    (diagnosticPath(root, d) ?? '').startsWith(prefix) ? [result.messages[i]!] : [],
  );
}

/** 1-based line of the declaration `export const <name>` in a checker module. */
function lineOf(checker: string, name: string): number {
  const index = checker.split('\n').findIndex((l) => l.startsWith(`export const ${name}:`));
  if (index < 0) throw new Error(`no ${name} in checker`);
  return index + 1;
}

let tempRoot: string | undefined;
let fixtures: ReleaseFixture[] = [];
let runtime = new Map<string, string>();
let positive: CheckResult;

beforeAll(async () => {
  tempRoot = makeTempDir('lease-oracle-');
  runtime = runtimeSources();
  fixtures = await Promise.all(
    manifest.releases.map(async (entry): Promise<ReleaseFixture> => {
      const document = readDocument(entry);
      const whole = buildReleaseIr(entry.release, document, entry.document, LEASE_TARGET);
      const emitted = emitRelease({
        ir: whole,
        documentPath: `spec/${entry.document}`,
        contentHash: entry.contentHash,
      });
      return {
        entry,
        module: releaseModuleName(entry.release),
        document,
        ir: rootGroupVersionIr(whole),
        whole,
        emitted,
        oracle: await oracleFor(document),
      };
    }),
  );
  positive = checkTree(join(tempRoot, 'all'), treeFor(fixtures, runtime));
});

afterAll(() => removeTempDir(tempRoot));

describe('emitted models agree with openapi-typescript', () => {
  it('the manifest has the releases the facts below are about', () => {
    expect(RELEASES).toEqual(expect.arrayContaining(['1.29.0', '1.30.0', '1.31.1']));
    expect(fixtures.map((f) => f.entry.release)).toEqual(RELEASES);
  });

  it('the whole checked program (runtime, helpers, every release) has zero diagnostics', () => {
    expect(positive.messages, positive.messages.join('\n')).toEqual([]);
  });

  it.each(RELEASES)('%s: every emitted model is mutually assignable with the oracle (zero diagnostics)', (release) => {
    const fixture = fixtures.find((f) => f.entry.release === release)!;
    const root = join(tempRoot!, 'all');
    // Every model is checked, and the checker really contains a line per model.
    const checker = checkerFor(fixture);
    expect(fixture.ir.models.length).toBeGreaterThanOrEqual(15);
    for (const model of fixture.ir.models) expect(checker).toContain(`export const ${checkIdentifier(model)}: Pass`);
    const messages = [
      ...messagesUnder(positive, root, `src/${fixture.module}/`),
      ...messagesUnder(positive, root, `oracle/${fixture.module}.ts`),
      ...messagesUnder(positive, root, `check/${fixture.module}.ts`),
    ];
    expect(messages, messages.join('\n')).toEqual([]);
    // The checked files were part of the program (a missing root would also give zero diagnostics).
    const checked = positive.program.getSourceFiles().map((s) => s.fileName);
    for (const name of ['models.ts', 'paths.ts', 'operations.ts', 'index.ts']) {
      expect(checked).toContain(join(root, 'src', fixture.module, name).split('\\').join('/'));
    }
  });

  it.each(RELEASES)('%s: LeaseSpec fields and timestamp types', (release) => {
    const fixture = fixtures.find((f) => f.entry.release === release)!;
    const leaseSpec = fixture.ir.models.find((m) => m.name === 'LeaseSpec');
    expect(leaseSpec?.schemaName).toBe('io.k8s.api.coordination.v1.LeaseSpec');
    const names = leaseSpec?.shape.kind === 'object' ? leaseSpec.shape.properties.map((p) => p.name) : [];
    const expectNew = !['1.29.0', '1.30.0'].includes(release);
    expect(compareReleases(release, '1.31.0') >= 0).toBe(expectNew);
    for (const field of ['preferredHolder', 'strategy']) expect(names.includes(field), field).toBe(expectNew);

    // Read the emitted text back: the declared types are the branded aliases, never Date.
    const project = new Project({ useInMemoryFileSystem: true });
    const models = project.createSourceFile('/models.ts', fixture.emitted.get(`${fixture.module}/models.ts`)!);
    const spec = models.getInterfaceOrThrow('LeaseSpec');
    for (const field of ['preferredHolder', 'strategy'])
      expect(spec.getProperty(field) !== undefined, field).toBe(expectNew);
    // Optional fields also take undefined (exactOptionalPropertyTypes).
    expect(spec.getPropertyOrThrow('acquireTime').getTypeNodeOrThrow().getText()).toBe('MicroTime | undefined');
    expect(spec.getPropertyOrThrow('renewTime').getTypeNodeOrThrow().getText()).toBe('MicroTime | undefined');
    expect(
      models.getInterfaceOrThrow('ObjectMeta').getPropertyOrThrow('creationTimestamp').getTypeNodeOrThrow().getText(),
    ).toBe('Time | undefined');
    expect(models.getTypeAliasOrThrow('MicroTime').getTypeNodeOrThrow().getText()).toBe('MicroTimeString');
    expect(models.getTypeAliasOrThrow('Time').getTypeNodeOrThrow().getText()).toBe('TimeString');
    const timeImport = models.getImportDeclarationOrThrow('../runtime/time.js');
    expect(
      timeImport
        .getNamedImports()
        .map((n) => `${n.getName()} as ${n.getAliasNode()?.getText() ?? ''}`)
        .sort(),
    ).toEqual(['MicroTime as MicroTimeString', 'Time as TimeString']);
    expect(models.getDescendantsOfKind(SyntaxKind.TypeReference).map((r) => r.getTypeName().getText())).not.toContain(
      'Date',
    );
  });
});

describe('negative controls: the checker fails on mutated models', () => {
  const MUTANTS: ReadonlyArray<{ name: string; from: string; to: string; failing: readonly string[] }> = [
    // A property of the wrong type breaks assignability of LeaseSpec and of everything holding one.
    {
      name: 'wrong-type',
      from: '  holderIdentity?: string | undefined;\n',
      to: '  holderIdentity?: number | undefined;\n',
      failing: ['check_LeaseSpec', 'check_Lease', 'check_LeaseList'],
    },
    // A missing optional property keeps mutual assignability; only the key check sees it.
    {
      name: 'missing-optional',
      from: '  holderIdentity?: string | undefined;\n',
      to: '',
      failing: ['check_LeaseSpec'],
    },
    // Required vs optional.
    {
      name: 'required-flip',
      from: '  holderIdentity?: string | undefined;\n',
      to: '  holderIdentity: string;\n',
      failing: ['check_LeaseSpec'],
    },
    // A timestamp as Date instead of the branded string.
    {
      name: 'date',
      from: '  renewTime?: MicroTime | undefined;\n',
      to: '  renewTime?: Date | undefined;\n',
      failing: ['check_LeaseSpec', 'renewTimeIsMicroTime'],
    },
  ];

  it.each(MUTANTS)('$name: diagnostics appear exactly where expected', (mutant) => {
    const newest = fixtures[fixtures.length - 1]!;
    const modelsPath = `${newest.module}/models.ts`;
    const original = newest.emitted.get(modelsPath)!;
    expect(original).toContain(mutant.from);
    const mutated = original.replace(mutant.from, mutant.to);
    expect(mutated).not.toBe(original);
    const fixture: ReleaseFixture = { ...newest, emitted: new Map([...newest.emitted, [modelsPath, mutated]]) };
    const root = join(tempRoot!, `mutant-${mutant.name}`);
    const result = checkTree(root, treeFor([fixture], runtime));
    const checker = checkerFor(fixture);
    const checkPath = `check/${fixture.module}.ts`;
    const lines = new Set(
      result.diagnostics
        .filter((d) => diagnosticPath(root, d) === checkPath && d.start !== undefined)
        .map((d) => d.file!.getLineAndCharacterOfPosition(d.start!).line + 1),
    );
    expect(result.messages.length, 'a mutant must not type-check').toBeGreaterThan(0);
    for (const name of mutant.failing)
      expect(lines.has(lineOf(checker, name)), `${name} should fail:\n${result.messages.join('\n')}`).toBe(true);
    // Untouched models still pass: the failures are about the mutation, not noise.
    for (const name of ['check_ObjectMeta', 'check_Status', 'check_DeleteOptions'])
      expect(lines.has(lineOf(checker, name)), name).toBe(false);
  });
});

describe('a recursive schema emits a recursive type', () => {
  const NODE = 'io.k8s.example.v1.Node';
  const nodeRef = { $ref: `#/components/schemas/${NODE}` };
  const document: JsonObject = {
    openapi: '3.0.0',
    info: { title: 'recursive', version: 'v1' },
    paths: {
      '/apis/coordination.k8s.io/v1/nodes/{name}': {
        parameters: [
          { name: 'name', in: 'path', required: true, description: 'name of the Node', schema: { type: 'string' } },
        ],
        get: {
          operationId: 'readCoordinationV1Node',
          'x-kubernetes-action': 'get',
          description: 'read the specified Node',
          responses: { '200': { description: 'OK', content: { 'application/json': { schema: nodeRef } } } },
        },
      },
    },
    components: {
      schemas: {
        [NODE]: {
          type: 'object',
          description: 'A tree node.',
          required: ['name'],
          properties: {
            name: { type: 'string' },
            children: { type: 'array', items: nodeRef },
            parent: { allOf: [nodeRef], description: 'The parent node.' },
            byName: { type: 'object', additionalProperties: nodeRef },
          },
        },
      },
    },
  };

  it('emits an interface whose members refer to the interface itself, and it compiles', async () => {
    const ir = buildReleaseIr('1.99.0', structuredClone(document), 'recursive.json', LEASE_TARGET);
    expect(rootGroupVersionIr(ir).models.map((m) => [m.name, m.schemaName])).toEqual([['Node', NODE]]);
    const emitted = emitRelease({
      ir,
      documentPath: 'recursive.json',
      contentHash: 'sha256:test',
    });
    const models = emitted.get('v1_99/models.ts')!;

    const project = new Project({ useInMemoryFileSystem: true, compilerOptions: { strict: true } });
    const source = project.createSourceFile('/models.ts', models);
    const node = source.getInterfaceOrThrow('Node');
    const self = node.getSymbolOrThrow();
    const typeOf = (name: string): string => node.getPropertyOrThrow(name).getTypeNodeOrThrow().getText();
    expect(typeOf('children')).toBe('Node[] | undefined');
    expect(typeOf('parent')).toBe('Node | undefined');
    expect(typeOf('byName')).toBe('{ [key: string]: Node } | undefined');
    // The names resolve to the same declaration, not to some other `Node`.
    const childrenElement = node
      .getPropertyOrThrow('children')
      .getType()
      .getNonNullableType()
      .getArrayElementTypeOrThrow();
    expect(childrenElement.getSymbol()).toBe(self);
    expect(node.getPropertyOrThrow('parent').getType().getNonNullableType().getSymbol()).toBe(self);

    // Compiles with the runtime, agrees with the oracle, and rejects a wrongly typed grandchild.
    const fixture: ReleaseFixture = {
      entry: { release: '1.99.0', document: 'recursive.json', contentHash: 'sha256:test' },
      module: 'v1_99',
      document,
      ir: rootGroupVersionIr(ir),
      whole: ir,
      emitted,
      oracle: await oracleFor(document),
    };
    const files = new Map([
      ['check/helpers.ts', HELPERS],
      ...[...runtime].map(([p, t]): [string, string] => [`src/${p}`, t]),
    ]);
    for (const [path, text] of emitted) files.set(`src/${path}`, text);
    files.set('oracle/v1_99.ts', fixture.oracle);
    files.set(
      'check/v1_99.ts',
      `${[
        `import type { components } from '../oracle/v1_99.js';`,
        `import type { Node } from '../src/v1_99/models.js';`,
        `import { is, type Pass, type Verdict } from './helpers.js';`,
        `export const check_Node: Pass = is<Verdict<Node, components['schemas'][${JSON.stringify(NODE)}]>>();`,
        `export const tree: Node = { name: 'a', parent: { name: 'root' }, children: [{ name: 'b', children: [{ name: 'c' }] }], byName: { d: { name: 'd' } } };`,
        `// @ts-expect-error a grandchild is a Node too, so its name must be a string`,
        `export const badTree: Node = { name: 'a', children: [{ name: 'b', children: [{ name: 1 }] }] };`,
        `// @ts-expect-error a Node needs a name at any depth`,
        `export const nameless: Node = { name: 'a', parent: { parent: { name: 'x' } } };`,
      ].join('\n')}\n`,
    );
    const root = join(tempRoot!, 'recursive');
    const result = checkTree(root, files);
    expect(result.messages, result.messages.join('\n')).toEqual([]);
    expect(result.program.getSourceFiles().some((s) => s.fileName.endsWith('/src/v1_99/operations.ts'))).toBe(true);
  });
});
