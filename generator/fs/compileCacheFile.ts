import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { CompileCache, CompiledFile } from '../emit/compileDist.js';

/**
 * A CompileCache kept in one JSON file between runs (under .build/, not
 * committed). Entries not used by a run are dropped when it is saved, so the
 * file holds only what the current sources need. A missing or unreadable
 * file is an empty cache: the cache can only save time, never change output.
 */
export async function openCompileCache(file: string): Promise<CompileCache & { save(): Promise<void> }> {
  let previous: Record<string, CompiledFile> = {};
  try {
    const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
    if (parsed !== null && typeof parsed === 'object') previous = parsed as Record<string, CompiledFile>;
  } catch {
    previous = {};
  }
  const used = new Map<string, CompiledFile>();
  return {
    get(key) {
      const hit = previous[key];
      if (hit !== undefined && typeof hit.js === 'string' && typeof hit.dts === 'string') {
        used.set(key, hit);
        return hit;
      }
      return undefined;
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
