// kubectl 1.33 and LeaseCandidates: the packed server started as users start it, with the
// CoordinatedLeaderElection feature gate, as a 1.33 cluster (LeaseCandidate in v1beta1 and v1alpha2).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { installPackedPackages, type PackedServer } from '../../helpers/packed-packages.js';
import { findKubectlMinor } from '../../helpers/external-tools.js';
import { describeWithTool } from '../../helpers/needs-tool.js';
import { KubectlSession, startServerForKubectl } from './kubectl-runner.js';

const kubectl133 = findKubectlMinor(33);

const TOKEN = 'kubectl-leasecandidate-token';

function candidateYaml(name: string, binaryVersion: string, emulationVersion: string): string {
  return [
    'apiVersion: coordination.k8s.io/v1beta1',
    'kind: LeaseCandidate',
    'metadata:',
    `  name: ${name}`,
    'spec:',
    '  leaseName: kube-scheduler',
    `  binaryVersion: ${binaryVersion}`,
    `  emulationVersion: ${emulationVersion}`,
    '  strategy: OldestEmulationVersion',
    '',
  ].join('\n');
}

describeWithTool(
  'kubectl 1.33',
  kubectl133,
  'kubectl 1.33 and LeaseCandidates (--feature-gates CoordinatedLeaderElection=true)',
  (binary) => {
    let server: PackedServer;
    let kubectl: KubectlSession;
    let dir: string;

    beforeAll(async () => {
      let kubeconfig: string;
      ({ server, dir, kubeconfig } = await startServerForKubectl(await installPackedPackages(), TOKEN, [
        '--release',
        '1.33',
        '--feature-gates',
        'CoordinatedLeaderElection=true',
      ]));
      kubectl = new KubectlSession(binary, kubeconfig);
    }, 240_000);
    afterAll(() => server?.close());

    it('creates from YAML, lists with the printer columns, describes, explains, reads in v1alpha2, refuses an invalid one, and deletes', async () => {
      const path = join(dir, 'candidates.yaml');
      writeFileSync(
        path,
        `${candidateYaml('apiserver-a', '1.33.1', '1.33.0')}---\n${candidateYaml('apiserver-b', '1.34.0', '1.34.0')}`,
      );
      const created = await kubectl.run(['create', '-f', path]);
      expect(created).toMatchObject({
        code: 0,
        stdout:
          'leasecandidate.coordination.k8s.io/apiserver-a created\nleasecandidate.coordination.k8s.io/apiserver-b created\n',
      });

      const listed = await kubectl.run(['get', 'leasecandidates']);
      expect(listed.code).toBe(0);
      const rows = listed.stdout
        .trim()
        .split('\n')
        .map((line) => line.split(/\s+/).slice(0, 4));
      expect(rows).toEqual([
        ['NAME', 'LEASENAME', 'BINARYVERSION', 'EMULATIONVERSION'],
        ['apiserver-a', 'kube-scheduler', '1.33.1', '1.33.0'],
        ['apiserver-b', 'kube-scheduler', '1.34.0', '1.34.0'],
      ]);

      const described = await kubectl.run(['describe', 'leasecandidate', 'apiserver-a']);
      expect(described.code).toBe(0);
      expect(described.stdout).toMatch(/API Version:\s+coordination\.k8s\.io\/v1beta1/);
      expect(described.stdout).toMatch(/Emulation Version:\s+1\.33\.0/);

      const explained = await kubectl.run(['explain', 'leasecandidates.spec']);
      expect(explained.code).toBe(0);
      expect(explained.stdout).toMatch(/KIND:\s+LeaseCandidate/);
      expect(explained.stdout).toMatch(/leaseName\s+<string> -required-/);

      const alpha = await kubectl.run([
        'get',
        'leasecandidates.v1alpha2.coordination.k8s.io',
        'apiserver-b',
        '-o',
        'json',
      ]);
      expect(JSON.parse(alpha.stdout)).toMatchObject({
        apiVersion: 'coordination.k8s.io/v1alpha2',
        kind: 'LeaseCandidate',
        spec: { binaryVersion: '1.34.0' },
      });

      const invalid = await kubectl.run(['create', '-f', writeBad(dir)]);
      expect(invalid.code).not.toBe(0);
      expect(invalid.stderr).toContain(
        'spec.binaryVersion: Invalid value: "1.32.0": must be greater than or equal to `emulationVersion`',
      );

      const deleted = await kubectl.run(['delete', 'leasecandidate', 'apiserver-a', 'apiserver-b']);
      expect(deleted).toMatchObject({
        code: 0,
        stdout:
          'leasecandidate.coordination.k8s.io "apiserver-a" deleted\nleasecandidate.coordination.k8s.io "apiserver-b" deleted\n',
      });
      const empty = await kubectl.run(['get', 'leasecandidates']);
      expect(empty.stderr).toContain('No resources found in default namespace.');
    });
  },
);

function writeBad(dir: string): string {
  const path = join(dir, 'bad.yaml');
  writeFileSync(path, candidateYaml('apiserver-bad', '1.32.0', '1.33.0'));
  return path;
}
