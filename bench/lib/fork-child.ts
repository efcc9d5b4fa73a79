import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PROJECT_ROOT } from '../../generator/config.js';

export interface ForkChildOptions {
  /** Run the child's TypeScript through tsx's loader, as the benchmarks themselves run (a server child). */
  readonly tsx?: boolean;
  /** Node flags before the loader's, e.g. `--expose-gc`. */
  readonly nodeFlags?: readonly string[];
  /** Another node binary (the Node 22 one) instead of this process's. */
  readonly execPath?: string;
}

/**
 * Starts a benchmark's child process in the project root, its stdout and stderr the run's and an IPC
 * channel to the parent: a `.ts` child with `tsx: true`, or one buildChild compiled, on bare node.
 */
export function forkChild(entry: string | URL, args: readonly string[], options: ForkChildOptions = {}): ChildProcess {
  return fork(typeof entry === 'string' ? entry : fileURLToPath(entry), [...args], {
    cwd: PROJECT_ROOT,
    ...(options.execPath === undefined ? {} : { execPath: options.execPath }),
    execArgv: [...(options.nodeFlags ?? []), ...(options.tsx === true ? ['--import', 'tsx'] : [])],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}
