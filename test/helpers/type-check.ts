import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { typeCheck } from '../generator/emit/type-check.js';

/** Type-checks every .ts file below a directory under the project's strict options; returns the diagnostics as lines. */
export function typeCheckDirectory(dir: string): string[] {
  const files: string[] = [];
  const walk = (current: string): void => {
    for (const name of readdirSync(current)) {
      const path = join(current, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (path.endsWith('.ts') && !path.endsWith('.d.ts')) files.push(path);
    }
  };
  walk(dir);
  return [...typeCheck(dir, files).messages];
}
