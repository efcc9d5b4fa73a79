// Runs a program without blocking the test worker. vitest's worker answers its RPC calls to the main process
// (onTaskUpdate) only when its event loop is free, with a fixed 60 s timeout: a spawnSync that ran for 141 s
// (npm ci under a faked platform, on a loaded CI machine) failed the run with "Timeout calling onTaskUpdate"
// although every test passed. Commands that may run for more than a few seconds go through here.
import { spawn } from 'node:child_process';

export interface ProcessResult {
  /** The exit code, or null when the process was ended by a signal (a timeout among them). */
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunProcessOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** SIGKILL after this long, as spawnSync's `timeout` does (its default signal is SIGTERM; npm ignores it). */
  timeoutMs?: number;
}

/** Runs `file` with `args` to its end and gathers its output; never rejects for a non-zero exit. */
export function runProcess(
  file: string,
  args: readonly string[],
  options: RunProcessOptions = {},
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    const timer =
      options.timeoutMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      resolve({
        status,
        signal,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
      });
    });
  });
}
