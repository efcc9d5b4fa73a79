// `k8s-lease elect --coordinated` as real processes against the Lease API server with CoordinatedLeaderElection on
// (its election controller, templates/k8s-lease-api-server/src/candidates/): each replica keeps a LeaseCandidate
// named after its identity in the Lease's namespace with leaseName the Lease, as kube-controller-manager does
// (cmd/kube-controller-manager/app/controllermanager.go Run: leaderelection.NewCandidate(client, "kube-system", id,
// "kube-controller-manager", …, OldestEmulationVersion)); the controller names the holder
// (pkg/controlplane/controller/leaderelection reconcileElectionStep), and only the named replica's command runs
// (client-go tools/leaderelection/leaderelection.go tryCoordinatedRenew: a coordinated elector never acquires).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import { start } from '../helpers.js';
import { exited, run, spawnCli, until } from './harness.js';

let coordinated: LeaseApiServer;
let plain: LeaseApiServer;
const scratch = mkdtempSync(join(tmpdir(), 'k8s-lease-coordinated-'));

beforeAll(async () => {
  coordinated = await start({ release: '1.34', coordinatedLeaderElection: true });
  plain = await start({ release: '1.34' });
});
afterAll(async () => {
  await coordinated.close();
  await plain.close();
  rmSync(scratch, { recursive: true, force: true });
});

const FAST = ['--lease-duration', '3s', '--renew-deadline', '2s', '--retry-period', '200ms', '--grace', '300ms'];
const lines = (file: string): string[] =>
  existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];

interface CandidateList {
  items: { metadata: { name: string }; spec: Record<string, unknown> }[];
}

function listCandidates(): Promise<CandidateList> {
  const url = `${coordinated.url}/apis/coordination.k8s.io/v1beta1/namespaces/default/leasecandidates`;
  return fetch(url).then((r) => r.json() as Promise<CandidateList>);
}

/** How many commands run at once at most, by their own start and end records (in the order they were appended). */
function mostAtOnce(records: readonly string[]): number {
  let running = 0;
  let most = 0;
  for (const record of records) {
    running += record.startsWith('start ') ? 1 : -1;
    most = Math.max(most, running);
  }
  return most;
}

describe('k8s-lease elect --coordinated', () => {
  it('runs exactly one command among three replicas, the one the controller names; stopping it hands over to another', async () => {
    const kubeconfig = await coordinated.writeKubeconfig();
    const name = 'coordinated-job';
    const file = join(scratch, name);
    const script = `echo "start $ID" >> ${file}; trap 'echo "end $ID" >> ${file}; exit 0' TERM; while :; do sleep 0.05; done`;
    // replica-a announces the oldest version: election.go pickBestLeaderOldestEmulationVersion prefers it, whichever
    // replica the controller named first (a holder it prefers less yields at the end of its term, preferredHolder).
    const versions: Record<string, string> = { 'replica-a': '1.0.0', 'replica-b': '1.1.0', 'replica-c': '1.1.0' };
    const ids = Object.keys(versions);
    const replicas = new Map(
      ids.map((id) => {
        const own = ['--identity', id, '--binary-version', versions[id] ?? ''];
        const args = ['elect', name, '--kubeconfig', kubeconfig, '--coordinated', ...own, ...FAST];
        return [id, spawnCli([...args, '--', 'sh', '-c', script], { ID: id })];
      }),
    );
    const ends = new Map([...replicas].map(([id, child]) => [id, exited(child)]));
    const holder = (): string => String(coordinated.store.get('default', name)?.spec?.holderIdentity ?? '');
    try {
      await until(() => lines(file).at(-1) === 'start replica-a');
      expect(holder()).toBe('replica-a');
      expect(coordinated.store.get('default', name)?.spec?.strategy).toBe('OldestEmulationVersion');
      // The others may still be starting on a loaded machine: each announces itself in time.
      let candidates = await listCandidates();
      for (const deadline = Date.now() + 30_000; candidates.items.length < ids.length && Date.now() < deadline; ) {
        await new Promise((r) => setTimeout(r, 100));
        candidates = await listCandidates();
      }
      expect(candidates.items.map((c) => c.metadata.name).sort()).toEqual(ids);
      expect(candidates.items.find((c) => c.metadata.name === 'replica-a')?.spec).toMatchObject({
        leaseName: name,
        binaryVersion: '1.0.0',
        emulationVersion: '1.0.0',
        strategy: 'OldestEmulationVersion',
      });
      // Two more seconds (several renewals and controller passes): still the one command.
      const settled = lines(file);
      await new Promise((r) => setTimeout(r, 2_000));
      expect(lines(file)).toEqual(settled);

      replicas.get('replica-a')?.kill('SIGTERM');
      expect((await ends.get('replica-a'))?.code).toBe(0);
      await until(() => lines(file).length >= settled.length + 2);
      const [stopped, next] = lines(file).slice(settled.length);
      expect(stopped).toBe('end replica-a');
      const second = next?.slice('start '.length) ?? '';
      expect(['replica-b', 'replica-c']).toContain(second);
      expect(holder()).toBe(second);
      // The stopped replica withdrew its candidacy (deleted its LeaseCandidate) rather than leave it to be pinged.
      candidates = await listCandidates();
      expect(candidates.items.map((c) => c.metadata.name).sort()).toEqual(['replica-b', 'replica-c']);
      expect(mostAtOnce(lines(file))).toBe(1);
    } finally {
      for (const child of replicas.values()) child.kill('SIGTERM');
      await Promise.all(ends.values());
    }
    expect(mostAtOnce(lines(file))).toBe(1);
  });

  it('ends at once, exit 1 in one line, when the server refuses the LeaseCandidate (an emulation version above the binary)', async () => {
    const kubeconfig = await coordinated.writeKubeconfig();
    const versions = ['--binary-version', '1.2.0', '--emulation-version', '1.3.0'];
    const result = await run([
      'elect',
      'refused',
      '--kubeconfig',
      kubeconfig,
      '--coordinated',
      ...versions,
      '--',
      'true',
    ]);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(
      /^k8s-lease: POST \S+\/leasecandidates: 422 Invalid: .*spec\.binaryVersion: Invalid value: "1\.2\.0": must be greater than or equal to `emulationVersion`\n$/,
    );
  });

  it('ends at once, exit 1 in one line without the token, when the LeaseCandidate is forbidden (403), deleting nothing', async () => {
    const denied = await start({
      release: '1.34',
      coordinatedLeaderElection: true,
      tls: true,
      forbiddenTokens: ['denied-token'],
    });
    try {
      const kubeconfig = await denied.writeKubeconfig(undefined, { token: 'denied-token' });
      const result = await run(['elect', 'x', '--kubeconfig', kubeconfig, '--coordinated', '--', 'true']);
      expect(result.code).toBe(1);
      expect(result.err).toMatch(/^k8s-lease: GET \S+\/leasecandidates\/\S+: 403 Forbidden: [^\n]*\n$/);
      expect(result.err).not.toContain('denied-token');
    } finally {
      await denied.close();
    }
  });

  it('refuses in one line, exit 5, where the cluster serves no LeaseCandidate', async () => {
    const kubeconfig = await plain.writeKubeconfig();
    const result = await run(['elect', 'x', '--kubeconfig', kubeconfig, '--coordinated', '--', 'true']);
    expect(result).toEqual({
      code: 5,
      out: '',
      err: 'k8s-lease: elect --coordinated: the cluster serves no LeaseCandidate (coordination.k8s.io v1beta1, v1alpha2 or v1alpha1: Kubernetes 1.31+ with the CoordinatedLeaderElection feature gate); run without --coordinated\n',
    });
  });
});
