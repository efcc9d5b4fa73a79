// `kubectl delete namespace` against the packed server (real kubectl binaries, TLS and a token), as test
// suites that make a namespace per test use it: with --wait (kubectl's default; wait.IsDeleted lists and
// watches the namespace by metadata.name until DELETED) and without, the three namespaces the lifecycle
// admission plugin protects, and a create into a namespace that is terminating.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPackedPackages, type PackedInstall, type PackedServer } from '../../helpers/packed-packages.js';
import { findKubectls } from '../../helpers/external-tools.js';
import { describeWithTool } from '../../helpers/needs-tool.js';
import { KubectlSession, startServerForKubectl } from './kubectl-runner.js';

const found = findKubectls();
const TOKEN = 'kubectl-namespace-token';
const LEASE = (name: string, finalizers = ''): string =>
  `apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata:\n  name: ${name}\n${finalizers}spec:\n  holderIdentity: h\n`;

let install: PackedInstall;

describeWithTool('kubectl', found.length > 0 ? found : undefined, 'kubectl delete namespace', (binaries) => {
  beforeAll(async () => {
    install = await installPackedPackages();
  }, 240_000);

  describe.each(binaries)('$label', (binary) => {
    let server: PackedServer;
    let kubectl: KubectlSession;

    beforeAll(async () => {
      let kubeconfig: string;
      ({ server, kubeconfig } = await startServerForKubectl(install, TOKEN));
      kubectl = new KubectlSession(binary, kubeconfig);
    });
    afterAll(() => server.close());

    const createLease = (namespace: string, name: string, finalizers = '') => {
      const path = join(mkdtempSync(join(tmpdir(), 'kubectl-ns-')), `${name}.yaml`);
      writeFileSync(path, LEASE(name, finalizers));
      return kubectl.run(['create', '-n', namespace, '-f', path]);
    };
    const leaseIn = async (namespace: string, name: string, finalizers = ''): Promise<void> => {
      expect(await createLease(namespace, name, finalizers)).toMatchObject({
        code: 0,
        stdout: `lease.coordination.k8s.io/${name} created\n`,
      });
    };

    it('deletes a namespace and its Leases, waiting until it is gone (--wait, the default)', async () => {
      expect((await kubectl.run(['create', 'namespace', 'wait-ns'])).code).toBe(0);
      await leaseIn('wait-ns', 'a');
      const deleted = await kubectl.run(['delete', 'namespace', 'wait-ns']);
      expect(deleted).toMatchObject({ code: 0, stdout: 'namespace "wait-ns" deleted\n' });
      // --wait returned, so the namespace is already gone.
      const after = await kubectl.run(['get', 'namespace', 'wait-ns']);
      expect(after.code).not.toBe(0);
      expect(after.stderr).toContain('namespaces "wait-ns" not found');
      expect((await kubectl.run(['get', 'leases', '-n', 'wait-ns', '-o', 'name'])).stdout).toBe('');
    }, 60_000);

    it('returns at once with --wait=false, the namespace Terminating until the controller is done', async () => {
      expect((await kubectl.run(['create', 'namespace', 'nowait-ns'])).code).toBe(0);
      await leaseIn('nowait-ns', 'held', '  finalizers:\n    - example.com/hold\n');
      const deleted = await kubectl.run(['delete', 'namespace', 'nowait-ns', '--wait=false']);
      expect(deleted).toMatchObject({ code: 0, stdout: 'namespace "nowait-ns" deleted\n' });
      const phase = await kubectl.run(['get', 'namespace', 'nowait-ns', '-o', 'jsonpath={.status.phase}']);
      expect(phase).toMatchObject({ code: 0, stdout: 'Terminating' });
      // NamespaceLifecycle: nothing new in a terminating namespace.
      const late = await createLease('nowait-ns', 'late');
      expect(late.code).not.toBe(0);
      expect(late.stderr).toContain(
        'leases.coordination.k8s.io "late" is forbidden: unable to create new content in namespace nowait-ns because it is being terminated',
      );
      const released = await kubectl.run([
        'patch',
        'lease',
        'held',
        '-n',
        'nowait-ns',
        '--type=merge',
        '-p',
        '{"metadata":{"finalizers":null}}',
      ]);
      expect(released.code).toBe(0);
      // kubectl wait --for=delete: the same watch as delete --wait.
      const waited = await kubectl.run(['wait', '--for=delete', 'namespace/nowait-ns', '--timeout=30s']);
      expect(waited.code).toBe(0);
    }, 60_000);

    it.each(['default', 'kube-system', 'kube-public'])(
      'refuses to delete %s (403 from the lifecycle plugin)',
      async (name) => {
        const refused = await kubectl.run(['delete', 'namespace', name]);
        expect(refused.code).not.toBe(0);
        expect(refused.stderr).toContain(
          `Error from server (Forbidden): namespaces "${name}" is forbidden: this namespace may not be deleted`,
        );
      },
    );
  });
});
