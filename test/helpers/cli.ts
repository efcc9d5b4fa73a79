import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from './project.js';
import { runProcess } from './run-process.js';

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs one of the generator's commands the way `npm run` does, in a child process (not blocking the worker). */
export async function runCommand(
  script: 'spec-update' | 'generate' | 'fixtures-update',
  args: readonly string[],
): Promise<CliResult> {
  const result = await runProcess(
    process.execPath,
    ['--import', 'tsx', join(PROJECT_ROOT, 'generator', 'cli', `${script}.ts`), ...args],
    { cwd: PROJECT_ROOT, timeoutMs: 120_000 },
  );
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A digest of every file below a directory (names and bytes), to prove a failed command touched nothing. */
export function treeDigest(dir: string): string {
  const hash = createHash('sha256');
  const walk = (current: string, prefix: string): void => {
    let names: string[];
    try {
      names = readdirSync(current).sort();
    } catch {
      hash.update('<missing>');
      return;
    }
    for (const name of names) {
      const path = join(current, name);
      if (statSync(path).isDirectory()) walk(path, `${prefix}${name}/`);
      else hash.update(`${prefix}${name}\0`).update(readFileSync(path)).update('\0');
    }
  };
  walk(dir, '');
  return hash.digest('hex');
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A scratch copy of the committed spec/ directory. */
export function copyOfSpecDir(): string {
  const dir = tempDir('lease-spec-');
  cpSync(join(PROJECT_ROOT, 'spec'), dir, { recursive: true });
  return dir;
}
