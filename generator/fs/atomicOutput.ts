import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { GeneratorError } from '../errors.js';
import { scratchPrefix, sweepLeftovers } from './leftovers.js';

/**
 * Replaces a whole directory with new content so that a failure at any
 * point leaves the old directory as it was: everything is written to a
 * sibling temporary directory first, then swapped in by rename. A directory
 * that already holds exactly that content is left alone (a regeneration with
 * no change writes nothing, and file times stay, so watchers and incremental
 * builds see no change).
 */
export async function replaceDirectory(target: string, files: ReadonlyMap<string, string | Uint8Array>): Promise<void> {
  return asIoError(target, () => swapInDirectory(target, files));
}

async function swapInDirectory(target: string, files: ReadonlyMap<string, string | Uint8Array>): Promise<void> {
  const parent = dirname(target);
  await mkdir(parent, { recursive: true });
  const prefix = `.${basename(target)}.staging-`;
  await sweepLeftovers(parent, prefix);
  if (await holdsExactly(target, files)) return;
  const staging = await makeStagingDirectory(join(parent, scratchPrefix(prefix)));
  try {
    await writeFiles(staging, files);
    const retired = `${staging}.old`;
    let hadTarget = true;
    try {
      await rename(target, retired);
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code !== 'ENOENT') throw cause;
      hadTarget = false;
    }
    try {
      await rename(staging, target);
    } catch (cause) {
      if (hadTarget) await rename(retired, target);
      throw cause;
    }
    // The new content is in place: failing to clear the old copy away is not a failed run.
    if (hadTarget) await rm(retired, { recursive: true, force: true }).catch(() => undefined);
  } catch (cause) {
    await rm(staging, { recursive: true, force: true });
    throw cause;
  }
}

/** True when `dir` holds these files and nothing else (no other file, directory or link), byte for byte. Any doubt is false. */
async function holdsExactly(dir: string, files: ReadonlyMap<string, string | Uint8Array>): Promise<boolean> {
  try {
    const present = await regularFiles(dir, '');
    if (present === undefined || present.length !== files.size || present.some((relative) => !files.has(relative)))
      return false;
    const same = await Promise.all(
      [...files].map(async ([relative, content]) => Buffer.from(content).equals(await readFile(join(dir, relative)))),
    );
    return same.every(Boolean);
  } catch {
    return false;
  }
}

/** Relative paths (with `/`) of the regular files under `dir`; undefined if anything else is there, empty directories included. */
async function regularFiles(dir: string, prefix: string): Promise<string[] | undefined> {
  const found: string[] = [];
  const entries = await readdir(dir, { withFileTypes: true });
  if (entries.length === 0 && prefix !== '') return undefined;
  for (const entry of entries) {
    const relative = prefix + entry.name;
    if (entry.isFile()) found.push(relative);
    else if (entry.isDirectory()) {
      const nested = await regularFiles(join(dir, entry.name), `${relative}/`);
      if (nested === undefined) return undefined;
      found.push(...nested);
    } else return undefined;
  }
  return found;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * mkdtemp's naming, but made by plain mkdir: mkdtemp creates mode 0700, which the rename would carry over to
 * the target, while mkdir gives the umask's modes, as any directory the user makes.
 */
async function makeStagingDirectory(prefix: string): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const suffix = [...randomBytes(6)].map((byte) => ALPHABET[byte % ALPHABET.length]).join('');
    try {
      await mkdir(prefix + suffix);
      return prefix + suffix;
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 10) throw cause;
    }
  }
}

/** Writes several files inside an existing directory, each through a temporary file and a rename. */
export async function writeFilesAtomically(root: string, files: ReadonlyMap<string, string>): Promise<void> {
  return asIoError(root, () => stageAndRename(root, files));
}

async function stageAndRename(root: string, files: ReadonlyMap<string, string>): Promise<void> {
  const staged: Array<[string, string]> = [];
  try {
    for (const [relative, content] of files) {
      const path = join(root, relative);
      await mkdir(dirname(path), { recursive: true });
      const temporary = `${path}.tmp-${process.pid}`;
      await writeFile(temporary, content);
      staged.push([temporary, path]);
    }
    for (const [temporary, path] of staged) await rename(temporary, path);
  } catch (cause) {
    await Promise.all(staged.map(([temporary]) => rm(temporary, { force: true })));
    throw cause;
  }
}

async function writeFiles(root: string, files: ReadonlyMap<string, string | Uint8Array>): Promise<void> {
  const dirs = new Set<string>();
  for (const relative of files.keys()) dirs.add(dirname(join(root, relative)));
  for (const dir of [...dirs].sort()) await mkdir(dir, { recursive: true });
  await Promise.all([...files].map(([relative, content]) => writeFile(join(root, relative), content)));
}

/** A file-system failure while writing output is bad news for the user, not a bug: one line, exit 2. */
async function asIoError<T>(target: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === undefined) throw cause;
    throw new GeneratorError('io', `cannot write output: ${(cause as Error).message}`, { file: target });
  }
}
