// The runtimes of the matrix and how each runs the scenario: a child process for Node, Deno and Bun.
// A runtime whose binary is missing fails its test (the matrix is never silently smaller).
import { spawn } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { StepResult } from './scenario.js';

export interface ProcessRuntime {
  /** Matrix key and namespace suffix. */
  id: 'node20' | 'node22' | 'node24' | 'deno' | 'bun';
  label: string;
  binary: string;
  /** Arguments before the script. */
  args: readonly string[];
  /** The version the binary must report (a prefix of it), so a wrong binary cannot pass as another. */
  expectVersion: RegExp;
  /** Reads the version out of `<binary> --version`. */
  version(output: string): string | undefined;
}

const root = (path: string): string => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const nodeVersion = (output: string): string | undefined => /^v(\d+\.\d+\.\d+)/.exec(output.trim())?.[1];

export const PROCESS_RUNTIMES: readonly ProcessRuntime[] = [
  // The machine's Node (the one running vitest), which the package's engines field names as the floor.
  { id: 'node20', label: 'Node 20', binary: process.execPath, args: [], expectVersion: /^20\./, version: nodeVersion },
  {
    id: 'node22',
    label: 'Node 22',
    binary: root('test/engines/node-binaries/node_modules/node22/bin/node'),
    args: [],
    expectVersion: /^22\./,
    version: nodeVersion,
  },
  {
    id: 'node24',
    label: 'Node 24',
    binary: root('test/engines/node-binaries/node_modules/node24/bin/node'),
    args: [],
    expectVersion: /^24\./,
    version: nodeVersion,
  },
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
export async function versionOf(runtime: ProcessRuntime): Promise<string> {
  await access(runtime.binary, constants.X_OK).catch(() => {
    throw new Error(`${runtime.label}: ${runtime.binary} is missing or not executable (npm ci installs it)`);
  });
  const out = await run(runtime.binary, ['--version']);
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
