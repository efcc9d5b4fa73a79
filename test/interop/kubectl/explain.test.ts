// kubectl explain and api-resources against the packed server (release 1.33 with the CoordinatedLeaderElection
// gate, over TLS with a token), for every kubectl on the machine: explain reads /openapi/v2 as gnostic protobuf
// with --output=plaintext-openapiv2 (kubectl/pkg/explain via kube-openapi pkg/util/proto) and /openapi/v3 by the
// index's hashed serverRelativeURL otherwise (kubectl/pkg/explain/v2, client-go openapi3 root); api-resources
// reads aggregated discovery.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPackedPackages, type PackedServer } from '../../helpers/packed-packages.js';
import { findKubectls } from '../../helpers/external-tools.js';
import { describeWithTool } from '../../helpers/needs-tool.js';
import { KubectlSession, startServerForKubectl } from './kubectl-runner.js';

const found = findKubectls();

const TOKEN = 'kubectl-explain-token';

describeWithTool('kubectl', found.length > 0 ? found : undefined, 'kubectl explain and api-resources', (binaries) => {
  let server: PackedServer;
  let kubeconfig: string;

  beforeAll(async () => {
    ({ server, kubeconfig } = await startServerForKubectl(await installPackedPackages(), TOKEN, [
      '--release',
      '1.33',
      '--feature-gates',
      'CoordinatedLeaderElection=true',
    ]));
  }, 240_000);
  afterAll(() => server?.close());

  describe.each(binaries)('$label', (binary) => {
    const session = (): KubectlSession => new KubectlSession(binary, kubeconfig);

    it('explains leases from /openapi/v2 (plaintext-openapiv2)', async () => {
      const explained = await session().run(['explain', 'leases', '--output=plaintext-openapiv2']);
      expect(explained.stderr).toBe('');
      expect(explained.code).toBe(0);
      expect(explained.stdout).toMatch(/KIND:\s+Lease/);
      expect(explained.stdout).toMatch(/VERSION:\s+coordination\.k8s\.io\/v1/);
      expect(explained.stdout).toContain('Lease defines a lease concept.');
      expect(explained.stdout).toMatch(/spec\s+<LeaseSpec>|spec\s+<Object>/);
    });

    it('explains leases.spec.holderIdentity from /openapi/v2 (a nested field through $ref)', async () => {
      const explained = await session().run(['explain', 'leases.spec.holderIdentity', '--output=plaintext-openapiv2']);
      expect(explained.code).toBe(0);
      expect(explained.stdout).toContain('holderIdentity contains the identity of the holder of a current lease.');
    });

    it('explains leasecandidates from /openapi/v2 when the gate serves them', async () => {
      const explained = await session().run(['explain', 'leasecandidates.spec', '--output=plaintext-openapiv2']);
      expect(explained.code).toBe(0);
      expect(explained.stdout).toMatch(/KIND:\s+LeaseCandidate/);
      expect(explained.stdout).toContain('leaseName');
    });

    it('explains leases.spec from /openapi/v3 (the default output)', async () => {
      const explained = await session().run(['explain', 'leases.spec']);
      expect(explained.code).toBe(0);
      expect(explained.stdout).toMatch(/KIND:\s+Lease/);
      expect(explained.stdout).toContain('holderIdentity');
      expect(explained.stdout).toContain('renewTime');
    });

    it('lists the served resources with api-resources', async () => {
      const listed = await session().run(['api-resources', '--api-group=coordination.k8s.io', '-o', 'wide']);
      expect(listed.code).toBe(0);
      const rows = listed.stdout.split('\n').filter((line) => line.trim() !== '');
      expect(rows.find((row) => /^leases\s/.test(row))).toMatch(/coordination\.k8s\.io\/v1\s+true\s+Lease\b/);
      expect(rows.find((row) => /^leasecandidates\s/.test(row))).toMatch(
        /coordination\.k8s\.io\/v1beta1\s+true\s+LeaseCandidate\b/,
      );
    });
  });
});
