// `npm ci` on a fresh clone succeeds on linux-x64, linux-arm64, darwin-arm64, darwin-x64 and win32-x64: a real
// `npm ci` (and the postinstall's command, which installs test/engines/node-binaries) of the committed manifests and
// lock files, run with npm made to believe it runs on each (platform-preload.cjs). `npm install --dry-run --os --cpu`
// would not do: it checks the platform of optional packages only. Packages come from this machine's npm cache where
// it has them (--prefer-offline), else from the registry; scripts of dependencies are not run, since their binaries
// are for another machine (and a faked win32 npm would look for cmd.exe to run them).
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../helpers/project.js';
import { runProcess } from '../helpers/run-process.js';

const PRELOAD = fileURLToPath(new URL('./platform-preload.cjs', import.meta.url));
const SCRATCH = join(PROJECT_ROOT, '.tmp', 'install-platforms', String(process.pid));
afterAll(() => rmSync(SCRATCH, { recursive: true, force: true }));

/** What a fresh clone holds that `npm ci` reads: the manifests and lock files, the workspaces' manifests. */
function manifests(): string[] {
  const root = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { workspaces: string[] };
  return [
    'package.json',
    'package-lock.json',
    ...root.workspaces.map((workspace) => join(workspace, 'package.json')),
    'test/engines/node-binaries/package.json',
    'test/engines/node-binaries/package-lock.json',
  ];
}

/** npm's cache here: a faked platform would otherwise pick that platform's default place for it. */
const CACHE = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();

/** The root's postinstall as npm arguments (it is one npm command), run directly rather than through a shell. */
function postinstallArgs(): string[] {
  const root = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
    scripts: { postinstall: string };
  };
  const [command, ...args] = root.scripts.postinstall.split(' ');
  if (command !== 'npm') throw new Error(`the postinstall is no longer one npm command: ${root.scripts.postinstall}`);
  return args;
}

/** Run without blocking the worker: one npm ci under load took 141 s, past vitest's 60 s RPC timeout. */
async function npm(
  args: readonly string[],
  cwd: string,
  platform: string,
): Promise<{ status: number | null; output: string }> {
  const run = await runProcess('npm', [...args, '--cache', CACHE], {
    cwd,
    timeoutMs: 240_000,
    env: {
      ...process.env,
      FAKE_PLATFORM: platform,
      NODE_OPTIONS: `${process.env['NODE_OPTIONS'] ?? ''} --require ${JSON.stringify(PRELOAD)}`.trim(),
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
    },
  });
  return { status: run.status, output: `${run.stdout}\n${run.stderr}`.trim().slice(-3000) };
}

/** The registry's Node builds (test/engines/node-binaries) for each platform; none is served for darwin-arm64. */
const PLATFORMS = [
  { platform: 'linux/x64', nodes: ['node20-linux-x64', 'node22-linux-x64', 'node24-linux-x64'] },
  { platform: 'linux/arm64', nodes: ['node20-linux-arm64', 'node22-linux-arm64', 'node24-linux-arm64'] },
  { platform: 'darwin/arm64', nodes: [] },
  { platform: 'darwin/x64', nodes: ['node20-darwin-x64', 'node22-darwin-x64', 'node24-darwin-x64'] },
  { platform: 'win32/x64', nodes: ['node20-win32-x64', 'node22-win32-x64', 'node24-win32-x64'] },
] as const;

describe('npm ci on every platform a contributor may have', () => {
  it.each(PLATFORMS)(
    '$platform: installs, with the platform packages and Node builds of that platform',
    async ({ platform, nodes }) => {
      const dir = join(SCRATCH, platform.replace('/', '-'));
      for (const file of manifests()) {
        mkdirSync(dirname(join(dir, file)), { recursive: true });
        copyFileSync(join(PROJECT_ROOT, file), join(dir, file));
      }
      const install = await npm(['ci', '--ignore-scripts', '--prefer-offline'], dir, platform);
      expect(install.status, install.output).toBe(0);
      // The root's postinstall, which `npm ci` runs after it: the Node builds for the runtime matrix.
      const postinstall = await npm(postinstallArgs(), dir, platform);
      expect(postinstall.status, postinstall.output).toBe(0);

      // npm took the platform it was given: esbuild's package for it, not this machine's.
      const [os, cpu] = platform.split('/');
      expect(readdirSync(join(dir, 'node_modules', '@esbuild'))).toEqual([`${os}-${cpu}`]);
      const binaries = join(dir, 'test', 'engines', 'node-binaries', 'node_modules');
      const installed = existsSync(binaries) ? readdirSync(binaries).filter((name) => name.startsWith('node')) : [];
      expect(installed.sort()).toEqual([...nodes]);
      rmSync(dir, { recursive: true, force: true });
    },
    300_000,
  );
});
