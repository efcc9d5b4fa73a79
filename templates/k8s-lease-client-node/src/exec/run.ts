import { spawn, type ChildProcess } from 'node:child_process';
import { failure, type Failure } from './errors.js';
import { err, ok, type Result } from './result.js';

export interface RunSpec {
  /** The resolved executable (absolute, or a bare name for the PATH lookup). */
  file: string;
  args: readonly string[];
  env: Record<string, string>;
  /** Inherit our stdin (interactive plugins) or give none. */
  stdin: 'inherit' | 'ignore';
  timeoutMs: number;
  maxStdoutBytes: number;
}

export type RunFailure = Failure | { failure: 'not-found' };

/**
 * Runs the plugin once and collects stdout, bounded in size and time. Settles exactly once: on close, on a spawn
 * error, when stdout overflows or the timer fires (then the child is SIGKILLed and its pipes destroyed, so a
 * grandchild holding them open cannot keep us waiting).
 */
/** A group of its own, on POSIX, when it does not share our terminal (Windows has no process groups to signal). */
function detach(spec: RunSpec): boolean {
  return spec.stdin === 'ignore' && process.platform !== 'win32';
}

/** SIGKILL to the plugin's whole process group (a negative pid), else to the plugin alone. */
function killTree(child: ChildProcess, grouped: boolean): void {
  if (grouped && child.pid !== undefined) {
    try {
      process.kill(-child.pid, 'SIGKILL');
      return;
    } catch {
      // The group is gone already (or was never made): fall through to the child itself.
    }
  }
  child.kill('SIGKILL');
}

export function runPlugin(spec: RunSpec): Promise<Result<string, RunFailure>> {
  return new Promise((resolvePromise) => {
    let child: ChildProcess;
    try {
      // stderr is the user's, as client-go's `cmd.Stderr = os.Stderr`: an interactive plugin's prompts reach the terminal,
      // and what a plugin prints there (possibly secrets) never lands in an error message.
      child = spawn(spec.file, [...spec.args], {
        env: spec.env,
        stdio: [spec.stdin, 'pipe', 'inherit'],
        shell: false,
        windowsHide: true,
        // Its own process group, so a timeout ends what it started too (client-go leaves them; a `sleep` or a browser
        // helper of a hung plugin would outlive us). Not for an interactive plugin: a background group reading the
        // terminal would be stopped by SIGTTIN.
        detached: detach(spec),
      });
    } catch (error) {
      // Synchronous refusals (a NUL byte in an argument or the environment) carry the offending value: not echoed.
      const code = (error as { code?: unknown | undefined }).code;
      resolvePromise(
        err(
          failure('spawn-failed', `cannot start the plugin (${typeof code === 'string' ? code : 'invalid arguments'})`),
        ),
      );
      return;
    }
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let settled = false;

    const finish = (result: Result<string, RunFailure>, kill: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (kill) {
        killTree(child, detach(spec));
        child.stdout?.destroy();
      }
      stdout.length = 0;
      resolvePromise(result);
    };

    const timer = setTimeout(() => {
      finish(err(failure('timeout', `plugin did not finish within ${spec.timeoutMs} ms and was killed`)), true);
    }, spec.timeoutMs);

    child.stdout?.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > spec.maxStdoutBytes) {
        finish(
          err(
            failure('stdout-too-large', `plugin wrote more than ${spec.maxStdoutBytes} bytes to stdout and was killed`),
          ),
          true,
        );
        return;
      }
      stdout.push(chunk);
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') finish(err({ failure: 'not-found' }), true);
      else finish(err(failure('spawn-failed', `cannot start the plugin (${error.code ?? 'unknown error'})`)), true);
    });
    child.on('close', (code: number | null, signal: NodeJS.Signals | null) => {
      if (code === 0) {
        finish(ok(Buffer.concat(stdout).toString('utf8')), false);
        return;
      }
      // client-go: "exec: executable X failed with exit code N", nothing of the plugin's output.
      const how = code === null ? `was terminated by signal ${signal ?? 'unknown'}` : `failed with exit code ${code}`;
      finish(err(failure('exit-code', `executable ${how}`)), false);
    });
  });
}
