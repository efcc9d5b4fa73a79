import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { lstat, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { GeneratorError } from '../errors.js';
import { startFileWriter, type FileWriter } from './file-writer.js';
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
  const replacement = await openReplacement(target);
  return replacement.commit(files);
}

/** A replaceDirectory whose files may be handed over one by one, while the caller still computes the rest. */
export interface DirectoryReplacement {
  /** One file of the new content. Checked against the old directory, or written to staging once they differ. */
  add(relative: string, content: string | Uint8Array): void;
  /** The whole new content (a superset of what was added, with the same bytes): swaps it in unless it is already there. */
  commit(files: ReadonlyMap<string, string | Uint8Array>): Promise<void>;
  /** Gives up: removes what was staged, leaves the directory as it was. */
  abandon(): Promise<void>;
}

/**
 * Starts replacing `target`. Files added are compared with the old directory (reads only) until the first
 * difference, or from the start when there is no old directory; from then on they are written to the staging
 * directory at once, so that writing overlaps the caller's work on the files still to come.
 */
export async function openReplacement(target: string): Promise<DirectoryReplacement> {
  const parent = dirname(target);
  const prefix = `.${basename(target)}.staging-`;
  await sweepLeftovers(parent, prefix);
  const added = new Map<string, string | Uint8Array>();
  const checks: Array<Promise<void>> = [];
  let staging: { dir: string; writer: FileWriter } | { failure: unknown } | undefined;
  let changed = !(await isDirectory(target));

  const stagingDirectory = (): { dir: string; writer: FileWriter } => {
    // Made only now: a run that fails before writing anything leaves no trace.
    if (staging === undefined) {
      // The thread first: if it cannot start, no directory is left behind.
      let writer: FileWriter | undefined;
      try {
        writer = startFileWriter();
        mkdirSync(parent, { recursive: true });
        staging = { dir: makeStagingDirectory(join(parent, scratchPrefix(prefix))), writer };
      } catch (failure) {
        void writer?.close();
        staging = { failure };
      }
    }
    if ('failure' in staging) throw staging.failure;
    return staging;
  };
  const write = (relative: string, content: string | Uint8Array): void => {
    // A failure is recorded here and reported by commit: an add does not throw into the caller's work.
    if (staging !== undefined && 'failure' in staging) return;
    try {
      const { dir, writer } = stagingDirectory();
      writer.write(join(dir, relative), content);
    } catch {
      // stagingDirectory recorded it.
    }
  };
  const markChanged = (): void => {
    if (changed) return;
    changed = true;
    for (const [relative, content] of added) write(relative, content);
  };
  const compare = async (relative: string, content: string | Uint8Array): Promise<void> => {
    // Any doubt (missing, unreadable, a directory) is a difference.
    const same = await readFile(join(target, relative)).then(
      (old) => Buffer.from(content).equals(old),
      () => false,
    );
    if (!same) markChanged();
  };
  const add = (relative: string, content: string | Uint8Array): void => {
    added.set(relative, content);
    if (changed) write(relative, content);
    else checks.push(compare(relative, content));
  };
  const abandon = async (): Promise<void> => {
    if (staging === undefined || 'failure' in staging) return;
    await staging.writer.close();
    await rm(staging.dir, { recursive: true, force: true });
  };
  const commit = async (files: ReadonlyMap<string, string | Uint8Array>): Promise<void> => {
    for (const [relative, content] of files) if (!added.has(relative)) add(relative, content);
    await Promise.all(checks);
    // Everything added matched: the old directory is current unless it holds anything more.
    if (!changed && !(await holdsOnly(target, files))) markChanged();
    if (!changed) return;
    const { dir, writer } = stagingDirectory();
    try {
      await writer.flush();
    } finally {
      await writer.close();
    }
    await swapIn(dir, target);
  };
  return {
    add,
    abandon,
    commit: (files) =>
      asIoError(target, () =>
        commit(files).catch(async (cause: unknown) => {
          await abandon().catch(() => undefined);
          throw cause;
        }),
      ),
  };
}

/** Renames the staged directory onto `target`, the old one aside first and removed after, or put back on failure. */
async function swapIn(staging: string, target: string): Promise<void> {
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
}

async function isDirectory(path: string): Promise<boolean> {
  return lstat(path).then(
    (stats) => stats.isDirectory(),
    () => false,
  );
}

/** True when `dir` holds regular files under exactly these names and nothing else (no other file, directory or link). */
async function holdsOnly(dir: string, files: ReadonlyMap<string, unknown>): Promise<boolean> {
  try {
    const present = await regularFiles(dir, '');
    return present !== undefined && present.length === files.size && present.every((relative) => files.has(relative));
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
function makeStagingDirectory(prefix: string): string {
  for (let attempt = 0; ; attempt++) {
    const suffix = [...randomBytes(6)].map((byte) => ALPHABET[byte % ALPHABET.length]).join('');
    try {
      mkdirSync(prefix + suffix);
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
