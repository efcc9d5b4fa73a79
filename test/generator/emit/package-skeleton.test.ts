// Every package's manifest refuses `npm pack` before `npm run generate` has built its dist/ (prepackCheck in
// generator/emit/package-skeleton.ts): one line naming the package and what to run, and no tarball.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/cli.js';
import { PROJECT_ROOT } from '../../helpers/project.js';

const PACKAGES = ['k8s-lease-client', 'k8s-lease-api-server', 'k8s-lease-client-node'];

/** A folder holding only the package's committed manifest: a fresh clone's package folder, less its README. */
function cloneOfManifest(name: string): string {
  const dir = tempDir(`prepack-${name}-`);
  copyFileSync(join(PROJECT_ROOT, 'generated', name, 'package.json'), join(dir, 'package.json'));
  return dir;
}

function pack(dir: string): { status: number | null; stderr: string; tarballs: string[] } {
  const out = join(dir, 'out');
  mkdirSync(out);
  const run = spawnSync('npm', ['pack', '--pack-destination', out, '--loglevel=silent'], {
    cwd: dir,
    encoding: 'utf8',
  });
  return { status: run.status, stderr: run.stderr, tarballs: readdirSync(out) };
}

describe('npm pack before npm run generate', () => {
  it.each(PACKAGES)('%s: fails with one line saying to run npm run generate, and writes no tarball', (name) => {
    const result = pack(cloneOfManifest(name));
    expect(result.status).not.toBe(0);
    expect(result.stderr.trim()).toBe(
      `${name}: dist/ is not built, so there is nothing to pack: run npm run generate in the repository first`,
    );
    expect(result.tarballs).toEqual([]);
  });

  it.each(PACKAGES)('%s: packs once dist/ is built', (name) => {
    const dir = cloneOfManifest(name);
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'dist', 'index.js'), 'export {};\n');
    const result = pack(dir);
    expect(result.status, result.stderr).toBe(0);
    expect(result.tarballs).toEqual([expect.stringMatching(new RegExp(`^${name}-\\d+\\.\\d+\\.\\d+\\.tgz$`))]);
  });
});
