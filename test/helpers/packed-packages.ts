// What users install: the generated packages packed with `npm pack` and installed into a fresh project,
// and the packaged `lease-api-server` command started from there.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './cli.js';
import { PROJECT_ROOT } from './project.js';
import { runProcess } from './run-process.js';

export const CLIENT_PACKAGE_DIR = join(PROJECT_ROOT, 'generated', 'k8s-lease-client');
export const SERVER_PACKAGE_DIR = join(PROJECT_ROOT, 'generated', 'k8s-lease-api-server');
export const NODE_PACKAGE_DIR = join(PROJECT_ROOT, 'generated', 'k8s-lease-client-node');

export interface PackedInstall {
  readonly clientTarball: string;
  readonly serverTarball: string;
  readonly nodeTarball: string;
  /** A fresh project with the three tarballs installed (their own dependencies from the registry). */
  readonly projectDir: string;
}

function npmEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    npm_config_loglevel: 'error',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
}

/** npm, not blocking the worker (vitest's RPC calls time out when it is blocked for 60 s); a failure throws. */
async function npm(args: readonly string[], cwd: string, file = 'npm'): Promise<void> {
  const run = await runProcess(file, args, { cwd, env: npmEnv() });
  if (run.status !== 0)
    throw new Error(`${file} ${args.join(' ')} exited ${run.status ?? run.signal}: ${run.stderr.trim()}`);
}

/** `npm run pack`, as the README tells users: the three tarballs, written into `packDir`. */
async function packAll(packDir: string): Promise<{ client: string; server: string; node: string }> {
  await npm(['run', '-s', 'pack', '--', '--pack-destination', packDir], PROJECT_ROOT);
  const files = readdirSync(packDir);
  const find = (name: string): string => {
    const file = files.find((f) => new RegExp(`^${name}-\\d+\\.\\d+\\.\\d+\\.tgz$`).test(f));
    if (file === undefined) throw new Error(`npm run pack wrote no ${name} tarball in ${packDir}: ${files.join(', ')}`);
    return join(packDir, file);
  };
  return {
    client: find('k8s-lease-client'),
    server: find('k8s-lease-api-server'),
    node: find('k8s-lease-client-node'),
  };
}

/**
 * Packs the three packages with `npm run pack` and installs them into a new project with the README's own
 * command (`npm install ./k8s-lease-client-*.tgz ./k8s-lease-client-node-*.tgz ./k8s-lease-api-server-*.tgz`,
 * globs expanded by a shell). Takes a few seconds; call it in beforeAll.
 */
export async function installPackedPackages(): Promise<PackedInstall> {
  const packDir = tempDir('lease-pack-');
  const tarballs = await packAll(packDir);
  const projectDir = tempDir('lease-consumer-');
  writeFileSync(join(projectDir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  // --prefer-offline: the server's dependencies come from npm's cache when this project's own install put
  // them there, else from the registry, as for any user.
  await npm(
    [
      '-c',
      'npm install --prefer-offline --no-package-lock "$0"/k8s-lease-client-*.tgz "$0"/k8s-lease-client-node-*.tgz "$0"/k8s-lease-api-server-*.tgz',
      packDir,
    ],
    projectDir,
    'sh',
  );
  return { clientTarball: tarballs.client, serverTarball: tarballs.server, nodeTarball: tarballs.node, projectDir };
}

export interface PackedServer {
  readonly url: string;
  readonly output: () => string;
  close(): Promise<void>;
}

/**
 * Starts `npx lease-api-server serve --port 0 …` from an installed project and waits for its
 * "listening on" line (and the kubeconfig line, when `--kubeconfig` is given).
 */
export async function startPackedServer(install: PackedInstall, args: readonly string[]): Promise<PackedServer> {
  const child: ChildProcess = spawn(
    join(install.projectDir, 'node_modules', '.bin', 'lease-api-server'),
    ['serve', '--port', '0', ...args],
    {
      cwd: install.projectDir,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const wantsKubeconfig = args.includes('--kubeconfig');
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`lease-api-server did not start within 20 s: ${out}`)), 20_000);
    const check = (): void => {
      const match = /listening on (https?:\/\/\S+)/.exec(out);
      if (match !== null && (!wantsKubeconfig || out.includes('Wrote kubeconfig'))) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`lease-api-server exited with ${code}: ${out}`));
    });
  });
  return {
    url,
    output: () => out,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
