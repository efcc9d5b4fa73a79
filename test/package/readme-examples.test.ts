import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import * as clientExports from '../../generated/k8s-lease-client/src/index.js';
import { STRICT_OPTIONS, typeCheck } from '../helpers/type-check.js';
import { PROJECT_ROOT } from '../helpers/project.js';

/**
 * Every ```ts block of the READMEs users read, compiled against the packages as they resolve them
 * (`k8s-lease-client` → its dist/.d.ts), under strict + noUncheckedIndexedAccess + exactOptionalPropertyTypes.
 * Names a snippet only alludes to (`client`, `lease`, `readToken`, …) are declared once, globally; a block
 * that uses package functions without importing them (the per-operation examples) gets the import.
 */
const READMES = [
  'README.md',
  'generated/k8s-lease-client/README.md',
  'generated/k8s-lease-client-node/README.md',
  'generated/k8s-lease-api-server/README.md',
];

const PRELUDE = `import type { Lease } from 'k8s-lease-client';
declare global {
  function readToken(): string;
  function replaceAll(objects: readonly Lease[]): void;
  function handle(type: string, lease: Lease): void;
  function runControllers(signal: AbortSignal, token?: unknown): Promise<void>;
}
export {};
`;

function tsBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

/** Values snippets use without defining them; declared in the module (a global `name` would clash with the DOM's). */
const ALLUDED: ReadonlyArray<readonly [string, string]> = [
  ['client', 'Client'],
  ['lease', 'Lease'],
  ['namespace', 'string'],
  ['name', 'string'],
];

/** The block as a module: with the package imports and values it leaves implicit, and an export so top-level await is allowed. */
function asModule(block: string): string {
  const declared = (id: string): boolean =>
    new RegExp(`\\b(const|let|var|function)\\s+${id}\\b`).test(block) ||
    new RegExp(`^import\\s+(type\\s+)?\\{[^}]*\\b${id}\\b`, 'm').test(block);
  const alluded = ALLUDED.filter(([id]) => new RegExp(`\\b${id}\\b`).test(block) && !declared(id));
  const imports = /^import /m.test(block)
    ? []
    : Object.keys(clientExports).filter((id) => new RegExp(`\\b${id}\\b`).test(block));
  // Only the types the alluded values need, and only those the block does not import itself.
  const types = [...new Set(alluded.map(([, type]) => type))].filter((type) =>
    type === 'string' ? false : !declared(type),
  );
  const lines = [
    ...(imports.length > 0 ? [`import { ${imports.join(', ')} } from 'k8s-lease-client';`] : []),
    ...(types.length > 0 ? [`import type { ${types.join(', ')} } from 'k8s-lease-client';`] : []),
    ...alluded.map(([id, type]) => `declare const ${id}: ${type};`),
    block,
    'export {};',
  ];
  return `${lines.join('\n')}\n`;
}

// Inside the repository, so that `k8s-lease-client` resolves through node_modules as it does for users.
const tmpRoot = join(PROJECT_ROOT, '.tmp', 'readme-examples');
mkdirSync(tmpRoot, { recursive: true });
const dir = mkdtempSync(join(tmpRoot, 'readme-examples-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const STRICTEST: ts.CompilerOptions = {
  ...STRICT_OPTIONS,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  strict: true,
};

describe('the README examples compile under the strictest settings', () => {
  it('finds the examples it promises to check', () => {
    const count = READMES.map((r) => tsBlocks(readFileSync(join(PROJECT_ROOT, r), 'utf8')).length).reduce(
      (a, b) => a + b,
      0,
    );
    expect(count).toBeGreaterThanOrEqual(14);
  });

  it.each(READMES)('%s', (readme) => {
    const blocks = tsBlocks(readFileSync(join(PROJECT_ROOT, readme), 'utf8'));
    const base = join(dir, readme.replace(/[/.]/g, '_'));
    mkdirSync(base, { recursive: true });
    writeFileSync(join(base, 'package.json'), JSON.stringify({ type: 'module', private: true }));
    writeFileSync(join(base, 'prelude.ts'), PRELUDE);
    const files = [join(base, 'prelude.ts')];
    blocks.forEach((block, index) => {
      const file = join(base, `example-${index + 1}.ts`);
      writeFileSync(file, asModule(block));
      files.push(file);
    });
    const { messages } = typeCheck(base, files, STRICTEST);
    expect(messages).toEqual([]);
  });
});

describe('the client README’s release table', () => {
  it('says which subpath a cluster between two supported releases uses (1.32 → v1.31)', () => {
    const readme = readFileSync(join(PROJECT_ROOT, 'generated/k8s-lease-client/README.md'), 'utf8');
    expect(readme).toContain('| 1.31.x – 1.32.x | 1.31.1 | `k8s-lease-client/v1.31` |');
    expect(readme).toContain('| 1.33.x | 1.33.1 | `k8s-lease-client/v1.33` |');
  });
});

/** Every name (values and types) the package entry exports, as the compiler resolves `export *` chains. */
function exportNames(entry: string): string[] {
  const program = ts.createProgram([entry], { ...STRICT_OPTIONS, noEmit: true });
  const module = program.getTypeChecker().getSymbolAtLocation(program.getSourceFile(entry)!);
  return module === undefined
    ? []
    : program
        .getTypeChecker()
        .getExportsOfModule(module)
        .map((s) => s.name);
}

describe('each package README mentions every export of its entry point', () => {
  it.each(['k8s-lease-client', 'k8s-lease-client-node', 'k8s-lease-api-server'])('%s', (pkg) => {
    const names = exportNames(join(PROJECT_ROOT, 'generated', pkg, 'src', 'index.ts'));
    // The entry exports dozens of names; an empty list would mean the entry was not read.
    expect(names.length).toBeGreaterThan(20);
    const readme = readFileSync(join(PROJECT_ROOT, 'generated', pkg, 'README.md'), 'utf8');
    // Named as code (a code block or an inline `span`), not merely a word of the prose ("Lease", "Result").
    const code = [...readme.matchAll(/^```[^\n]*\n[\s\S]*?^```$|`[^`\n]+`/gm)].map((m) => m[0]).join('\n');
    expect(names.filter((name) => !new RegExp(`(?<![\\w$])${name}(?![\\w$])`).test(code)).sort()).toEqual([]);
  });
});
