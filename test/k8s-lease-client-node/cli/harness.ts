// Runs `k8s-lease` in-process (main with a captured io) or as a real process (the built bin), against a Lease API
// server whose kubeconfig it is given.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { LeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import type { CliIo } from '../../../templates/k8s-lease-client-node/src/cli/io.js';
import { main } from '../../../templates/k8s-lease-client-node/src/cli/main.js';
import { PROJECT_ROOT } from '../../helpers/project.js';
import { start } from '../helpers.js';

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

/** The Lease API server a test file runs `k8s-lease` against, and a folder for the files its commands write. */
export interface CliCluster {
  readonly server: LeaseApiServer;
  /** A kubeconfig naming the server. */
  readonly kubeconfig: string;
  readonly scratch: string;
}

/** Starts the server before the file's tests and closes it after them, removing the scratch folder then. */
export function useCluster(scratchPrefix: string): CliCluster {
  const scratch = mkdtempSync(join(tmpdir(), scratchPrefix));
  let started: { server: LeaseApiServer; kubeconfig: string } | undefined;
  const current = (): { server: LeaseApiServer; kubeconfig: string } => {
    if (started === undefined) throw new Error('the Lease API server is used before beforeAll started it');
    return started;
  };
  beforeAll(async () => {
    const server = await start();
    started = { server, kubeconfig: await server.writeKubeconfig() };
  });
  afterAll(async () => {
    await started?.server.close();
    rmSync(scratch, { recursive: true, force: true });
  });
  return {
    get server() {
      return current().server;
    },
    get kubeconfig() {
      return current().kubeconfig;
    },
    scratch,
  };
}
