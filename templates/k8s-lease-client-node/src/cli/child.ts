// The command `lock` and `elect` run while leading: started with the fencing token if asked, stopped with SIGTERM
// and then SIGKILL, its end turned into an exit code as a shell reports it.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import type { FencingToken } from 'k8s-lease-client';
import { EXIT_CANNOT_RUN, EXIT_ERROR, signalExitCode } from './exit-codes.js';
import type { CliIo } from './io.js';

/** The fencing token as the command sees it with --fencing-env. */
export function fencingEnv(namespace: string, name: string, token: FencingToken): Record<string, string> {
  return {
    K8S_LEASE_NAMESPACE: namespace,
    K8S_LEASE_NAME: name,
    K8S_LEASE_HOLDER: token.holderIdentity,
    K8S_LEASE_TRANSITIONS: String(token.leaseTransitions),
    K8S_LEASE_ACQUIRE_TIME: token.acquireTime ?? '',
  };
}

export interface RunningCommand {
  readonly process: ChildProcess;
  /** Its exit code: its own, 128 + the signal's number, or 127 when it could not start. */
  readonly exit: Promise<number>;
  /** False once it has ended. */
  running(): boolean;
  /** SIGTERM now, SIGKILL once `graceMs` has passed if it is still running; SIGKILL alone for 0. */
  terminate(graceMs: number): void;
}

export function startCommand(
  command: readonly [string, ...string[]],
  env: NodeJS.ProcessEnv,
  io: CliIo,
): RunningCommand {
  const [program, ...args] = command;
  const child = spawn(program, args, { stdio: 'inherit', env });
  let running = true;
  const exit = new Promise<number>((resolve) => {
    child.once('error', (error: NodeJS.ErrnoException) => {
      io.stderr(`k8s-lease: cannot run ${JSON.stringify(program)}: ${error.code ?? error.message}\n`);
      running = false;
      resolve(EXIT_CANNOT_RUN);
    });
    child.once('exit', (code, signal) => {
      running = false;
      resolve(code ?? (signal === null ? EXIT_ERROR : signalExitCode(signal)));
    });
  });
  return {
    process: child,
    exit,
    running: () => running,
    terminate: (graceMs) => {
      // No grace left: the command gets no chance to run on (a TERM handler would).
      if (graceMs <= 0) {
        child.kill('SIGKILL');
        return;
      }
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      void exit.then(() => clearTimeout(timer));
    },
  };
}
