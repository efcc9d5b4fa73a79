import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GeneratorError } from './errors.js';
import { readUpstreamDocument, type UpstreamDocument } from './load/readDocument.js';
import { normalizeUpstreamDocument } from './load/normalizeDocument.js';
import { stableJson } from './load/canonicalJson.js';
import { download, findInMirror } from './load/locateUpstream.js';
import { checkRelease } from './ir/releaseNames.js';
import { documentPathFor, MANIFEST_FILE, readManifest, serializeManifest, upstreamUrls, withRelease } from './spec/manifest.js';
import { buildPackageFiles, displayPath, type LoadedRelease } from './generate.js';
import { renderModelTables, renderOperationTables } from './ir/renderTables.js';
import { replaceDirectory, writeFilesAtomically } from './fs/atomicOutput.js';
import { diffSummary } from './diff/renderChangelog.js';
import { scratchPrefix, sweepLeftovers } from './fs/leftovers.js';

/** The staged copy of spec/ lives in the temporary directory as `lease-spec-staging-<pid>-XXXXXX`. */
const SPEC_STAGING_PREFIX = 'lease-spec-staging-';

export interface SpecUpdateOptions {
  readonly release: string;
  readonly from?: string;
  readonly spec?: string;
  readonly specDir: string;
  readonly outDir: string;
  /** Skip regenerating the package (the spec documents are still checked by a dry generation). */
  readonly generate: boolean;
  readonly templatesDir?: string;
  /**
   * Where the golden tables of the release go (`v<release>.operations.md`, `.models.md`, as
   * test/ir/golden-tables.test.ts renders them); undefined writes none.
   */
  readonly goldenDir?: string;
}

export interface SpecUpdateResult {
  readonly release: string;
  readonly source: string;
  readonly contentHash: string;
  readonly changed: boolean;
  /** The API diff against the previous release, in one line (details in generated/CHANGELOG.md). */
  readonly summary: string;
  /** The golden tables written, as paths to show. */
  readonly golden: readonly string[];
}

/** The release's golden tables, rendered as the golden test renders them, so `npm test` passes right after. */
function goldenFiles(releases: readonly LoadedRelease[], release: string): Map<string, string> {
  const loaded = releases.find((r) => r.entry.release === release);
  if (loaded === undefined) return new Map();
  return new Map([
    [`v${release}.operations.md`, renderOperationTables(loaded.ir)],
    [`v${release}.models.md`, renderModelTables(loaded.ir)],
  ]);
}

/**
 * Adds or refreshes one release: ingest → normalise → (dry) generate from a
 * staged copy of spec/ → only then write spec/, the release's golden tables
 * and generated/. Any failure leaves them all untouched.
 */
export async function specUpdate(options: SpecUpdateOptions): Promise<SpecUpdateResult> {
  checkRelease(options.release);
  const manifest = await readManifest(options.specDir);
  const known = manifest.releases.find((r) => r.release === options.release);
  const upstream = await locateSource(options, known?.upstream.swagger);
  const source = upstream.file;
  const normalized = await normalizeUpstreamDocument(upstream, options.release);
  const entry = { release: options.release, document: documentPathFor(options.release), contentHash: normalized.contentHash, upstream: known?.upstream ?? upstreamUrls(options.release) };
  const specFiles = new Map([
    [entry.document, stableJson(normalized.document)],
    [MANIFEST_FILE, serializeManifest(withRelease(manifest, entry))],
  ]);

  await sweepLeftovers(tmpdir(), SPEC_STAGING_PREFIX);
  const staging = await mkdtemp(join(tmpdir(), scratchPrefix(SPEC_STAGING_PREFIX)));
  try {
    await cp(options.specDir, staging, { recursive: true }).catch((cause: NodeJS.ErrnoException) => {
      if (cause.code !== 'ENOENT') throw cause;
    });
    await writeFilesAtomically(staging, specFiles);
    const { files, diffs, releases } = await buildPackageFiles({ specDir: staging, displaySpecDir: options.specDir, outDir: options.outDir, ...(options.templatesDir !== undefined ? { templatesDir: options.templatesDir } : {}) });
    const golden = goldenFiles(releases, options.release);
    const goldenDir = options.goldenDir;
    const previous = await currentContents(options.specDir, [...specFiles.keys()]);
    const previousGolden = goldenDir === undefined ? undefined : await currentContents(goldenDir, [...golden.keys()]);
    await writeFilesAtomically(options.specDir, specFiles);
    try {
      if (goldenDir !== undefined) await writeFilesAtomically(goldenDir, golden);
      if (options.generate) await replaceDirectory(options.outDir, files);
    } catch (cause) {
      // spec/, the golden tables and generated/ change together or not at all.
      await restoreContents(options.specDir, previous).catch(() => undefined);
      if (goldenDir !== undefined && previousGolden !== undefined) await restoreContents(goldenDir, previousGolden).catch(() => undefined);
      throw cause;
    }
    const diff = diffs.find((d) => d.to === options.release);
    return {
      release: options.release,
      source: source.startsWith('https://') ? source : displayPath(source),
      contentHash: normalized.contentHash,
      changed: known?.contentHash !== normalized.contentHash,
      summary: diff === undefined ? 'oldest release' : diffSummary(diff),
      golden: goldenDir === undefined ? [] : [...golden.keys()].map((name) => displayPath(join(goldenDir, name))),
    };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

async function locateSource(options: SpecUpdateOptions, knownUrl: string | undefined): Promise<UpstreamDocument> {
  if (options.spec !== undefined) return readUpstreamDocument(options.spec);
  if (options.from !== undefined) return readUpstreamDocument(await findInMirror(options.from, options.release));
  if (knownUrl === undefined) {
    throw new GeneratorError('unknown-release', `unknown release ${options.release}: it is not in ${MANIFEST_FILE}; to add it, give its document with --from DIR or --spec FILE`, {
      file: displayPath(join(options.specDir, MANIFEST_FILE)),
    });
  }
  return download(knownUrl);
}

async function currentContents(dir: string, paths: readonly string[]): Promise<Map<string, string | undefined>> {
  const contents = new Map<string, string | undefined>();
  for (const path of paths) contents.set(path, await readFile(join(dir, path), 'utf8').catch(() => undefined));
  return contents;
}

async function restoreContents(dir: string, contents: ReadonlyMap<string, string | undefined>): Promise<void> {
  const existed = new Map([...contents].filter((entry): entry is [string, string] => entry[1] !== undefined));
  await writeFilesAtomically(dir, existed);
  for (const [path, text] of contents) if (text === undefined) await rm(join(dir, path), { force: true });
}
