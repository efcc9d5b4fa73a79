// An exec credential plugin that hangs is killed after execTimeoutMs together with every process it started (its own
// process group), so nothing it forked outlives the failed request. client-go kills only the plugin
// (exec.Cmd with a context); ending the group is this package's choice.
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createClient, readNamespacedLease } from 'k8s-lease-client';
import { ExecPluginError, kubeconfigClientOptions } from '../../../templates/k8s-lease-client-node/src/index.js';
import { b64, start, tempDir, trackResources, writeKubeconfig } from '../helpers.js';

const track = trackResources();

/** Whether the process still runs: gone, or a zombie nobody reaped yet (PID 1 of a container may never reap). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Waits (bounded) for the processes to end; SIGKILL is asynchronous, so the kernel may lag the rejection. */
async function ended(pids: readonly number[]): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    if (!pids.some(running)) return true;
    await sleep(50);
  }
  return false;
}

describe.skipIf(process.platform === 'win32')('exec plugin timeout', () => {
  it('kills the plugin and the child it forked when execTimeoutMs passes, and the request fails naming the timeout', async () => {
    const server = await start({ tls: true, token: 'never-issued' });
    track.later(() => server.close());
    const dir = await tempDir();
    const pids = join(dir, 'pids');
    const plugin = join(dir, 'hanging-plugin.sh');
    // Forks a sleep, records both pids, then waits for it: never answers.
    await writeFile(plugin, `#!/bin/sh\nsleep 300 &\necho $! > "$1"\necho $$ >> "$1"\nwait\n`);
    await chmod(plugin, 0o755);
    const path = await writeKubeconfig(dir, 'config', {
      'current-context': 'ctx',
      clusters: [
        { name: 'c', cluster: { server: server.url, 'certificate-authority-data': b64(server.tls?.ca ?? '') } },
      ],
      users: [
        {
          name: 'me',
          user: {
            exec: {
              command: plugin,
              args: [pids],
              apiVersion: 'client.authentication.k8s.io/v1',
              interactiveMode: 'Never',
            },
          },
        },
      ],
      contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'me' } }],
    });
    const config = track.config(
      await kubeconfigClientOptions({ kubeconfig: path, execTimeoutMs: 1500, retries: false }),
    );
    const error = await readNamespacedLease(createClient(config.clientOptions), {
      namespace: 'default',
      name: 'x',
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExecPluginError);
    expect((error as ExecPluginError).failure).toBe('timeout');
    expect((error as Error).message).toContain('did not finish within 1500 ms');
    const started = (await readFile(pids, 'utf8')).trim().split('\n').map(Number);
    expect(started).toHaveLength(2);
    expect(await ended(started)).toBe(true);
  });
});
