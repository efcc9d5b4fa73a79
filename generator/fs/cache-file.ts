import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** A digest-keyed cache of derived text (compiled files, formatted sources). */
export interface Cache<T> {
  get(key: string): T | undefined;
  set(key: string, value: T): void;
}

/**
 * A Cache kept in one JSON file between runs (under .build/, not committed). Entries not used by a run are
 * dropped when it is saved, so the file holds only what the current sources need. A missing or unreadable
 * file, or an entry of the wrong shape, is a miss: the cache can only save time, never change output.
 */
export async function openCacheFile<T>(
  file: string,
  isValue: (value: unknown) => value is T,
): Promise<Cache<T> & { save(): Promise<void> }> {
  let previous: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
    if (parsed !== null && typeof parsed === 'object') previous = parsed as Record<string, unknown>;
  } catch {
    previous = {};
  }
  const used = new Map<string, T>();
  return {
    get(key) {
      const hit = Object.hasOwn(previous, key) ? previous[key] : undefined;
      if (!isValue(hit)) return undefined;
      used.set(key, hit);
      return hit;
    },
    set(key, value) {
      used.set(key, value);
    },
    async save() {
      await mkdir(dirname(file), { recursive: true });
      const temporary = `${file}.${process.pid}.tmp`;
      await writeFile(temporary, JSON.stringify(Object.fromEntries([...used].sort(([a], [b]) => (a < b ? -1 : 1)))));
      await rename(temporary, file);
    },
  };
}
