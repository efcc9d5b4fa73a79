import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Cache } from '../fs/cache-file.js';
import { GeneratorError } from '../errors.js';

type Oxc = typeof import('oxc-transform');
type OxcError = import('oxc-transform').OxcError;
const requireFromHere = createRequire(import.meta.url);
let oxc: Oxc | undefined;
/** oxc is loaded on the first cache miss only: a run whose every file is cached never pays for it. */
function loadOxc(): Oxc {
  oxc ??= requireFromHere('oxc-transform') as Oxc;
  return oxc;
}
/** The version, for cache keys, without loading the native binding. */
const oxcVersion = (requireFromHere('oxc-transform/package.json') as { version: string }).version;

/** Compiled output of one source file. */
export interface CompiledFile {
  readonly js: string;
  readonly dts: string;
}

/**
 * Compiled files remembered by a digest of their path and text (and the compiler's version). Sound because
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

/** Bumped whenever what compileDist does with a file changes (compiler, header handling, output shape). */
const CACHE_FORMAT = 2;
/**
 * Types stripped, syntax newer than ES2022 lowered (none in the sources today), and the declarations of the
 * same parse: the sources are isolatedDeclarations-clean (templates/tsconfig.json and the packages' tsconfig turn it on, and `npm run typecheck`
 * holds them to it), so each file's declarations follow from its own annotations, no program, no type check.
 */
const TRANSFORM_OPTIONS = {
  lang: 'ts',
  sourceType: 'module',
  target: 'es2022',
  typescript: { declaration: {} },
} as const;

export function compileCacheKey(path: string, text: string): string {
  return createHash('sha256')
    .update(`${CACHE_FORMAT}\0${oxcVersion}\0${JSON.stringify(TRANSFORM_OPTIONS)}\0${path}\0`)
    .update(text)
    .digest('hex');
}

/**
 * `src/**.ts` → `dist/**.js` + `dist/**.d.ts`, each file on its own with oxc's transformer (JavaScript and
 * isolated declarations in one parse; ~100× faster than TypeScript's declaration emit, which cost most of a
 * run with an empty cache). Deterministic. `tsc --strict` over the sources (`npm run typecheck`, CI) is the
 * type check; this step assumes it.
 */
export function compileDist(sources: ReadonlyMap<string, string>, cache?: CompileCache): Map<string, string> {
  const out = new Map<string, string>();
  for (const [path, text] of sources) {
    if (!path.endsWith('.ts')) continue;
    const base = path.slice(0, -3);
    const key = compileCacheKey(path, text);
    const compiled = cache?.get(key) ?? compileFile(path, text);
    cache?.set(key, compiled);
    out.set(`${base}.js`, compiled.js);
    out.set(`${base}.d.ts`, compiled.dts);
  }
  return out;
}

function compileFile(path: string, text: string): CompiledFile {
  const result = loadOxc().transformSync(path, text, TRANSFORM_OPTIONS);
  const [error] = result.errors;
  if (error !== undefined) throw new GeneratorError('compile', `${where(text, error)}${error.message}`, { file: path });
  // A helper would be an import of @oxc-project/runtime, which the packages do not depend on.
  const helpers = Object.keys(result.helpersUsed);
  if (helpers.length > 0)
    throw new GeneratorError('compile', `needs runtime helpers (${helpers.join(', ')})`, { file: path });
  const header = leadingLineComments(text);
  return { js: withHeader(header, result.code), dts: withHeader(header, result.declaration ?? '') };
}

/** `line:column: ` of the error's first label (1-based), for the one-line report. */
function where(text: string, error: OxcError): string {
  const start = error.labels[0]?.start;
  if (start === undefined) return '';
  const before = text.slice(0, start).split('\n');
  return `${before.length}:${before[before.length - 1]!.length + 1}: `;
}

/** The `//` lines a file starts with: the generated files' DO NOT EDIT header, which the declarations drop. */
function leadingLineComments(text: string): string {
  const match = /^(?:\/\/[^\n]*\n)+/.exec(text);
  return match === null ? '' : match[0];
}

function withHeader(header: string, output: string): string {
  return header === '' || output.startsWith(header) ? output : header + output;
}
