import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyOfSpecDir, runCommand, tempDir, treeDigest } from '../../helpers/cli.js';
import { PROJECT_ROOT, UPSTREAM_FIXTURES } from '../../helpers/project.js';

/** Runs a command exactly as `npm run <script> -- args` does: through launch.mjs. */
function viaNpmScript(
  command: 'spec-update' | 'generate' | 'fixtures-update',
  args: readonly string[],
): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [join(PROJECT_ROOT, 'generator', 'cli', 'launch.mjs'), command, ...args], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const COMMANDS = [
  {
    command: 'spec-update',
    script: 'spec:update',
    options: [
      '--release X.Y.Z',
      '--from DIR',
      '--spec FILE',
      '--spec-dir DIR',
      '--out DIR',
      '--golden-dir DIR',
      '--package-changelog FILE',
      '--no-generate',
      '--help',
    ],
  },
  { command: 'generate', script: 'generate', options: ['--spec-dir DIR', '--out DIR', '--help'] },
  {
    command: 'fixtures-update',
    script: 'fixtures:update',
    options: ['--from DIR', '--spec-dir DIR', '--out DIR', '--help'],
  },
] as const;

describe('npm run <command> -- --help', () => {
  it.each(COMMANDS)(
    'npm run $script -- --help prints usage with every option and exits 0',
    ({ command, script, options }) => {
      const result = viaNpmScript(command, ['--help']);
      expect(result.status, result.stderr).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout.split('\n')[0]).toMatch(new RegExp(`^usage: npm run ${script} -- `));
      const optionLines = result.stdout.split('\n').filter((line) => line.startsWith('  --'));
      expect(
        optionLines.map((line) =>
          line
            .trim()
            .split(/\s{2,}/)[0]!
            .replace(', -h', ''),
        ),
      ).toEqual(options);
      for (const line of optionLines) expect(line.trim().split(/\s{2,}/)[1], line).toMatch(/\w/);
    },
  );

  it('-h and --help win over other arguments and write nothing', async () => {
    const spec = copyOfSpecDir();
    const out = tempDir('lease-help-out-');
    const before = [treeDigest(spec), treeDigest(out)];
    for (const args of [
      ['-h'],
      ['--release', '1.35.0', '--from', UPSTREAM_FIXTURES, '--spec-dir', spec, '--out', out, '--help'],
      ['--bogus', '--help'],
    ]) {
      const result = await runCommand('spec-update', args);
      expect(result.status, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/^usage: npm run spec:update -- --release X\.Y\.Z/);
    }
    expect([treeDigest(spec), treeDigest(out)]).toEqual(before);
  });

  it('spec:update without --release prints the usage line as a one-line error, exit 2', async () => {
    const result = await runCommand('spec-update', []);
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^error: usage: npm run spec:update -- --release X\.Y\.Z /),
    ]);
  });
});

describe('spec:update --release', () => {
  it.each([
    '01.35.0',
    '1.035.0',
    '1.35.00',
    '1.35',
    '1.35.0.1',
    'v1.35.0',
    '1.35.0-rc.1',
    ' 1.35.0',
    '1.35.0\n',
    '1e3.0.0',
    '1234567.0.0',
    '١.٣٥.٠',
  ])('%j is a one-line usage error, exit 2, nothing written', async (release) => {
    const spec = copyOfSpecDir();
    const out = join(tempDir('lease-rel-out-'), 'generated');
    mkdirSync(join(out, 'src'), { recursive: true });
    writeFileSync(join(out, 'src', 'sentinel.ts'), 'export const untouched = true;\n');
    const before = [treeDigest(spec), treeDigest(out)];
    const result = await runCommand('spec-update', [
      '--release',
      release,
      '--from',
      UPSTREAM_FIXTURES,
      '--spec-dir',
      spec,
      '--out',
      out,
    ]);
    expect(result.status, result.stderr).toBe(2);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toEqual([
      `error: --release must look like 1.35.0 (X.Y.Z, decimal numbers without leading zeros), got ${JSON.stringify(release)}`,
    ]);
    expect([treeDigest(spec), treeDigest(out)]).toEqual(before);
    expect(readdirSync(join(spec, 'openapi')).some((name) => name.startsWith('v0'))).toBe(false);
  });
});
