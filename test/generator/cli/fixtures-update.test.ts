import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommand, tempDir, treeDigest } from '../../helpers/cli.js';
import { manifestReleases, UPSTREAM_FIXTURES } from '../../helpers/project.js';

/**
 * `npm run fixtures:update -- --from DIR` rebuilds test/fixtures/upstream. The committed fixtures are
 * themselves a valid mirror, so rebuilding from them must give them back unchanged.
 */
describe('npm run fixtures:update', () => {
  it('rebuilt from the committed fixtures, writes exactly the committed fixtures', async () => {
    const out = join(tempDir('lease-fixtures-'), 'upstream');
    const result = await runCommand('fixtures-update', ['--from', UPSTREAM_FIXTURES, '--out', out]);
    expect(result.status, result.stderr).toBe(0);
    for (const { release, contentHash } of manifestReleases()) {
      expect(result.stdout).toContain(`${release.padEnd(8)} kubernetes/v${release}/swagger.json`);
      expect(result.stdout).toContain(contentHash);
    }
    expect(result.stdout).not.toContain('run spec:update');
    expect(treeDigest(out)).toBe(treeDigest(UPSTREAM_FIXTURES));
  });

  it('a mirror without a release fails in one line and leaves the output directory as it was', async () => {
    const out = tempDir('lease-fixtures-');
    writeFileSync(join(out, 'sentinel.json'), '{}\n');
    const before = treeDigest(out);
    const mirror = tempDir('lease-mirror-');
    mkdirSync(join(mirror, 'kubernetes'));
    const result = await runCommand('fixtures-update', ['--from', mirror, '--out', out]);
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      `error: ${mirror}: no document for release ${manifestReleases()[0]!.release} (looked for v${manifestReleases()[0]!.release}/swagger.json and v${manifestReleases()[0]!.release}/apis__coordination.k8s.io__v1_openapi.json, also under kubernetes/)`,
    ]);
    expect(treeDigest(out)).toBe(before);
  });

  it('needs --from', async () => {
    const result = await runCommand('fixtures-update', []);
    expect(result.status).toBe(2);
    expect(result.stderr.trim()).toBe(
      'error: usage: npm run fixtures:update -- --from DIR [--spec-dir DIR] [--out DIR]',
    );
  });
});
