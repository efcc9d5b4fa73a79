import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, constants, mkdtempSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GeneratorError } from '../errors.js';
import type { Cache } from '../fs/cache-file.js';
import { startFileWriter, type FileWriter } from '../fs/file-writer.js';
import { scratchPrefix, sweepLeftovers } from '../fs/leftovers.js';

/**
 * The formatter settings of the project's biome.jsonc. `npm run lint` checks generated/ against that file, so
 * the two cannot drift apart unnoticed.
 */
export const FORMATTER_CONFIG = {
  formatter: { enabled: true, indentStyle: 'space', indentWidth: 2, lineWidth: 120 },
  javascript: { formatter: { quoteStyle: 'single' } },
  linter: { enabled: false },
  assist: { enabled: false },
} as const;

export const FORMAT_SCRATCH_PREFIX = 'lease-format-';

const requireFromHere = createRequire(import.meta.url);
const biomeVersion = (requireFromHere('@biomejs/biome/package.json') as { version: string }).version;

export function formatCacheKey(path: string, text: string): string {
  return createHash('sha256')
    .update(`${biomeVersion}\0${JSON.stringify(FORMATTER_CONFIG)}\0${path}\0`)
    .update(text)
    .digest('hex');
}

export function isFormattedText(value: unknown): value is string {
  return typeof value === 'string';
}

/**
 * The emitted TypeScript as Biome formats it, so generated code reads like the project's own (ts-morph prints
 * long signatures on one line). Files already formatted in an earlier run come from the cache; the rest are
 * formatted by one Biome process over a scratch directory, which keeps a run with changes to ~150 ms. That
 * process is started before this function returns, so the caller can do other work while it runs.
 */
export function formatSources(
  sources: ReadonlyMap<string, string>,
  cache?: Cache<string>,
): Promise<Map<string, string>> {
  const formatted = new Map<string, string>();
  const misses = new Map<string, string>();
  for (const [path, text] of sources) {
    const hit = cache?.get(formatCacheKey(path, text));
    if (hit === undefined) misses.set(path, text);
    else formatted.set(path, hit);
  }
  const formatting = misses.size > 0 ? formatWithBiome(misses) : Promise.resolve(new Map<string, string>());
  return formatting.then((results) => {
    for (const [path, text] of results) {
      cache?.set(formatCacheKey(path, misses.get(path)!), text);
      formatted.set(path, text);
    }
    return new Map([...sources.keys()].map((path) => [path, formatted.get(path)!]));
  });
}

/**
 * Writes the scratch directory from a worker thread (file-writer.ts: creating ~100 files costs this machine's
 * ext4 ~30–80 ms of kernel time, which the main thread spends rendering the skeletons instead), then runs Biome
 * over it; the returned promise waits for both.
 */
function formatWithBiome(sources: ReadonlyMap<string, string>): Promise<Map<string, string>> {
  const base = scratchBase();
  let dir: string;
  try {
    dir = mkdtempSync(join(base, scratchPrefix(FORMAT_SCRATCH_PREFIX)));
  } catch (cause) {
    return Promise.reject(cause);
  }
  let writer: FileWriter;
  try {
    writer = startFileWriter();
  } catch (cause) {
    return rm(dir, { recursive: true, force: true }).then(() => Promise.reject(cause));
  }
  writer.write(join(dir, 'biome.json'), JSON.stringify(FORMATTER_CONFIG));
  for (const [path, text] of sources) writer.write(join(dir, 'src', path), text);
  const biome = writer
    .flush()
    .finally(() => writer.close())
    .then(() => runBiome(dir));
  const sweeping = sweepLeftovers(base, FORMAT_SCRATCH_PREFIX);
  return (async () => {
    try {
      await biome;
      const result = new Map<string, string>();
      for (const path of sources.keys()) result.set(path, await readFile(join(dir, 'src', path), 'utf8'));
      return result;
    } finally {
      await sweeping;
      await rm(dir, { recursive: true, force: true });
    }
  })();
}

/**
 * Where the scratch directory goes: Linux's memory-backed /dev/shm when it is there and TMPDIR does not say
 * otherwise, else the temporary directory. The ~100 files live for a few tens of milliseconds, and on a disk
 * file system a burst of creations right after another is slow (this machine's ext4: 60 ms for 900 small files,
 * then 700 ms for the next 900, as a cold `npm run generate` writes its output beside them).
 */
function scratchBase(): string {
  if (process.platform !== 'linux' || process.env['TMPDIR'] !== undefined) return tmpdir();
  try {
    accessSync('/dev/shm', constants.W_OK);
    return '/dev/shm';
  } catch {
    return tmpdir();
  }
}

/**
 * Biome's native binary for this platform, run directly: its npm wrapper (bin/biome) is a Node process that
 * spawns `ldd --version` and then the binary, ~3 process starts where one does. Undefined where the wrapper
 * must choose (BIOME_BINARY set, a platform not listed, the package missing); musl systems, where the glibc
 * build cannot start, fall back to the wrapper when the spawn fails.
 */
function biomeBinary(): string | undefined {
  if (process.env['BIOME_BINARY'] !== undefined) return undefined;
  const name = { linux: 'linux', darwin: 'darwin', win32: 'win32' }[process.platform as string];
  if (name === undefined || (process.arch !== 'x64' && process.arch !== 'arm64')) return undefined;
  try {
    return requireFromHere.resolve(`@biomejs/cli-${name}-${process.arch}/biome${name === 'win32' ? '.exe' : ''}`);
  } catch {
    return undefined;
  }
}

const BIOME_ARGS = ['format', '--write', '--no-errors-on-unmatched', 'src'];

function runBiome(dir: string): Promise<void> {
  const binary = biomeBinary();
  if (binary === undefined) return runBiomeWith(process.execPath, [wrapperPath(), ...BIOME_ARGS], dir);
  return runBiomeWith(binary, BIOME_ARGS, dir).catch((cause: unknown) => {
    // The binary did not start (e.g. ENOENT for a missing loader on musl): let the wrapper pick the build.
    if (cause instanceof GeneratorError) throw cause;
    return runBiomeWith(process.execPath, [wrapperPath(), ...BIOME_ARGS], dir);
  });
}

function wrapperPath(): string {
  return requireFromHere.resolve('@biomejs/biome/bin/biome');
}

/** Rejects with a GeneratorError when Biome ran and failed, with the spawn error when it did not start. */
function runBiomeWith(file: string, args: readonly string[], dir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { cwd: dir, maxBuffer: 16 * 1024 * 1024 }, (error, _stdout, stderr) => {
      if (error === null) return resolve();
      if (typeof error.code === 'string') return reject(error);
      // Biome names the file and the syntax error; the first such line is the useful one.
      const detail = stderr.split('\n').find((line) => /\S/.test(line) && !/^\s*[×!i]\s*$/.test(line)) ?? error.message;
      reject(new GeneratorError('io', `biome could not format the emitted code: ${detail.trim()}`));
    });
  });
}
