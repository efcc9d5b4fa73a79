// Runs the kubectl binaries found on this machine (test/helpers/external-tools.ts) against a test server with
// isolated caches.
import type { ChildProcess } from 'node:child_process';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PackedInstall, type PackedServer, startPackedServer } from '../../helpers/packed-packages.js';

import type { KubectlBinary } from '../../helpers/external-tools.js';

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

export class KubectlSession {
  readonly home: string;

  constructor(
    readonly binary: KubectlBinary,
    readonly kubeconfig: string,
  ) {
    this.home = mkdtempSync(join(tmpdir(), 'kubectl-home-'));
  }

  /** HOME and KUBECACHEDIR point into a private directory so discovery caches never leak between tests. */
  private env(): NodeJS.ProcessEnv {
    return {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: this.home,
      KUBECACHEDIR: join(this.home, 'cache'),
      KUBECONFIG: this.kubeconfig,
    };
  }

  private args(args: string[], requestTimeout: string): string[] {
    return ['--kubeconfig', this.kubeconfig, `--request-timeout=${requestTimeout}`, ...args];
  }

  run(args: string[]): Promise<KubectlResult> {
    return new Promise((resolve) => {
      execFile(
        this.binary.path,
        this.args(args, '15s'),
        { env: this.env(), timeout: 45_000 },
        (error, stdout, stderr) => {
          const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
          resolve({ code, stdout, stderr });
        },
      );
    });
  }

  spawn(args: string[]): {
    child: ChildProcess;
    output: () => string;
    waitFor: (text: string, timeoutMs?: number) => Promise<void>;
  } {
    const child = spawn(this.binary.path, this.args(args, '60s'), {
      env: this.env(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const waitFor = async (text: string, timeoutMs = 20_000): Promise<void> => {
      const deadline = Date.now() + timeoutMs;
      while (!output.includes(text)) {
        if (Date.now() > deadline)
          throw new Error(`kubectl output never contained ${JSON.stringify(text)}; got:\n${output}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    return { child, output: () => output, waitFor };
  }
}

/** A packed server over TLS with a bearer token, and the kubeconfig it wrote for kubectl in a fresh directory. */
export interface KubectlServer {
  server: PackedServer;
  /** A fresh temporary directory, holding the kubeconfig; tests may write their manifests here. */
  dir: string;
  kubeconfig: string;
}

/** Starts the packed server as the kubectl suites use it: `--tls --token <token> --kubeconfig <dir>/kubeconfig`, then `args`. */
export async function startServerForKubectl(
  install: PackedInstall,
  token: string,
  args: readonly string[] = [],
): Promise<KubectlServer> {
  const dir = mkdtempSync(join(tmpdir(), 'kubectl-server-'));
  const kubeconfig = join(dir, 'kubeconfig');
  const server = await startPackedServer(install, ['--tls', '--token', token, '--kubeconfig', kubeconfig, ...args]);
  return { server, dir, kubeconfig };
}
