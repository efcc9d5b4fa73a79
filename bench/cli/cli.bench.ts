import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../../generator/config.js';
import type { LeaseApiServer } from '../../templates/k8s-lease-api-server/src/index.js';
import { startLeaseApiServer } from '../../templates/k8s-lease-api-server/src/index.js';
import { findKubectl } from '../../test/helpers/external-tools.js';
import { recordGoals } from '../lib/goal.js';
import { goalsOf } from '../lib/goals.js';
import { environment, median, round, runInterleaved, type BenchContext, type BenchResult } from '../lib/harness.js';

/** The built command, as npm links it (generated/ by `npm run generate`). */
const BIN = join(PROJECT_ROOT, 'generated', 'k8s-lease-client-node', 'dist', 'cli', 'bin.js');

type Contender = 'node -e 0' | 'k8s-lease --version' | 'k8s-lease lock' | 'kubectl get leases';

const run = promisify(execFile);

/** Whole-process wall time in ms. Not spawnSync: the Lease API server answering the command runs in this process. */
async function timed(file: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const started = process.hrtime.bigint();
  await run(file, [...args], { env, cwd: PROJECT_ROOT });
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/**
 * `k8s-lease` as a user runs it, against the Lease API server over loopback: start-up alone (`--version`) against
 * Node's own (`node -e 0`), and `lock NAME -- true` end to end (acquire: GET 404, POST; run `true`; release: GET,
 * PUT) against `kubectl get leases` on the same server (its discovery cache warm, as after a user's first call),
 * when a kubectl is found (test/helpers/external-tools.ts); else that baseline is not measured. Rounds interleaved,
 * order reversed every other round; the figures are medians of per-round ratios. Goals: bench/lib/goals.ts.
 */
export async function benchCli(context: BenchContext): Promise<BenchResult> {
  const rounds = context.quick ? 3 : 15;
  const server: LeaseApiServer = await startLeaseApiServer({});
  const home = mkdtempSync(join(tmpdir(), 'bench-cli-'));
  try {
    const kubeconfig = await server.writeKubeconfig(join(home, 'kubeconfig'));
    const env = { ...process.env, HOME: home, KUBECONFIG: kubeconfig, KUBECACHEDIR: join(home, 'cache') };
    const kubectl = findKubectl();
    let seq = 0;
    const commands: Record<Contender, () => Promise<number>> = {
      'node -e 0': () => timed(process.execPath, ['-e', '0'], env),
      'k8s-lease --version': () => timed(process.execPath, [BIN, '--version'], env),
      // A new Lease each time: every run takes the same path (create, then release).
      'k8s-lease lock': () => timed(process.execPath, [BIN, 'lock', `bench-${++seq}`, '--', 'true'], env),
      'kubectl get leases': () =>
        kubectl === undefined
          ? Promise.reject(new Error('no kubectl found'))
          : timed(kubectl.path, ['get', 'leases', '-n', 'default'], env),
    };
    const contenders: Contender[] = ['node -e 0', 'k8s-lease --version', 'k8s-lease lock'];
    if (kubectl !== undefined) contenders.push('kubectl get leases');
    // One untimed run each: the page cache, the compile cache and kubectl's discovery cache are warm for all.
    for (const contender of contenders) await commands[contender]();
    const { results, failed } = await runInterleaved(contenders, rounds, (contender) => commands[contender]());
    const figures: Record<string, number | string> = { rounds };
    for (const contender of contenders) {
      const values = results.get(contender);
      if (values !== undefined) figures[`${contender}: median ms`] = round(median(values), 1);
    }
    const ratio = (key: string, ours: Contender, theirs: Contender): void => {
      const a = results.get(ours);
      const b = results.get(theirs);
      if (a === undefined || b === undefined) return;
      figures[key] = round(median(a.map((value, i) => value / b[i]!)), 3);
    };
    ratio('ratio k8s-lease --version / node -e 0 (median of round ratios)', 'k8s-lease --version', 'node -e 0');
    ratio('ratio k8s-lease lock / kubectl get leases (median of round ratios)', 'k8s-lease lock', 'kubectl get leases');
    return {
      name: 'cli',
      command: 'npm run bench -- cli',
      environment: `${environment()}${kubectl === undefined ? ', no kubectl' : `, kubectl 1.${kubectl.minor}`}`,
      figures,
      ...(failed.length === 0 ? {} : { failed }),
      goals: recordGoals(goalsOf('cli'), figures, {}),
    };
  } finally {
    await server.close();
    rmSync(home, { recursive: true, force: true });
  }
}
