import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SPEC_DIR, TEMPLATES_DIR } from '../../generator/config.js';
import { listPackageFolders } from '../../generator/fs/package-folders.js';
import { generate } from '../../generator/generate.js';
import { recordGoals } from '../lib/goal.js';
import { goalsOf } from '../lib/goals.js';
import { environment, type BenchContext, type BenchResult } from '../lib/harness.js';

interface PackSummary {
  readonly size: number;
  readonly unpackedSize: number;
  readonly entryCount: number;
}

/** `npm pack --dry-run --json`: what `npm publish` would put in the tarball, without writing one. */
function packSummary(dir: string): PackSummary {
  const result = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: dir, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`npm pack --dry-run in ${dir} failed: ${result.stderr}`);
  const [summary] = JSON.parse(result.stdout) as PackSummary[];
  if (summary === undefined) throw new Error(`npm pack --dry-run in ${dir} printed no package`);
  return summary;
}

/**
 * Packed and unpacked size and file count of each generated package, as `npm publish` would ship it,
 * from a fresh generation into a temporary directory (the committed generated/ has no dist/). Sizes do
 * not depend on the machine, so `--quick` measures the same thing.
 */
export async function benchPackageSize(_context: BenchContext): Promise<BenchResult> {
  const out = join(mkdtempSync(join(tmpdir(), 'lease-package-size-')), 'generated');
  try {
    await generate({ specDir: DEFAULT_SPEC_DIR, outDir: out });
    const figures: Record<string, number> = {};
    for (const name of listPackageFolders(TEMPLATES_DIR).map((folder) => folder.name)) {
      const summary = packSummary(join(out, name));
      figures[`${name} tarball bytes`] = summary.size;
      figures[`${name} unpacked bytes`] = summary.unpackedSize;
      figures[`${name} files`] = summary.entryCount;
    }
    return {
      name: 'package-size',
      command: 'npm run bench -- package-size',
      environment: environment(),
      figures,
      // The client's tarball before the goal was set: 2.5 MB unpacked, 367 files (shipping src/ and OpenAPI documents).
      goals: recordGoals(goalsOf('package-size'), figures, {}),
    };
  } finally {
    rmSync(join(out, '..'), { recursive: true, force: true });
  }
}
