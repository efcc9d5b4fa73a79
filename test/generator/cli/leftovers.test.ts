import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyOfSpecDir, tempDir } from '../../helpers/cli.js';
import { PROJECT_ROOT, UPSTREAM_FIXTURES } from '../../helpers/project.js';

const CLI = (command: string): string[] => ['--import', 'tsx', join(PROJECT_ROOT, 'generator', 'cli', `${command}.ts`)];

/** Runs a command under a given umask and temporary directory, as a user's shell would. */
function runWith(
  options: { umask: string; tmp: string },
  command: string,
  args: readonly string[],
): { status: number | null; stderr: string } {
  const result = spawnSync(
    '/bin/sh',
    ['-c', `umask ${options.umask} && exec "$@"`, 'sh', process.execPath, ...CLI(command), ...args],
    {
      cwd: PROJECT_ROOT,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, TMPDIR: options.tmp },
    },
  );
  return { status: result.status, stderr: result.stderr };
}

/** A pid that certainly ran and certainly is gone: a child that killed itself. */
function deadPid(): number {
  const child = spawnSync(
    process.execPath,
    ['-e', 'process.stdout.write(String(process.pid)); process.kill(process.pid, "SIGKILL")'],
    { encoding: 'utf8' },
  );
  return Number(child.stdout);
}

describe('leftovers of a killed run', () => {
  it('spec:update SIGKILLed mid-run leaves lease-spec-staging-* in the temporary directory: the next run removes it, not a running one', async () => {
    const tmp = tempDir('lease-tmpdir-');
    const spec = copyOfSpecDir();
    const out = join(tempDir('lease-kill-out-'), 'generated');
    const args = ['--release', '1.35.0', '--from', UPSTREAM_FIXTURES, '--spec-dir', spec, '--out', out];
    const child = spawn(process.execPath, [...CLI('spec-update'), ...args], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, TMPDIR: tmp },
      stdio: 'ignore',
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    // The staged copy of spec/ exists for the whole dry generation (seconds): kill it then.
    const prefix = `lease-spec-staging-${child.pid}-`;
    let seen = false;
    for (let i = 0; i < 6000 && !seen && child.exitCode === null; i++) {
      seen = readdirSync(tmp).some((name) => name.startsWith(prefix));
      if (!seen) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(seen, 'the run made its staging directory').toBe(true);
    child.kill('SIGKILL');
    await exited;
    expect(readdirSync(tmp).filter((name) => name.startsWith(prefix))).toHaveLength(1);

    // A concurrent run's staging (a live pid: this test's) and a stranger's lookalike stay.
    const live = join(tmp, `lease-spec-staging-${process.pid}-AbC123`);
    const stranger = join(tmp, 'lease-spec-staging-keep');
    mkdirSync(live);
    mkdirSync(stranger);
    const next = runWith({ umask: '022', tmp }, 'spec-update', args);
    expect(next.status, next.stderr).toBe(0);
    expect(
      readdirSync(tmp)
        .filter((name) => name.startsWith('lease-spec-staging'))
        .sort(),
    ).toEqual([`lease-spec-staging-${process.pid}-AbC123`, 'lease-spec-staging-keep']);
  });

  it('generate removes .generated.staging-* left by a killed run beside the output, and keeps a running one', () => {
    const parent = tempDir('lease-staging-parent-');
    const dead = deadPid();
    const leftovers = [`.generated.staging-${dead}-Xy12Ab`, `.generated.staging-${dead}-Xy12Ab.old`];
    for (const name of leftovers) {
      mkdirSync(join(parent, name, 'k8s-lease-client'), { recursive: true });
      writeFileSync(join(parent, name, 'k8s-lease-client', 'package.json'), '{}');
    }
    const kept = [
      `.generated.staging-${process.pid}-Zz99Yy`,
      '.generated.staging-notours',
      `.other.staging-${dead}-Xy12Ab`,
    ];
    for (const name of kept) mkdirSync(join(parent, name));
    const result = runWith({ umask: '022', tmp: tempDir('lease-tmpdir-') }, 'generate', [
      '--out',
      join(parent, 'generated'),
    ]);
    expect(result.status, result.stderr).toBe(0);
    expect(readdirSync(parent).sort()).toEqual([...kept, 'generated'].sort());
    expect(existsSync(join(parent, 'generated', 'k8s-lease-client', 'package.json'))).toBe(true);
  });
});

describe('generated/ file modes', () => {
  it.each([
    ['022', 0o755, 0o644],
    ['027', 0o750, 0o640],
  ])('under umask %s, generated/ and its files get the umask modes, not mkdtemp 0700', (umask, dirMode, fileMode) => {
    const out = join(tempDir('lease-mode-out-'), 'generated');
    const result = runWith({ umask, tmp: tempDir('lease-tmpdir-') }, 'generate', ['--out', out]);
    expect(result.status, result.stderr).toBe(0);
    expect(statSync(out).mode & 0o777).toBe(dirMode);
    expect(statSync(join(out, 'k8s-lease-client')).mode & 0o777).toBe(dirMode);
    expect(statSync(join(out, 'k8s-lease-client', 'package.json')).mode & 0o777).toBe(fileMode);
  });
});
