import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, treeDigest } from '../../helpers/cli.js';
import { PROJECT_ROOT } from '../../helpers/project.js';

/** `npm run generate -- --out DIR` exactly as npm runs it: through launch.mjs, on this Node. */
function generateThroughLauncher(out: string): { status: number | null; stderr: string } {
  const result = spawnSync(
    process.execPath,
    [join(PROJECT_ROOT, 'generator', 'cli', 'launch.mjs'), 'generate', '--out', out],
    { cwd: PROJECT_ROOT, encoding: 'utf8', timeout: 120_000 },
  );
  return { status: result.status, stderr: result.stderr };
}

const GARBAGE = 'not V8 code cache data';

describe('npm run generate start-up cache', () => {
  it('a corrupt V8 code cache under .build/ changes nothing: the run succeeds with the same output and rewrites the cache', () => {
    const first = join(tempDir('lease-launch-a-'), 'generated');
    const warm = generateThroughLauncher(first);
    expect(warm.status, warm.stderr).toBe(0);
    const cacheDir = join(PROJECT_ROOT, '.build', 'v8-code-cache');
    // Node ≥ 22.1 keeps its own layout (a directory per Node version); Node 20 gets the launcher's .bin files.
    const entries = readdirSync(cacheDir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && !entry.name.endsWith('.tmp'))
      .map((entry) => join(entry.parentPath, entry.name).slice(cacheDir.length + 1));
    expect(entries.length).toBeGreaterThan(0);
    for (const name of entries) writeFileSync(join(cacheDir, name), GARBAGE);

    const second = join(tempDir('lease-launch-b-'), 'generated');
    const cold = generateThroughLauncher(second);
    expect(cold.status, cold.stderr).toBe(0);
    expect(cold.stderr).toBe('');
    expect(treeDigest(second)).toBe(treeDigest(first));
    // The launcher's own hook rewrites what V8 rejected; Node's built-in cache decides for itself.
    if (typeof Reflect.get(Module, 'enableCompileCache') !== 'function') {
      for (const name of entries) expect(readFileSync(join(cacheDir, name), 'utf8')).not.toBe(GARBAGE);
    }
  });
});
