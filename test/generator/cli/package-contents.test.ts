import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCommand, tempDir } from '../../helpers/cli.js';
import { PROJECT_ROOT } from '../../helpers/project.js';

/** What `npm publish` would ship of each generated package: the tarball a user installs. */
const PACKAGES = [
  { name: 'k8s-lease-client', extra: ['CHANGELOG.md', 'PACKAGE_CHANGELOG.md', 'api-diff.json'] },
  { name: 'k8s-lease-api-server', extra: ['openapi/'] },
  { name: 'k8s-lease-client-node', extra: [] },
] as const;

interface PackedFile {
  readonly path: string;
}
interface PackSummary {
  readonly files: readonly PackedFile[];
}

describe('the published packages', () => {
  let out: string;
  beforeAll(async () => {
    out = join(tempDir('lease-pack-'), 'generated');
    const result = await runCommand('generate', ['--out', out]);
    expect(result.status, result.stderr).toBe(0);
  });

  it.each(PACKAGES)('$name ships LICENSE (Apache-2.0), dist and what it uses, not src', ({ name, extra }) => {
    const dir = join(out, name);
    const pack = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: dir, encoding: 'utf8' });
    expect(pack.status, pack.stderr).toBe(0);
    const [summary] = JSON.parse(pack.stdout) as PackSummary[];
    const paths = summary!.files.map((f) => f.path);
    expect(paths).toContain('LICENSE');
    expect(paths).toContain('package.json');
    expect(paths).toContain('README.md');
    expect(paths).toContain('dist/index.js');
    expect(paths).toContain('dist/index.d.ts');
    for (const prefix of extra)
      expect(
        paths.some((p) => p.startsWith(prefix)),
        prefix,
      ).toBe(true);
    expect(paths.filter((p) => p.startsWith('src/') || p === 'tsconfig.json')).toEqual([]);
    expect(readFileSync(join(dir, 'LICENSE'), 'utf8')).toBe(readFileSync(join(PROJECT_ROOT, 'LICENSE'), 'utf8'));
    expect(readFileSync(join(dir, 'LICENSE'), 'utf8')).toMatch(/Apache License\s+Version 2\.0, January 2004/);
  });

  it.each(PACKAGES)(
    '$name package.json names its license, repository directory, homepage and issue tracker',
    ({ name }) => {
      const pkg = JSON.parse(readFileSync(join(out, name, 'package.json'), 'utf8')) as Record<string, unknown>;
      expect(pkg['license']).toBe('Apache-2.0');
      expect(pkg['repository']).toEqual({
        type: 'git',
        url: expect.stringMatching(/^git\+https:\/\/github\.com\/[\w.-]+\/lease-api-generator\.git$/),
        directory: `generated/${name}`,
      });
      expect(pkg['homepage']).toMatch(
        new RegExp(`^https://github\\.com/[\\w.-]+/lease-api-generator/tree/main/generated/${name}#readme$`),
      );
      expect(pkg['bugs']).toEqual({
        url: expect.stringMatching(/^https:\/\/github\.com\/[\w.-]+\/lease-api-generator\/issues$/),
      });
    },
  );
});
