// Runs `k8s-lease` in-process (main with a captured io) or as a real process (the built bin), against a Lease API
// server whose kubeconfig it is given.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { CliIo } from '../../../templates/k8s-lease-client-node/src/cli/io.js';
import { main } from '../../../templates/k8s-lease-client-node/src/cli/main.js';
import { PROJECT_ROOT } from '../../helpers/project.js';

export interface Captured {
  readonly io: CliIo;
  readonly out: () => string;
  readonly err: () => string;
  /** Delivers a signal as the process would receive it. */
  readonly signal: (signal: 'SIGINT' | 'SIGTERM') => void;
}

export function capture(now: () => number = Date.now, stdoutIsTty = false): Captured {
  let out = '';
  let err = '';
  const listeners = new Set<(signal: 'SIGINT' | 'SIGTERM') => void>();
  return {
    io: {
      stdout: (text) => void (out += text),
      stderr: (text) => void (err += text),
      stdoutIsTty,
      onSignal: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      env: { ...process.env, KUBECONFIG: '' },
      now,
    },
    out: () => out,
    err: () => err,
    signal: (signal) => {
      for (const listener of listeners) listener(signal);
    },
  };
}

/** `k8s-lease ARGS` in this process; resolves with the exit code and what it printed. */
export async function run(
  args: readonly string[],
  captured: Captured = capture(),
): Promise<{ code: number; out: string; err: string }> {
  const code = await main(args, captured.io);
  return { code, out: captured.out(), err: captured.err() };
}

/** The built command (generated/, made by `npm run generate`), as npm links it. */
export const BIN = join(PROJECT_ROOT, 'generated', 'k8s-lease-client-node', 'dist', 'cli', 'bin.js');

/** `detached`: in a process group of its own (its pid the group's id), which its command joins. */
export function spawnCli(args: readonly string[], env: NodeJS.ProcessEnv = {}, detached = false): ChildProcess {
  return spawn(process.execPath, [BIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, KUBECONFIG: '', ...env },
    detached,
  });
}

export function exited(
  child: ChildProcess,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; err: string }> {
  let err = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
  });
  child.stdout?.resume();
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, err })));
}

/** Polls `condition` every 20 ms; throws after `ms` (generous: the machine running the tests may be loaded). */
export async function until(condition: () => boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for a condition');
    await new Promise((r) => setTimeout(r, 20));
  }
}
