// kubectl conformance: real kubectl binaries (default, 1.27, 1.33) driving the packed server package, installed
// into a fresh project and started as users start it (`lease-api-server serve`), over TLS with a token.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  installPackedPackages,
  startPackedServer,
  type PackedInstall,
  type PackedServer,
} from '../../helpers/packed-packages.js';
import { findKubectls } from '../../helpers/external-tools.js';
import { describeWithTool } from '../../helpers/needs-tool.js';
import { KubectlSession, startServerForKubectl } from './kubectl-runner.js';
import { leaseYaml } from './lease-yaml.js';
import { serverApi, withoutClientCertificate, type ServerApi } from './server-api.js';

const found = findKubectls();

const TOKEN = 'kubectl-conformance-token';

/** The suite's usual Lease: a holder and a 30 s duration. */
function holderLease(name: string, holder: string, labels: Record<string, string> = {}, extraSpec = ''): string {
  return leaseYaml(name, { holderIdentity: holder, leaseDurationSeconds: 30 }, labels, extraSpec);
}

let install: PackedInstall;

describeWithTool('kubectl', found.length > 0 ? found : undefined, 'kubectl conformance', (binaries) => {
  beforeAll(async () => {
    install = await installPackedPackages();
  }, 240_000);

  describe.each(binaries)('$label', (binary) => {
    let server: PackedServer;
    let api: ServerApi;
    let kubectl: KubectlSession;
    let dir: string;
    const file = (name: string, content: string): string => {
      const path = join(dir, name);
      writeFileSync(path, content);
      return path;
    };

    beforeAll(async () => {
      let kubeconfig: string;
      ({ server, dir, kubeconfig } = await startServerForKubectl(install, TOKEN, ['--release', '1.30']));
      api = serverApi(kubeconfig);
      kubectl = new KubectlSession(binary, kubeconfig);
    });
    afterAll(() => server.close());

    it('creates from a file and gets the Lease as JSON', async () => {
      const created = await kubectl.run([
        'create',
        '-f',
        file('a.yaml', holderLease('lease-a', 'alice', { app: 'demo' })),
      ]);
      expect(created).toMatchObject({ code: 0, stdout: 'lease.coordination.k8s.io/lease-a created\n' });
      const got = await kubectl.run(['get', 'lease', 'lease-a', '-o', 'json']);
      expect(got.code).toBe(0);
      const lease = JSON.parse(got.stdout) as {
        kind: string;
        metadata: { name: string; labels: Record<string, string> };
        spec: { holderIdentity: string };
      };
      expect(lease.kind).toBe('Lease');
      expect(lease.metadata.labels).toEqual({ app: 'demo' });
      expect(lease.spec.holderIdentity).toBe('alice');
    });

    it('creates a namespace with kubectl create namespace, and refuses Leases in a missing one as kube-apiserver does', async () => {
      const missing = await kubectl.run([
        'create',
        '-n',
        'team-x',
        '-f',
        file('x.yaml', holderLease('lease-x', 'xavier')),
      ]);
      expect(missing.code).not.toBe(0);
      expect(missing.stderr).toContain('namespaces "team-x" not found');
      const ns = await kubectl.run(['create', 'namespace', 'team-x']);
      expect(ns).toMatchObject({ code: 0, stdout: 'namespace/team-x created\n' });
      const created = await kubectl.run([
        'create',
        '-n',
        'team-x',
        '-f',
        file('x.yaml', holderLease('lease-x', 'xavier')),
      ]);
      expect(created).toMatchObject({ code: 0, stdout: 'lease.coordination.k8s.io/lease-x created\n' });
      expect((await api.get('lease-x', 'team-x'))?.spec?.holderIdentity).toBe('xavier');
      const got = await kubectl.run(['get', 'namespace', 'team-x', '-o', 'jsonpath={.status.phase}']);
      expect(got).toMatchObject({ code: 0, stdout: 'Active' });
    });

    it('lists with a label selector and a field selector as a table', async () => {
      await kubectl.run(['create', '-f', file('b.yaml', holderLease('lease-b', 'bob', { app: 'other' }))]);
      const byLabel = await kubectl.run(['get', 'leases', '-l', 'app=demo']);
      expect(byLabel.code).toBe(0);
      const rows = byLabel.stdout
        .trim()
        .split('\n')
        .map((line) => line.split(/\s+/));
      expect(rows[0]).toEqual(['NAME', 'HOLDER', 'AGE']);
      expect(rows.slice(1).map((r) => r.slice(0, 2))).toEqual([['lease-a', 'alice']]);
      const byField = await kubectl.run(['get', 'leases', '--field-selector', 'metadata.name=lease-b', '-o', 'name']);
      expect(byField.stdout).toBe('lease.coordination.k8s.io/lease-b\n');
      const unsupported = await kubectl.run(['get', 'leases', '--field-selector', 'spec.holderIdentity=bob']);
      expect(unsupported.code).not.toBe(0);
      // Lease registers no field-label conversion, so kube-apiserver answers with the scheme's default message.
      expect(unsupported.stderr).toContain(
        '"spec.holderIdentity" is not a known field selector: only "metadata.name", "metadata.namespace"',
      );
    });

    it('reports NotFound and strict field validation errors from the server', async () => {
      const missing = await kubectl.run(['get', 'lease', 'missing']);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain('Error from server (NotFound): leases.coordination.k8s.io "missing" not found');
      const unknown = await kubectl.run([
        'create',
        '-f',
        file('bad.yaml', holderLease('lease-bad', 'x', {}, '  bogus: 1')),
      ]);
      expect(unknown.code).not.toBe(0);
      expect(unknown.stderr).toContain('strict decoding error: unknown field "spec.bogus"');
    });

    it('replaces from a file', async () => {
      const replaced = await kubectl.run([
        'replace',
        '-f',
        file('a2.yaml', holderLease('lease-a', 'alice-2', { app: 'demo' })),
      ]);
      expect(replaced).toMatchObject({ code: 0, stdout: 'lease.coordination.k8s.io/lease-a replaced\n' });
      expect((await api.get('lease-a'))?.spec?.holderIdentity).toBe('alice-2');
    });

    it('patches with json, merge and strategic patches', async () => {
      const json = await kubectl.run([
        'patch',
        'lease',
        'lease-a',
        '--type=json',
        '-p',
        '[{"op":"replace","path":"/spec/holderIdentity","value":"json-holder"}]',
      ]);
      expect(json).toMatchObject({ code: 0, stdout: 'lease.coordination.k8s.io/lease-a patched\n' });
      const merge = await kubectl.run([
        'patch',
        'lease',
        'lease-a',
        '--type=merge',
        '-p',
        '{"spec":{"leaseTransitions":3}}',
      ]);
      expect(merge.stdout).toBe('lease.coordination.k8s.io/lease-a patched\n');
      const strategic = await kubectl.run([
        'patch',
        'lease',
        'lease-a',
        '--type=strategic',
        '-p',
        '{"metadata":{"labels":{"tier":"gold"}}}',
      ]);
      expect(strategic.stdout).toBe('lease.coordination.k8s.io/lease-a patched\n');
      const again = await kubectl.run([
        'patch',
        'lease',
        'lease-a',
        '--type=strategic',
        '-p',
        '{"metadata":{"labels":{"tier":"gold"}}}',
      ]);
      expect(again.stdout).toBe('lease.coordination.k8s.io/lease-a patched (no change)\n');
      const lease = await api.get('lease-a');
      expect(lease?.spec).toMatchObject({ holderIdentity: 'json-holder', leaseTransitions: 3 });
      expect(lease?.metadata.labels).toEqual({ app: 'demo', tier: 'gold' });
      expect(lease?.metadata.managedFields?.map((m) => m.manager)).toContain('kubectl-patch');
    });

    it('applies server-side, conflicts for a second field manager, and forces', async () => {
      const path = file('ssa.yaml', holderLease('lease-ssa', 'first'));
      const applied = await kubectl.run(['apply', '--server-side', '-f', path]);
      expect(applied).toMatchObject({ code: 0, stdout: 'lease.coordination.k8s.io/lease-ssa serverside-applied\n' });
      const other = file('ssa2.yaml', holderLease('lease-ssa', 'second'));
      const conflict = await kubectl.run(['apply', '--server-side', '--field-manager=other', '-f', other]);
      expect(conflict.code).not.toBe(0);
      expect(conflict.stderr).toContain('Apply failed with 1 conflict: conflict with "kubectl": .spec.holderIdentity');
      expect((await api.get('lease-ssa'))?.spec?.holderIdentity).toBe('first');
      const forced = await kubectl.run([
        'apply',
        '--server-side',
        '--field-manager=other',
        '--force-conflicts',
        '-f',
        other,
      ]);
      expect(forced).toMatchObject({ code: 0, stdout: 'lease.coordination.k8s.io/lease-ssa serverside-applied\n' });
      const lease = await api.get('lease-ssa');
      expect(lease?.spec?.holderIdentity).toBe('second');
      expect(lease?.metadata.managedFields?.map((m) => `${m.manager}/${m.operation}`).sort()).toEqual([
        'kubectl/Apply',
        'other/Apply',
      ]);
    });

    it('streams changes made by another client with get -w', async () => {
      const watcher = kubectl.spawn(['get', 'leases', '-w']);
      try {
        await watcher.waitFor('lease-b');
        expect(await api.patchHolder('lease-b', 'watched-holder')).toBe(200);
        await watcher.waitFor('watched-holder');
        const lines = watcher.output().trim().split('\n');
        expect(lines[0]?.split(/\s+/)).toEqual(['NAME', 'HOLDER', 'AGE']);
        expect(lines.at(-1)?.split(/\s+/).slice(0, 2)).toEqual(['lease-b', 'watched-holder']);
      } finally {
        watcher.child.kill('SIGKILL');
      }
    });

    it('explains lease.spec from the served OpenAPI document', async () => {
      const explained = await kubectl.run(['explain', 'lease.spec']);
      expect(explained.code).toBe(0);
      expect(explained.stdout).toContain('KIND:       Lease');
      expect(explained.stdout).toContain('holderIdentity');
      expect(explained.stdout).toContain('holderIdentity contains the identity of the holder of a current lease.');
      expect(explained.stdout).not.toContain('preferredHolder');
    });

    // kubectl's resource.Helper.Replace GETs the resourceVersion first and PUTs anyway when the object
    // is missing; the Lease strategy's AllowCreateOnUpdate makes that PUT a create (store.go Update).
    it('replaces a missing Lease from a file, creating it', async () => {
      const replaced = await kubectl.run(['replace', '-f', file('ghost.yaml', holderLease('lease-ghost', 'casper'))]);
      expect(replaced).toMatchObject({ code: 0, stdout: 'lease.coordination.k8s.io/lease-ghost replaced\n' });
      expect((await api.get('lease-ghost'))?.spec?.holderIdentity).toBe('casper');
    });

    // store.go Delete marks an object with finalizers (deletionTimestamp) and Update deletes it once the
    // last finalizer is removed.
    it('deletes a Lease with a pending finalizer in two steps', async () => {
      await api.create({
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name: 'lease-fin', namespace: 'default', finalizers: ['example.com/hold'] },
        spec: { holderIdentity: 'fin' },
      });
      const deleted = await kubectl.run(['delete', 'lease', 'lease-fin', '--wait=false']);
      expect(deleted.code).toBe(0);
      expect(deleted.stdout).toMatch(/^lease\.coordination\.k8s\.io "lease-fin" deleted/);
      const marked = await api.get('lease-fin');
      expect(marked?.metadata?.deletionTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(marked?.metadata?.finalizers).toEqual(['example.com/hold']);
      const released = await kubectl.run([
        'patch',
        'lease',
        'lease-fin',
        '--type=merge',
        '-p',
        '{"metadata":{"finalizers":null}}',
      ]);
      expect(released.code).toBe(0);
      expect(await api.get('lease-fin')).toBeUndefined();
    });

    it('deletes', async () => {
      const deleted = await kubectl.run(['delete', 'lease', 'lease-b']);
      expect(deleted.code).toBe(0);
      expect(deleted.stdout).toMatch(/^lease\.coordination\.k8s\.io "lease-b" deleted/);
      expect(await api.get('lease-b')).toBeUndefined();
    });
  });

  describe.each(binaries)('$label with client certificates', (binary) => {
    it('authenticates with the client certificate from the kubeconfig', async () => {
      const kubeconfig = join(mkdtempSync(join(tmpdir(), 'kubectl-mtls-')), 'kubeconfig');
      const server = await startPackedServer(install, ['--tls', '--client-certs', '--kubeconfig', kubeconfig]);
      try {
        const kubectl = new KubectlSession(binary, kubeconfig);
        await serverApi(kubeconfig).create({ metadata: { name: 'mtls' }, spec: { holderIdentity: 'cert-holder' } });
        const res = await kubectl.run(['get', 'lease', 'mtls', '-o', 'jsonpath={.spec.holderIdentity}']);
        expect(res).toMatchObject({ code: 0, stdout: 'cert-holder' });
      } finally {
        await server.close();
      }
    });

    it('authenticates with a bearer token alone when client certificates are accepted but not presented', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'kubectl-token-'));
      const full = join(dir, 'kubeconfig');
      const server = await startPackedServer(install, [
        '--tls',
        '--client-certs',
        '--token',
        TOKEN,
        '--kubeconfig',
        full,
      ]);
      try {
        const path = join(dir, 'token-only');
        writeFileSync(path, withoutClientCertificate(readFileSync(full, 'utf8')), { mode: 0o600 });
        const kubectl = new KubectlSession(binary, path);
        await serverApi(full).create({ metadata: { name: 'tok' }, spec: { holderIdentity: 'token-holder' } });
        const res = await kubectl.run(['get', 'lease', 'tok', '-o', 'jsonpath={.spec.holderIdentity}']);
        expect(res).toMatchObject({ code: 0, stdout: 'token-holder' });
      } finally {
        await server.close();
      }
    });
  });
});
