/**
 * Shared helpers for tests that type-check emitted code with the TypeScript
 * compiler API: files are written to a temporary directory (an ESM package,
 * so NodeNext resolves `./x.js` specifiers as the published package would)
 * and checked with `--strict` plus the repository's stricter flags.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import ts from 'typescript';
import { packageSources } from '../../generator/fs/package-folders.js';
import { PROJECT_ROOT } from './project.js';

const CLIENT_TEMPLATES_DIR = join(PROJECT_ROOT, 'templates', 'k8s-lease-client');
export const TEMPLATES_RUNTIME_DIR = join(CLIENT_TEMPLATES_DIR, 'src', 'runtime');

export const STRICT_OPTIONS: ts.CompilerOptions = {
  strict: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  types: ['node'],
  typeRoots: [join(PROJECT_ROOT, 'node_modules', '@types')],
  noUncheckedIndexedAccess: true,
  noImplicitOverride: true,
  noFallthroughCasesInSwitch: true,
  isolatedModules: true,
  verbatimModuleSyntax: true,
  skipLibCheck: true,
  noEmit: true,
};

/** The hand-written runtime modules, keyed `runtime/<name>.ts` like the package's `src/` (tests excluded). */
export function runtimeSources(): Map<string, string> {
  // Exactly what the generator copies into the package, subfolders included.
  return packageSources({ name: 'k8s-lease-client', dir: CLIENT_TEMPLATES_DIR });
}

export function makeTempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function removeTempDir(dir: string | undefined): void {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
}

/** Writes `files` (relative paths) under `root`, with a `package.json` that makes `.ts` files ES modules. */
export function writeTree(root: string, files: ReadonlyMap<string, string>): string[] {
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'package.json'), `${JSON.stringify({ type: 'module', private: true })}\n`);
  const written: string[] = [];
  for (const [path, text] of files) {
    const file = join(root, ...path.split('/'));
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    written.push(file);
  }
  return written;
}

// Library and @types files are parsed once per test worker and shared by every Program.
const sharedSourceFiles = new Map<string, ts.SourceFile>();

function cachingHost(options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options, true);
  const original = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    const shareable = fileName.includes(`${sep}node_modules${sep}`) || fileName.includes('/node_modules/');
    if (!shareable) return original(fileName, languageVersion, onError, shouldCreate);
    const cached = sharedSourceFiles.get(fileName);
    if (cached !== undefined) return cached;
    const created = original(fileName, languageVersion, onError, shouldCreate);
    if (created !== undefined) sharedSourceFiles.set(fileName, created);
    return created;
  };
  return host;
}

export interface CheckResult {
  readonly program: ts.Program;
  readonly diagnostics: readonly ts.Diagnostic[];
  /** Diagnostics as `path:line:col - message`, paths relative to the checked root. */
  readonly messages: readonly string[];
}

/** Type-checks `rootFiles` (absolute paths) and everything they import; returns every diagnostic. */
export function typeCheck(
  root: string,
  rootFiles: readonly string[],
  options: ts.CompilerOptions = STRICT_OPTIONS,
): CheckResult {
  const program = ts.createProgram({ rootNames: [...rootFiles], options, host: cachingHost(options) });
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...program.getSyntacticDiagnostics(),
    ...program.getSemanticDiagnostics(),
  ];
  return { program, diagnostics, messages: diagnostics.map((d) => formatDiagnostic(root, d)) };
}

export function formatDiagnostic(root: string, diagnostic: ts.Diagnostic): string {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n    ');
  if (diagnostic.file === undefined || diagnostic.start === undefined) return `TS${diagnostic.code}: ${message}`;
  const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
  return `${relative(root, diagnostic.file.fileName).split(sep).join('/')}:${line + 1}:${character + 1} - TS${diagnostic.code}: ${message}`;
}

/** The path of a diagnostic's file relative to `root`, `/`-separated; undefined for global diagnostics. */
export function diagnosticPath(root: string, diagnostic: ts.Diagnostic): string | undefined {
  return diagnostic.file === undefined ? undefined : relative(root, diagnostic.file.fileName).split(sep).join('/');
}

/** Type-checks every .ts file below a directory under the project's strict options; returns the diagnostics as lines. */
export function typeCheckDirectory(dir: string): string[] {
  const files: string[] = [];
  const walk = (current: string): void => {
    for (const name of readdirSync(current)) {
      const path = join(current, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (path.endsWith('.ts') && !path.endsWith('.d.ts')) files.push(path);
    }
  };
  walk(dir);
  return [...typeCheck(dir, files).messages];
}
