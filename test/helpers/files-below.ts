import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Every file below `dir` (absolute paths), not descending into folders named in `skip` (installs, build output). */
export function filesBelow(dir: string, skip: ReadonlySet<string>): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return skip.has(entry.name) ? [] : filesBelow(path, skip);
    return entry.isFile() ? [path] : [];
  });
}
