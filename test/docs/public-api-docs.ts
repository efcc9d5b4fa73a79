/**
 * Which public exports of a package lack a JSDoc summary, read with the TypeScript compiler API from the
 * package's entry points (its package.json `exports` mapped back to `src/`), the way an editor's hover does.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/** One entry point of a package: its subpath (`.`, `./runtime`, `./v1.35`) and its source file. */
export interface EntryPoint {
  readonly packageName: string;
  readonly subpath: string;
  readonly file: string;
}

/** An export (`createClient`) or a member of an exported type (`ClientOptions.baseUrl`) without a summary. */
export interface Undocumented {
  readonly packageName: string;
  readonly subpath: string;
  readonly name: string;
}

/** What was checked, per package: how many exports, how many of them documented, and what lacks a summary. */
export interface DocCoverage {
  readonly exports: number;
  readonly documentedExports: number;
  readonly undocumented: Undocumented[];
}

/** The entry points a package's `exports` map declares, each `types` target mapped from `dist/*.d.ts` to `src/*.ts`. */
export function entryPointsOf(packageDir: string): EntryPoint[] {
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
    name: string;
    exports: Record<string, string | { types?: string }>;
  };
  return Object.entries(manifest.exports).flatMap(([subpath, target]) => {
    const types = typeof target === 'string' ? undefined : target.types;
    if (types === undefined) return [];
    const source = types.replace(/^\.\/dist\//, 'src/').replace(/\.d\.ts$/, '.ts');
    return [{ packageName: manifest.name, subpath, file: join(packageDir, source) }];
  });
}

/**
 * Reads every entry point in one program (they share most files) and reports each undocumented symbol once, under
 * the package of the first entry point that exports it.
 */
export function docCoverage(entryPoints: readonly EntryPoint[]): Map<string, DocCoverage> {
  const program = ts.createProgram(
    entryPoints.map((e) => e.file),
    {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: [],
    },
  );
  const checker = program.getTypeChecker();
  const seen = new Set<ts.Symbol>();
  const byPackage = new Map<string, { exports: number; documentedExports: number; undocumented: Undocumented[] }>();
  for (const entry of entryPoints) {
    const coverage = byPackage.get(entry.packageName) ?? { exports: 0, documentedExports: 0, undocumented: [] };
    byPackage.set(entry.packageName, coverage);
    const { undocumented } = coverage;
    const source = program.getSourceFile(entry.file);
    const module = source && checker.getSymbolAtLocation(source);
    if (module === undefined) throw new Error(`${entry.packageName} (${entry.subpath}): cannot read ${entry.file}`);
    for (const exported of checker.getExportsOfModule(module)) {
      coverage.exports++;
      const documented = aliasChain(checker, exported).some((s) => hasSummary(checker, s));
      if (documented) coverage.documentedExports++;
      const target = aliasChain(checker, exported).at(-1)!;
      if (seen.has(target)) continue;
      seen.add(target);
      const at = { packageName: entry.packageName, subpath: entry.subpath };
      if (!documented) undocumented.push({ ...at, name: exported.name });
      for (const member of publicMembers(target))
        if (!hasSummary(checker, member.symbol(checker)))
          undocumented.push({ ...at, name: `${exported.name}.${member.name}` });
    }
  }
  return byPackage;
}

/** The export itself, then each symbol it re-exports, down to the declaration: a summary on any of them shows on hover. */
function aliasChain(checker: ts.TypeChecker, symbol: ts.Symbol): ts.Symbol[] {
  const chain = [symbol];
  let current = symbol;
  while (current.flags & ts.SymbolFlags.Alias) {
    const next = checker.getImmediateAliasedSymbol(current);
    if (next === undefined || chain.includes(next)) break;
    chain.push(next);
    current = next;
  }
  return chain;
}

function hasSummary(checker: ts.TypeChecker, symbol: ts.Symbol | undefined): boolean {
  return symbol !== undefined && ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim() !== '';
}

interface Member {
  readonly name: string;
  symbol(checker: ts.TypeChecker): ts.Symbol | undefined;
}

/**
 * Properties and methods of an exported interface, class or object type alias, as a user reaches them. Left out:
 * private and protected members, constructors, and `override`s (their documentation is the base member's).
 */
function publicMembers(symbol: ts.Symbol): Member[] {
  const members: Member[] = [];
  for (const declaration of symbol.declarations ?? []) {
    const elements: readonly ts.NamedDeclaration[] = ts.isInterfaceDeclaration(declaration)
      ? declaration.members
      : ts.isClassDeclaration(declaration)
        ? declaration.members
        : ts.isTypeAliasDeclaration(declaration) && ts.isTypeLiteralNode(declaration.type)
          ? declaration.type.members
          : [];
    for (const element of elements) {
      const name = element.name;
      if (name === undefined || ts.isPrivateIdentifier(name) || ts.isConstructorDeclaration(element)) continue;
      const modifiers = ts.getCombinedModifierFlags(element as ts.Declaration);
      if (modifiers & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected | ts.ModifierFlags.Override)) continue;
      members.push({ name: name.getText(), symbol: (checker) => checker.getSymbolAtLocation(name) });
    }
  }
  return members;
}
