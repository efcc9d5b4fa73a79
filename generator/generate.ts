import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GeneratorError } from './errors.js';
import { loadReleaseDocument, type LoadedDocument } from './load/load-release.js';
import { buildReleaseIr } from './ir/build-release-ir.js';
import type { ReleaseIr } from './ir/types.js';
import { releaseModuleName } from './shared/release-names.js';
import { readManifest, type ReleaseEntry } from './manifest/manifest.js';
import { emitRelease } from './emit/emit-release.js';
import { emitHandWrittenPackageSkeleton, emitPackageSkeleton } from './emit/package-skeleton.js';
import { emitRootIndex } from './emit/root-index.js';
import { compileDist, isCompiledFile } from './emit/compile-dist.js';
import { formatSources, isFormattedText } from './emit/format-sources.js';
import { shareIdenticalModules } from './emit/share-identical-modules.js';
import { openCacheFile } from './fs/cache-file.js';
import { openReplacement } from './fs/atomic-output.js';
import { displayPath, LEASE_TARGET, PACKAGE_NAME, PACKAGE_VERSION, PROJECT_ROOT, TEMPLATES_DIR } from './config.js';
import type { GenerationTarget } from './shared/target.js';
import { dependencyRanges } from './fs/project-dependencies.js';
import { importedPackages, listPackageFolders, packageSources, type PackageFolder } from './fs/package-folders.js';
import { annotateSince } from './ir/annotate-since.js';
import { diffReleases } from './diff/diff-releases.js';
import { diffSummary, renderChangelog } from './diff/render-changelog.js';
import { unexportedOperations } from './ir/client-surface.js';
import type { ReleaseDiff } from './diff/types.js';

export interface LoadedRelease extends LoadedDocument {
  readonly ir: ReleaseIr;
}

export interface GenerateOptions {
  readonly specDir: string;
  /** Where the spec documents will live, for headers and errors, when `specDir` is a staging copy (spec:update). */
  readonly displaySpecDir?: string;
  readonly outDir: string;
  readonly templatesDir?: string;
  /** What to generate: the group, versions and kinds (default: the shipped packages', LEASE_TARGET). */
  readonly target?: GenerationTarget;
  /** The client's own changelog, when spec:update has just added an entry it has not written yet (else the template's). */
  readonly packageChangelog?: string;
  /** Called once per release with what was emitted for it. */
  readonly onRelease?: (progress: { release: string; files: number; milliseconds: number; summary: string }) => void;
  /** Called with each output file (path relative to the output directory) as soon as it is known. */
  readonly onFile?: (path: string, content: string) => void;
}

/** Everything `generated/` holds, as a map from relative path to content. Pure apart from reading inputs. */
export async function buildPackageFiles(
  options: GenerateOptions,
): Promise<{ files: Map<string, string>; releases: LoadedRelease[]; diffs: ReleaseDiff[] }> {
  const manifest = await readManifest(options.specDir);
  if (manifest.releases.length === 0)
    throw new GeneratorError('unknown-release', 'no releases in the manifest; add one with spec:update', {
      file: displayPath(join(options.displaySpecDir ?? options.specDir, 'releases.json')),
    });
  const templatesDir = options.templatesDir ?? TEMPLATES_DIR;
  const cache = await openCacheFile(join(PROJECT_ROOT, '.build', 'compile-cache.json'), isCompiledFile);
  const all = new Map<string, string>();
  const add = (path: string, text: string): void => {
    all.set(path, text);
    options.onFile?.(path, text);
  };
  const addSources = (name: string, packageSources: ReadonlyMap<string, string>): void => {
    for (const [path, text] of packageSources) add(`${name}/src/${path}`, text);
    for (const [path, text] of compileDist(packageSources, cache)) add(`${name}/dist/${path}`, text);
  };
  const addFiles = (name: string, packageFiles: ReadonlyMap<string, string>): void => {
    for (const [path, text] of packageFiles) add(`${name}/${path}`, text);
  };
  // One package per folder of templates/. The hand-written code first: it depends on no release, so (with
  // onFile) it is being written while the releases are emitted.
  const folders = listPackageFolders(templatesDir);
  const client = folders.find((folder) => folder.name === PACKAGE_NAME);
  if (client === undefined)
    throw new GeneratorError('usage', `no folder ${PACKAGE_NAME}/ with a package.json.hbs`, {
      file: displayPath(templatesDir),
    });
  const handWritten = folders.filter((folder) => folder !== client);
  const handWrittenSources = new Map<PackageFolder, Map<string, string>>(
    folders.map((folder) => [folder, packageSources(folder)]),
  );
  for (const [folder, packageFiles] of handWrittenSources) addSources(folder.name, packageFiles);

  const sources = new Map<string, string>();
  const files = new Map<string, string>();
  const { releases, loadMs } = await loadReleases(manifest.releases, options);
  const annotated = annotateSince(releases.map((r) => r.ir));
  const diffs: ReleaseDiff[] = [];
  annotated.forEach((ir, index) => {
    const started = performance.now();
    const loaded = releases[index]!;
    const emitted = emitRelease({
      ir,
      documentPath: loaded.documentPath,
      contentHash: loaded.entry.contentHash,
    });
    for (const [path, text] of emitted) sources.set(path, text);
    const previous = annotated[index - 1];
    const diff = previous === undefined ? undefined : diffReleases(previous, ir);
    if (diff !== undefined) diffs.push(diff);
    options.onRelease?.({
      release: ir.release,
      files: emitted.size + 1,
      milliseconds: Math.round(performance.now() - started + (loadMs.get(ir.release) ?? 0)),
      summary: diff === undefined ? 'oldest release' : diffSummary(diff),
    });
  });
  files.set('CHANGELOG.md', renderChangelog(annotated[0]!.release, diffs, unexportedOperations(annotated)));
  files.set('api-diff.json', `${JSON.stringify({ releases: annotated.map((ir) => ir.release), diffs }, null, 2)}\n`);
  for (const [path, text] of shareIdenticalModules(sources, annotated)) sources.set(path, text);
  sources.set('index.ts', emitRootIndex(annotated[annotated.length - 1]!));
  const formatCache = await openCacheFile(join(PROJECT_ROOT, '.build', 'format-cache.json'), isFormattedText);
  // Biome formats what was emitted in a process of its own (on a cache miss); the skeletons are rendered
  // meanwhile. Marked handled here so a failure before the await below cannot go unhandled.
  const formatting = formatSources(sources, formatCache);
  formatting.catch(() => undefined);

  const version = manifest.packageVersion ?? PACKAGE_VERSION;
  const examples = (options.target ?? LEASE_TARGET).examples;
  const info = { name: PACKAGE_NAME, version, dir: client.dir, ...(examples === undefined ? {} : { examples }) };
  for (const [path, text] of emitPackageSkeleton(info, annotated, diffs)) files.set(path, text);
  // The package's own changes (runtime, packaging), hand-written, beside the generated API diff in CHANGELOG.md.
  files.set(PACKAGE_CHANGELOG_FILE, options.packageChangelog ?? (await readPackageChangelog(templatesDir)));
  addFiles(PACKAGE_NAME, files);
  const ownPackages = new Set(folders.map((folder) => folder.name));
  for (const folder of handWritten) {
    const packageFiles = await handWrittenPackageFiles(folder, handWrittenSources.get(folder) ?? new Map(), {
      ownPackages,
      version,
      releases,
      irs: annotated,
    });
    addFiles(folder.name, packageFiles);
  }
  addSources(PACKAGE_NAME, await formatting);
  await Promise.all([formatCache.save().catch(() => undefined), cache.save().catch(() => undefined)]);
  return { files: new Map([...all].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))), releases, diffs };
}

/** Every release of the manifest, loaded and built into its IR, with the milliseconds each took. */
async function loadReleases(
  entries: readonly ReleaseEntry[],
  options: GenerateOptions,
): Promise<{ releases: LoadedRelease[]; loadMs: Map<string, number> }> {
  const releases: LoadedRelease[] = [];
  const seenModules = new Map<string, string>();
  const loadMs = new Map<string, number>();
  for (const entry of entries) {
    const started = performance.now();
    const moduleName = releaseModuleName(entry.release);
    const clash = seenModules.get(moduleName);
    if (clash !== undefined)
      throw new GeneratorError(
        'usage',
        `releases ${clash} and ${entry.release} share the minor version; keep one per minor`,
        { file: displayPath(join(options.displaySpecDir ?? options.specDir, 'releases.json')) },
      );
    seenModules.set(moduleName, entry.release);
    const loaded = await loadReleaseDocument(options.specDir, entry, options.displaySpecDir);
    const target = options.target ?? LEASE_TARGET;
    releases.push({ ...loaded, ir: buildReleaseIr(entry.release, loaded.document, loaded.documentPath, target) });
    loadMs.set(entry.release, performance.now() - started);
  }
  return { releases, loadMs };
}

/**
 * The files of a package of hand-written code besides its src/: the skeletons, and every release's OpenAPI
 * document when its package.json ships openapi/ (the server, which serves them). It depends on what its code
 * imports, at the versions this project's tests ran against.
 */
async function handWrittenPackageFiles(
  folder: PackageFolder,
  sources: ReadonlyMap<string, string>,
  context: {
    ownPackages: ReadonlySet<string>;
    version: string;
    releases: readonly LoadedRelease[];
    irs: readonly ReleaseIr[];
  },
): Promise<Map<string, string>> {
  const imported = importedPackages(sources, context.ownPackages);
  const dependencies = await dependencyRanges(join(PROJECT_ROOT, 'package.json'), imported);
  const files = emitHandWrittenPackageSkeleton(
    { name: folder.name, version: context.version, clientName: PACKAGE_NAME, dir: folder.dir, dependencies },
    context.irs,
  );
  if (shipsFolder(files.get('package.json') ?? '{}', 'openapi'))
    for (const loaded of context.releases) files.set(`openapi/v${loaded.entry.release}.json`, loaded.documentText);
  return files;
}

export const PACKAGE_CHANGELOG_FILE = 'PACKAGE_CHANGELOG.md';

/** The hand-maintained changelog of the client package itself, in its folder of templates/. */
export function packageChangelogPath(templatesDir: string): string {
  return join(templatesDir, PACKAGE_NAME, PACKAGE_CHANGELOG_FILE);
}

/** Whether a rendered package.json lists `folder` in its `files`. */
function shipsFolder(packageJson: string, folder: string): boolean {
  const files: unknown = (JSON.parse(packageJson) as { files?: unknown }).files;
  return Array.isArray(files) && files.includes(folder);
}

export async function readPackageChangelog(templatesDir: string): Promise<string> {
  try {
    return await readFile(packageChangelogPath(templatesDir), 'utf8');
  } catch (cause) {
    throw new GeneratorError(
      'io',
      `cannot read the package changelog: ${(cause as NodeJS.ErrnoException).code ?? String(cause)}`,
      { file: displayPath(packageChangelogPath(templatesDir)) },
    );
  }
}

export async function generate(options: GenerateOptions): Promise<{ files: number }> {
  // The output is checked, or once it differs written, file by file while the rest is still being computed.
  const replacement = await openReplacement(options.outDir);
  try {
    const { files } = await buildPackageFiles({
      ...options,
      onFile: (path, text) => {
        replacement.add(path, text);
        options.onFile?.(path, text);
      },
    });
    await replacement.commit(files);
    return { files: files.size };
  } catch (cause) {
    await replacement.abandon().catch(() => undefined);
    throw cause;
  }
}
