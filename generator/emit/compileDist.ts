import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { ts } from 'ts-morph';
import type { Cache } from '../fs/cacheFile.js';

type Esbuild = typeof import('esbuild');
const requireFromHere = createRequire(import.meta.url);
let esbuild: Esbuild | undefined;
/** esbuild is loaded on the first cache miss only: a run whose every file is cached never pays for it. */
function loadEsbuild(): Esbuild {
  esbuild ??= requireFromHere('esbuild') as Esbuild;
  return esbuild;
}
/** The version, for cache keys, without loading esbuild. */
const esbuildVersion = (requireFromHere('esbuild/package.json') as { version: string }).version;

const DECLARATION_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  declaration: true,
  emitDeclarationOnly: true,
  isolatedDeclarations: true,
  // Declarations follow from the annotations alone (isolatedDeclarations), so no type check is needed here;
  // `tsc --strict` over the sources is a separate check.
  noCheck: true,
  noResolve: true,
  skipLibCheck: true,
  noLib: true,
  types: [],
  newLine: ts.NewLineKind.LineFeed,
};

/** Compiled output of one source file. */
export interface CompiledFile {
  readonly js: string;
  readonly dts: string;
}

/**
 * Compiled files remembered by a digest of their path and text (and the compilers' versions). Sound because
 * each file compiles on its own (isolatedDeclarations, per-file transform); it spares re-compiling the
 * hand-written runtime on every run.
 */
export type CompileCache = Cache<CompiledFile>;

export function isCompiledFile(value: unknown): value is CompiledFile {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as CompiledFile).js === 'string' &&
    typeof (value as CompiledFile).dts === 'string'
  );
}

/** Bumped whenever what compileDist does with a file changes (header handling, output shape). */
const CACHE_FORMAT = 1;
const TRANSFORM_OPTIONS = { loader: 'ts', format: 'esm', target: 'es2022', legalComments: 'none' } as const;

export function compileCacheKey(path: string, text: string): string {
  return createHash('sha256')
    .update(
      `${CACHE_FORMAT}\0${ts.version}\0${esbuildVersion}\0${JSON.stringify(DECLARATION_OPTIONS)}\0${JSON.stringify(TRANSFORM_OPTIONS)}\0${path}\0`,
    )
    .update(text)
    .digest('hex');
}

/**
 * `src/**.ts` → `dist/**.js` + `dist/**.d.ts`. JavaScript comes from
 * esbuild's per-file transform; declarations from one TypeScript program
 * over the files not already cached, without a type check. Deterministic.
 */
export function compileDist(sources: ReadonlyMap<string, string>, cache?: CompileCache): Map<string, string> {
  const out = new Map<string, string>();
  const typescriptSources = [...sources].filter(([path]) => path.endsWith('.ts'));
  const pending: Array<readonly [string, string]> = [];
  for (const [path, text] of typescriptSources) {
    const cached = cache?.get(compileCacheKey(path, text));
    if (cached === undefined) pending.push([path, text]);
    else {
      out.set(`${path.slice(0, -3)}.js`, cached.js);
      out.set(`${path.slice(0, -3)}.d.ts`, cached.dts);
    }
  }
  const declarations = pending.length > 0 ? emitDeclarations(pending) : new Map<string, string>();
  for (const [path, text] of pending) {
    const base = path.slice(0, -3);
    const header = leadingLineComments(text);
    const js = withHeader(header, loadEsbuild().transformSync(text, { ...TRANSFORM_OPTIONS, sourcefile: path }).code);
    const dts = withHeader(header, declarations.get(`${base}.d.ts`) ?? '');
    out.set(`${base}.js`, js);
    out.set(`${base}.d.ts`, dts);
    cache?.set(compileCacheKey(path, text), { js, dts });
  }
  return out;
}

function emitDeclarations(files: ReadonlyArray<readonly [string, string]>): Map<string, string> {
  const root = '/src/';
  const byName = new Map(files.map(([path, text]) => [root + path, text]));
  const host: ts.CompilerHost = {
    getSourceFile: (name, languageVersion) => {
      const text = byName.get(name);
      return text === undefined ? undefined : ts.createSourceFile(name, text, languageVersion, true);
    },
    writeFile: () => undefined,
    getDefaultLibFileName: () => '/lib.d.ts',
    getCurrentDirectory: () => '/',
    getCanonicalFileName: (name) => name,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => '\n',
    fileExists: (name) => byName.has(name),
    readFile: (name) => byName.get(name),
  };
  const program = ts.createProgram({ rootNames: [...byName.keys()], options: DECLARATION_OPTIONS, host });
  const declarations = new Map<string, string>();
  const result = program.emit(undefined, (name, text) => declarations.set(name.slice(root.length), text));
  const errors = result.diagnostics.map(
    (d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`,
  );
  if (errors.length > 0) throw new Error(`cannot emit declarations: ${errors[0]}`);
  return declarations;
}

/** The `//` lines a file starts with: the generated files' DO NOT EDIT header, which compilers may drop with the statement it is attached to. */
function leadingLineComments(text: string): string {
  const match = /^(?:\/\/[^\n]*\n)+/.exec(text);
  return match === null ? '' : match[0];
}

function withHeader(header: string, output: string): string {
  return header === '' || output.startsWith(header) ? output : header + output;
}
