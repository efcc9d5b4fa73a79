// The runtimes of the matrix and how each runs the scenario: a child process for Node, Deno and Bun.
// Deno and Bun come from the registry with `npm ci`, so a missing one fails its test. Node 20, 22 and 24 are the
// runner itself for its own major, else found by external-tools.ts (the registry's build for this platform, or
// where users keep Node); a missing one is skipped by name and listed in the end-of-run banner, never silently.
import { spawn } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { NodeMajor, ToolId } from '../helpers/external-tools.js';
import { findNode, NODE_MAJORS } from '../helpers/external-tools.js';
import type { StepResult } from './scenario.js';

export interface ProcessRuntime {
  /** Matrix key and namespace suffix. */
  id: 'node20' | 'node22' | 'node24' | 'deno' | 'bun';
  label: string;
  /** Undefined only for a runtime that `tool` names and this machine lacks. */
  binary: string | undefined;
  /** Set where the runtime is found as a user keeps it (external-tools.ts) and may be missing. */
  tool?: ToolId;
  /** Arguments before the script. */
  args: readonly string[];
  /** The version the binary must report (a prefix of it), so a wrong binary cannot pass as another. */
  expectVersion: RegExp;
  /** Reads the version out of `<binary> --version`. */
  version(output: string): string | undefined;
}

const root = (path: string): string => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const nodeVersion = (output: string): string | undefined => /^v(\d+\.\d+\.\d+)/.exec(output.trim())?.[1];

const nodeRuntime = (major: NodeMajor): ProcessRuntime => ({
  id: `node${major}`,
  label: `Node ${major}`,
  binary: findNode(major),
  tool: `node${major}`,
  args: [],
  expectVersion: new RegExp(`^${major}\\.`),
  version: nodeVersion,
});

export const PROCESS_RUNTIMES: readonly ProcessRuntime[] = [
  ...NODE_MAJORS.map(nodeRuntime),
  // Only network and reading the built files: no env, no write, no run.
  {
    id: 'deno',
    label: 'Deno',
    binary: root('node_modules/.bin/deno'),
    args: ['run', '--allow-net=127.0.0.1', '--allow-read', '--no-prompt'],
    expectVersion: /^2\./,
    version: (o) => /^deno (\S+)/.exec(o.trim())?.[1],
  },
  {
    id: 'bun',
    label: 'Bun',
    binary: root('node_modules/.bin/bun'),
    args: ['run'],
    expectVersion: /^1\./,
    version: (o) => /^(\d+\.\d+\.\d+)/.exec(o.trim())?.[1],
  },
];

export interface ProcessOutput {
  code: number | null;
  stdout: string;
  stderr: string;
}

const RUN_LIMIT_MS = 120_000;

export function run(binary: string, args: readonly string[], env: Record<string, string> = {}): Promise<ProcessOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    // A hung runtime must end the test with what it printed, not hang CI.
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_LIMIT_MS);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The binary's version, or an error naming the binary and what it printed. */
export async function versionOf(runtime: ProcessRuntime, binary: string): Promise<string> {
  await access(binary, constants.X_OK).catch(() => {
    throw new Error(`${runtime.label}: ${binary} is missing or not executable (npm ci installs it)`);
  });
  const out = await run(binary, ['--version']);
  const version = runtime.version(out.stdout);
  if (version === undefined)
    throw new Error(`${runtime.label}: cannot read a version from ${JSON.stringify(out.stdout.slice(0, 200))}`);
  return version;
}

/** The `STEP {json}` lines of a run. */
export function stepsOf(stdout: string): StepResult[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('STEP '))
    .map((line) => JSON.parse(line.slice(5)) as StepResult);
}
