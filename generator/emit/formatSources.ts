import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { GeneratorError } from '../errors.js';
import type { Cache } from '../fs/cacheFile.js';
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
 * formatted by one Biome process over a scratch directory, which keeps a run with changes to ~150 ms.
 */
export async function formatSources(
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
  if (misses.size > 0) {
    for (const [path, text] of await formatWithBiome(misses)) {
      cache?.set(formatCacheKey(path, misses.get(path)!), text);
      formatted.set(path, text);
    }
  }
  return new Map([...sources.keys()].map((path) => [path, formatted.get(path)!]));
}

async function formatWithBiome(sources: ReadonlyMap<string, string>): Promise<Map<string, string>> {
  await sweepLeftovers(tmpdir(), FORMAT_SCRATCH_PREFIX);
  const dir = await mkdtemp(join(tmpdir(), scratchPrefix(FORMAT_SCRATCH_PREFIX)));
  try {
    await writeFile(join(dir, 'biome.json'), JSON.stringify(FORMATTER_CONFIG));
    for (const [path, text] of sources) {
      await mkdir(dirname(join(dir, 'src', path)), { recursive: true });
      await writeFile(join(dir, 'src', path), text);
    }
    await runBiome(dir);
    const result = new Map<string, string>();
    for (const path of sources.keys()) result.set(path, await readFile(join(dir, 'src', path), 'utf8'));
    return result;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function runBiome(dir: string): Promise<void> {
  const bin = requireFromHere.resolve('@biomejs/biome/bin/biome');
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [bin, 'format', '--write', '--no-errors-on-unmatched', 'src'],
      { cwd: dir, maxBuffer: 16 * 1024 * 1024 },
      (error, _stdout, stderr) => {
        if (error === null) return resolve();
        // Biome names the file and the syntax error; the first such line is the useful one.
        const detail =
          stderr.split('\n').find((line) => /\S/.test(line) && !/^\s*[×!i]\s*$/.test(line)) ?? error.message;
        reject(new GeneratorError('io', `biome could not format the emitted code: ${detail.trim()}`));
      },
    );
  });
}
