// Real kubectl (default, 1.27, 1.33) and server-side apply against the packed server, started as users
// start it: conflicts (exit code, message naming the manager and every field), --force-conflicts,
// `kubectl diff --server-side` and plain `kubectl diff` against a live Lease.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPackedPackages, type PackedServer } from '../../helpers/packed-packages.js';
import { findKubectls } from '../../helpers/external-tools.js';
import { describeWithTool } from '../../helpers/needs-tool.js';
import { KubectlSession, startServerForKubectl } from './kubectl-runner.js';
import { leaseYaml } from './lease-yaml.js';
import { serverApi, type ServerApi } from './server-api.js';

const found = findKubectls();

const TOKEN = 'kubectl-apply-token';

describeWithTool('kubectl', found.length > 0 ? found : undefined, 'kubectl and server-side apply', (binaries) => {
  let server: PackedServer;
  let dir: string;
  let kubeconfig: string;
  let api: ServerApi;

  beforeAll(async () => {
    ({ server, dir, kubeconfig } = await startServerForKubectl(await installPackedPackages(), TOKEN));
    api = serverApi(kubeconfig);
  }, 240_000);
  afterAll(() => server?.close());

  const file = (name: string, content: string): string => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };

  describe.each(binaries)('$label', (binary) => {
    let kubectl: KubectlSession;
    const suffix = binary.label.replace(/[^0-9a-z]+/g, '-').replace(/-+$/, '');
    beforeAll(() => {
      kubectl = new KubectlSession(binary, kubeconfig);
    });

    it('fails a conflicting apply with exit code 1 and the upstream message, then forces', async () => {
      // k8s.io/apimachinery managedfields/internal/conflict.go NewConflictError; kubectl prints the
      // Status message after "Error from server (Conflict):".
      const name = `conflict-${suffix}`;
      const first = file(`${name}-1.yaml`, leaseYaml(name, { holderIdentity: 'first', leaseDurationSeconds: 30 }));
      expect(await kubectl.run(['apply', '--server-side', '-f', first])).toMatchObject({
        code: 0,
        stdout: `lease.coordination.k8s.io/${name} serverside-applied\n`,
      });
      const second = file(`${name}-2.yaml`, leaseYaml(name, { holderIdentity: 'second', leaseDurationSeconds: 40 }));
      const conflict = await kubectl.run(['apply', '--server-side', '--field-manager=other', '-f', second]);
      expect(conflict.code).toBe(1);
      expect(conflict.stderr).toContain(
        'Apply failed with 2 conflicts: conflicts with "kubectl":\n- .spec.holderIdentity\n- .spec.leaseDurationSeconds',
      );
      expect((await api.get(name))?.spec?.holderIdentity).toBe('first');
      const forced = await kubectl.run([
        'apply',
        '--server-side',
        '--field-manager=other',
        '--force-conflicts',
        '-f',
        second,
      ]);
      expect(forced).toMatchObject({ code: 0, stdout: `lease.coordination.k8s.io/${name} serverside-applied\n` });
      const lease = await api.get(name);
      expect(lease?.spec).toMatchObject({ holderIdentity: 'second', leaseDurationSeconds: 40 });
      // The first applier lost both fields to the forced one and has no entry left.
      expect(lease?.metadata.managedFields?.map((m) => `${m.manager}/${m.operation}`)).toEqual(['other/Apply']);
    });

    it('names an Update manager with its API version in a conflict', async () => {
      const name = `update-owner-${suffix}`;
      const created = file(`${name}.yaml`, leaseYaml(name, { holderIdentity: 'created' }));
      expect((await kubectl.run(['create', '-f', created])).code).toBe(0);
      const applied = file(`${name}-apply.yaml`, leaseYaml(name, { holderIdentity: 'applied' }));
      const conflict = await kubectl.run(['apply', '--server-side', '-f', applied]);
      expect(conflict.code).toBe(1);
      expect(conflict.stderr).toContain(
        'Apply failed with 1 conflict: conflict with "kubectl-create" using coordination.k8s.io/v1: .spec.holderIdentity',
      );
    });

    it('moves a Lease from client-side to server-side apply without conflicts on its own fields', async () => {
      // kubectl's csaupgrade (its managedFields patch) and apimachinery managedfields/internal
      // lastappliedmanager.go / lastappliedupdater.go on the server side.
      const name = `migrate-${suffix}`;
      const first = file(`${name}.yaml`, leaseYaml(name, { holderIdentity: 'csa', leaseDurationSeconds: 30 }));
      expect((await kubectl.run(['apply', '-f', first])).code).toBe(0);
      const second = file(`${name}-2.yaml`, leaseYaml(name, { holderIdentity: 'ssa', leaseDurationSeconds: 30 }));
      const migrated = await kubectl.run(['apply', '--server-side', '-f', second]);
      expect(migrated).toMatchObject({ code: 0, stdout: `lease.coordination.k8s.io/${name} serverside-applied\n` });
      const lease = await api.get(name);
      expect(lease?.spec?.holderIdentity).toBe('ssa');
      const lastApplied = lease?.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration'] ?? '';
      expect(JSON.parse(lastApplied)).toMatchObject({ spec: { holderIdentity: 'ssa' } });
    });

    it('shows a server-side diff of an apply without storing it, and no diff when nothing changes', async () => {
      const name = `diff-ssa-${suffix}`;
      const live = file(`${name}.yaml`, leaseYaml(name, { holderIdentity: 'live', leaseDurationSeconds: 30 }));
      expect((await kubectl.run(['apply', '--server-side', '-f', live])).code).toBe(0);
      const same = await kubectl.run(['diff', '--server-side', '-f', live]);
      expect(same).toMatchObject({ code: 0, stdout: '' });
      const changed = file(`${name}-2.yaml`, leaseYaml(name, { holderIdentity: 'planned', leaseDurationSeconds: 30 }));
      const diff = await kubectl.run(['diff', '--server-side', '-f', changed]);
      expect(diff.code).toBe(1);
      expect(diff.stdout).toMatch(/^- {2}holderIdentity: live$/m);
      expect(diff.stdout).toMatch(/^\+ {2}holderIdentity: planned$/m);
      const changes = diff.stdout.split('\n').filter((line) => /^[-+](?![-+]{2} )/.test(line));
      expect(changes).toEqual(['-  holderIdentity: live', '+  holderIdentity: planned']);
      expect((await api.get(name))?.spec?.holderIdentity).toBe('live');
    });

    it('shows a client-side diff against a live Lease', async () => {
      const name = `diff-csa-${suffix}`;
      const live = file(`${name}.yaml`, leaseYaml(name, { holderIdentity: 'live' }, { app: 'demo' }));
      expect((await kubectl.run(['apply', '-f', live])).code).toBe(0);
      expect(await kubectl.run(['diff', '-f', live])).toMatchObject({ code: 0, stdout: '' });
      const changed = file(`${name}-2.yaml`, leaseYaml(name, { holderIdentity: 'planned' }, { app: 'other' }));
      const diff = await kubectl.run(['diff', '-f', changed]);
      expect(diff.code).toBe(1);
      expect(diff.stdout).toMatch(/^- {4}app: demo$/m);
      expect(diff.stdout).toMatch(/^\+ {4}app: other$/m);
      expect(diff.stdout).toMatch(/^- {2}holderIdentity: live$/m);
      expect(diff.stdout).toMatch(/^\+ {2}holderIdentity: planned$/m);
      expect((await api.get(name))?.spec?.holderIdentity).toBe('live');
    });
  });
});
