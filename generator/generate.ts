import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GeneratorError } from './errors.js';
import { contentHash } from './load/canonicalJson.js';
import { isJsonObject } from './load/readDocument.js';
import { buildReleaseIr } from './ir/buildReleaseIr.js';
import type { ReleaseIr } from './ir/types.js';
import { releaseModuleName } from './ir/releaseNames.js';
import { readManifest, type ReleaseEntry } from './spec/manifest.js';
import { createEmitProject } from './emit/tsProject.js';
import { emitRelease } from './emit/emitRelease.js';
import { copiedTemplateFiles, emitPackageSkeleton, emitRootIndex } from './emit/emitPackage.js';
import { compileDist } from './emit/compileDist.js';
import { replaceDirectory } from './fs/atomicOutput.js';
import { PACKAGE_NAME, PACKAGE_VERSION, PROJECT_ROOT, TEMPLATES_DIR } from './config.js';
import { relative } from 'node:path';

export interface GenerateOptions {
  readonly specDir: string;
  readonly outDir: string;
  readonly templatesDir?: string;
  /** Called once per release with what was emitted for it. */
  readonly onRelease?: (progress: { release: string; files: number; milliseconds: number }) => void;
}

export interface LoadedRelease {
  readonly entry: ReleaseEntry;
  readonly ir: ReleaseIr;
  readonly documentText: string;
  readonly documentPath: string;
}

/** Reads a committed normalised document and checks it against the manifest's content hash. */
export async function loadRelease(specDir: string, entry: ReleaseEntry): Promise<LoadedRelease> {
  const file = join(specDir, entry.document);
  const shown = displayPath(file);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    throw new GeneratorError('io', `cannot read normalised document for ${entry.release}: ${(cause as NodeJS.ErrnoException).code ?? String(cause)}`, { file: shown });
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (cause) {
    throw new GeneratorError('not-json', `not JSON: ${(cause as Error).message}`, { file: shown });
  }
  if (!isJsonObject(document)) throw new GeneratorError('not-openapi', 'not an OpenAPI document', { file: shown });
  const actual = contentHash(document);
  if (actual !== entry.contentHash) {
    throw new GeneratorError('hash-mismatch', `content hash ${actual} does not match ${entry.contentHash} recorded for ${entry.release} in releases.json (edited by hand? rerun spec:update)`, { file: shown });
  }
  return { entry, ir: buildReleaseIr(entry.release, document, shown), documentText: text, documentPath: shown };
}

export function displayPath(file: string): string {
  const rel = relative(PROJECT_ROOT, file);
  return rel.startsWith('..') ? file : rel;
}

/** Everything `generated/` holds, as a map from relative path to content. Pure apart from reading inputs. */
export async function buildPackageFiles(options: GenerateOptions): Promise<{ files: Map<string, string>; releases: LoadedRelease[] }> {
  const manifest = await readManifest(options.specDir);
  if (manifest.releases.length === 0) throw new GeneratorError('unknown-release', 'no releases in the manifest; add one with spec:update', { file: displayPath(join(options.specDir, 'releases.json')) });
  const templatesDir = options.templatesDir ?? TEMPLATES_DIR;
  const project = createEmitProject();
  const sources = new Map<string, string>();
  const files = new Map<string, string>();
  const releases: LoadedRelease[] = [];
  const seenModules = new Map<string, string>();
  for (const entry of manifest.releases) {
    const started = performance.now();
    const moduleName = releaseModuleName(entry.release);
    const clash = seenModules.get(moduleName);
    if (clash !== undefined) throw new GeneratorError('usage', `releases ${clash} and ${entry.release} share the minor version; keep one per minor`, { file: displayPath(join(options.specDir, 'releases.json')) });
    seenModules.set(moduleName, entry.release);
    const loaded = await loadRelease(options.specDir, entry);
    releases.push(loaded);
    const emitted = emitRelease(project, { ir: loaded.ir, documentPath: loaded.documentPath, contentHash: entry.contentHash });
    for (const [path, text] of emitted) sources.set(path, text);
    files.set(`openapi/v${entry.release}.json`, loaded.documentText);
    options.onRelease?.({ release: entry.release, files: emitted.size + 1, milliseconds: Math.round(performance.now() - started) });
  }
  sources.set('index.ts', emitRootIndex(project, releases[releases.length - 1]!.ir));
  for (const [path, text] of copiedTemplateFiles(templatesDir)) sources.set(path, text);
  for (const [path, text] of sources) files.set(`src/${path}`, text);
  for (const [path, text] of compileDist(sources)) files.set(`dist/${path}`, text);
  for (const [path, text] of emitPackageSkeleton({ name: PACKAGE_NAME, version: PACKAGE_VERSION, templatesDir }, releases.map((r) => r.ir))) files.set(path, text);
  return { files: new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))), releases };
}

export async function generate(options: GenerateOptions): Promise<{ files: number }> {
  const { files } = await buildPackageFiles(options);
  await replaceDirectory(options.outDir, files);
  return { files: files.size };
}
