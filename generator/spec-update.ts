import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { GeneratorError } from './errors.js';
import { readUpstreamDocument, type UpstreamDocument } from './load/read-document.js';
import { normalizeUpstreamDocument } from './load/normalize-document.js';
import { stableJson } from './load/canonical-json.js';
import { download, findInMirror } from './load/locate-upstream.js';
import { checkRelease, releaseSubpath } from './shared/release-names.js';
import { displayPath, LEASE_TARGET, PACKAGE_NAME, PACKAGE_VERSION } from './config.js';
import {
  bumpVersion,
  documentPathFor,
  MANIFEST_FILE,
  readManifest,
  serializeManifest,
  upstreamUrls,
  withRelease,
} from './manifest/manifest.js';
import { buildPackageFiles, type LoadedRelease } from './generate.js';
import { renderModelTables, renderOperationTables } from './ir/render-tables.js';
import { replaceDirectory, writeFilesAtomically } from './fs/atomic-output.js';
import { diffSummary } from './diff/render-changelog.js';
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
   * test/generator/ir/golden-tables.test.ts renders them); undefined writes none.
   */
  readonly goldenDir?: string;
  /** The package's own changelog, which gets an entry when the version moves; undefined leaves it alone. */
  readonly packageChangelog?: string;
}

export interface SpecUpdateResult {
  readonly release: string;
  readonly source: string;
  readonly contentHash: string;
  readonly changed: boolean;
  /** The API diff against the previous release, in one line (details in generated/k8s-lease-client/CHANGELOG.md). */
  readonly summary: string;
  /** The golden tables written, as paths to show. */
  readonly golden: readonly string[];
  /** The packages' version after the update, and whether it moved. */
  readonly packageVersion: string;
  readonly versionBumped: boolean;
}

/** A new entry at the top of the package's changelog, above the newest one (after the introduction). */
export function withChangelogEntry(changelog: string, version: string, lines: readonly string[]): string {
  const entry = `## ${version}\n\n${lines.map((line) => `- ${line}`).join('\n')}\n\n`;
  const first = changelog.search(/^## /m);
  return first === -1
    ? `${changelog.trimEnd()}\n\n${entry}`
    : changelog.slice(0, first) + entry + changelog.slice(first);
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
  const normalized = await normalizeUpstreamDocument(upstream, options.release, LEASE_TARGET);
  const entry = {
    release: options.release,
    document: documentPathFor(options.release),
    contentHash: normalized.contentHash,
    upstream: known?.upstream ?? upstreamUrls(options.release),
  };
  // The version moves as the package README promises: a new release is a minor, a changed document a patch.
  const bump = known === undefined ? 'minor' : known.contentHash !== normalized.contentHash ? 'patch' : undefined;
  const currentVersion = manifest.packageVersion ?? PACKAGE_VERSION;
  const packageVersion = bump === undefined ? currentVersion : bumpVersion(currentVersion, bump);
  const specFiles = new Map([
    [entry.document, stableJson(normalized.document)],
    [
      MANIFEST_FILE,
      serializeManifest(withRelease(bump === undefined ? manifest : { ...manifest, packageVersion }, entry)),
    ],
  ]);
  const changelogFile = options.packageChangelog;
  const changelog =
    changelogFile === undefined || bump === undefined
      ? undefined
      : withChangelogEntry(await readChangelog(changelogFile), packageVersion, [
          bump === 'minor'
            ? `Kubernetes ${options.release} added: \`${PACKAGE_NAME}/${releaseSubpath(options.release).slice(2)}\`, now also the root export. Its API changes are in CHANGELOG.md.`
            : `Kubernetes ${options.release}'s document refreshed (${normalized.contentHash}). Its API changes are in CHANGELOG.md.`,
        ]);

  await sweepLeftovers(tmpdir(), SPEC_STAGING_PREFIX);
  const staging = await mkdtemp(join(tmpdir(), scratchPrefix(SPEC_STAGING_PREFIX)));
  try {
    await cp(options.specDir, staging, { recursive: true }).catch((cause: NodeJS.ErrnoException) => {
      if (cause.code !== 'ENOENT') throw cause;
    });
    await writeFilesAtomically(staging, specFiles);
    const { files, diffs, releases } = await buildPackageFiles({
      specDir: staging,
      displaySpecDir: options.specDir,
      outDir: options.outDir,
      ...(options.templatesDir !== undefined ? { templatesDir: options.templatesDir } : {}),
      ...(changelog !== undefined ? { packageChangelog: changelog } : {}),
    });
    const golden = goldenFiles(releases, options.release);
    const goldenDir = options.goldenDir;
    const previous = await currentContents(options.specDir, [...specFiles.keys()]);
    const previousGolden = goldenDir === undefined ? undefined : await currentContents(goldenDir, [...golden.keys()]);
    const changelogWrite =
      changelogFile === undefined || changelog === undefined
        ? undefined
        : { dir: dirname(changelogFile), files: new Map([[basename(changelogFile), changelog]]) };
    const previousChangelog =
      changelogWrite === undefined
        ? undefined
        : await currentContents(changelogWrite.dir, [...changelogWrite.files.keys()]);
    await writeFilesAtomically(options.specDir, specFiles);
    try {
      if (goldenDir !== undefined) await writeFilesAtomically(goldenDir, golden);
      if (changelogWrite !== undefined) await writeFilesAtomically(changelogWrite.dir, changelogWrite.files);
      if (options.generate) await replaceDirectory(options.outDir, files);
    } catch (cause) {
      // spec/, the golden tables and generated/ change together or not at all.
      await restoreContents(options.specDir, previous).catch(() => undefined);
      if (goldenDir !== undefined && previousGolden !== undefined)
        await restoreContents(goldenDir, previousGolden).catch(() => undefined);
      if (changelogWrite !== undefined && previousChangelog !== undefined)
        await restoreContents(changelogWrite.dir, previousChangelog).catch(() => undefined);
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
      packageVersion,
      versionBumped: bump !== undefined,
    };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

async function locateSource(options: SpecUpdateOptions, knownUrl: string | undefined): Promise<UpstreamDocument> {
  if (options.spec !== undefined) return readUpstreamDocument(options.spec);
  if (options.from !== undefined)
    return readUpstreamDocument(await findInMirror(options.from, options.release, LEASE_TARGET));
  if (knownUrl === undefined) {
    throw new GeneratorError(
      'unknown-release',
      `unknown release ${options.release}: it is not in ${MANIFEST_FILE}; to add it, give its document with --from DIR or --spec FILE`,
      {
        file: displayPath(join(options.specDir, MANIFEST_FILE)),
      },
    );
  }
  return download(knownUrl);
}

async function readChangelog(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (cause) {
    throw new GeneratorError(
      'io',
      `cannot read the package changelog: ${(cause as NodeJS.ErrnoException).code ?? String(cause)}`,
      { file: displayPath(file) },
    );
  }
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
