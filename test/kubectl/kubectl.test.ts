// kubectl conformance: real kubectl binaries (default, 1.27, 1.33) driving the test server over TLS with a token.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeaseApiServer } from '../../templates/server/index.js';
import { startLeaseApiServer } from '../../templates/server/index.js';
import { openApi130 } from '../server/helpers.js';
import { KubectlSession, kubectlBinaries } from './kubectl-runner.js';

const binaries = kubectlBinaries();
if (binaries.length === 0) {
  console.warn('\n*** kubectl NOT FOUND: the kubectl conformance suite is SKIPPED (looked in /usr/bin and /usr/lib/google-cloud-sdk/bin) ***\n');
}

const TOKEN = 'kubectl-conformance-token';

function leaseYaml(name: string, holder: string, labels: Record<string, string> = {}, extraSpec = ''): string {
  const labelLines = Object.entries(labels).map(([k, v]) => `    ${k}: "${v}"`);
  return [
    'apiVersion: coordination.k8s.io/v1',
    'kind: Lease',
    'metadata:',
    `  name: ${name}`,
    ...(labelLines.length > 0 ? ['  labels:', ...labelLines] : []),
    'spec:',
    `  holderIdentity: ${holder}`,
    '  leaseDurationSeconds: 30',
    ...(extraSpec === '' ? [] : [extraSpec]),
    '',
  ].join('\n');
}

/** A write by "another client": a merge patch over HTTPS with the server's CA and token. */
function patchHolder(server: LeaseApiServer, name: string, holder: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      `${server.url}/apis/coordination.k8s.io/v1/namespaces/default/leases/${name}`,
      { method: 'PATCH', ca: server.tls?.ca, headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/merge-patch+json' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ spec: { holderIdentity: holder } }));
  });
}

describe.skipIf(binaries.length === 0)('kubectl conformance', () => {
  describe.each(binaries)('$label', (binary) => {
    let server: LeaseApiServer;
    let kubectl: KubectlSession;
    let dir: string;
    const file = (name: string, content: string): string => {
      const path = join(dir, name);
      writeFileSync(path, content);
      return path;
    };

    beforeAll(async () => {
      server = await startLeaseApiServer({ openapi: openApi130(), release: '1.30.0', tls: true, token: TOKEN });
      dir = mkdtempSync(join(tmpdir(), 'kubectl-files-'));
      kubectl = new KubectlSession(binary, await server.writeKubeconfig());
    });
    afterAll(() => server.close());

    it('creates from a file and gets the Lease as JSON', async () => {
      const created = await kubectl.run(['create', '-f', file('a.yaml', leaseYaml('lease-a', 'alice', { app: 'demo' }))]);
      expect(created).toMatchObject({ code: 0, stdout: 'lease.coordination.k8s.io/lease-a created\n' });
      const got = await kubectl.run(['get', 'lease', 'lease-a', '-o', 'json']);
      expect(got.code).toBe(0);
      const lease = JSON.parse(got.stdout) as { kind: string; metadata: { name: string; labels: Record<string, string> }; spec: { holderIdentity: string } };
      expect(lease.kind).toBe('Lease');
      expect(lease.metadata.labels).toEqual({ app: 'demo' });
      expect(lease.spec.holderIdentity).toBe('alice');
    });

    it('creates a namespace with kubectl create namespace, and refuses Leases in a missing one as kube-apiserver does', async () => {
      const missing = await kubectl.run(['create', '-n', 'team-x', '-f', file('x.yaml', leaseYaml('lease-x', 'xavier'))]);
      expect(missing.code).not.toBe(0);
      expect(missing.stderr).toContain('namespaces "team-x" not found');
      const ns = await kubectl.run(['create', 'namespace', 'team-x']);
      expect(ns).toMatchObject({ code: 0, stdout: 'namespace/team-x created\n' });
      const created = await kubectl.run(['create', '-n', 'team-x', '-f', file('x.yaml', leaseYaml('lease-x', 'xavier'))]);
      expect(created).toMatchObject({ code: 0, stdout: 'lease.coordination.k8s.io/lease-x created\n' });
      expect(server.store.get('team-x', 'lease-x')?.spec?.holderIdentity).toBe('xavier');
      const got = await kubectl.run(['get', 'namespace', 'team-x', '-o', 'jsonpath={.status.phase}']);
      expect(got).toMatchObject({ code: 0, stdout: 'Active' });
    });

    it('lists with a label selector and a field selector as a table', async () => {
      await kubectl.run(['create', '-f', file('b.yaml', leaseYaml('lease-b', 'bob', { app: 'other' }))]);
      const byLabel = await kubectl.run(['get', 'leases', '-l', 'app=demo']);
      expect(byLabel.code).toBe(0);
      const rows = byLabel.stdout.trim().split('\n').map((line) => line.split(/\s+/));
      expect(rows[0]).toEqual(['NAME', 'HOLDER', 'AGE']);
      expect(rows.slice(1).map((r) => r.slice(0, 2))).toEqual([['lease-a', 'alice']]);
      const byField = await kubectl.run(['get', 'leases', '--field-selector', 'metadata.name=lease-b', '-o', 'name']);
      expect(byField.stdout).toBe('lease.coordination.k8s.io/lease-b\n');
      const unsupported = await kubectl.run(['get', 'leases', '--field-selector', 'spec.holderIdentity=bob']);
      expect(unsupported.code).not.toBe(0);
      expect(unsupported.stderr).toContain('field label not supported: spec.holderIdentity');
    });

    it('reports NotFound and strict field validation errors from the server', async () => {
      const missing = await kubectl.run(['get', 'lease', 'missing']);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain('Error from server (NotFound): leases.coordination.k8s.io "missing" not found');
      const unknown = await kubectl.run(['create', '-f', file('bad.yaml', leaseYaml('lease-bad', 'x', {}, '  bogus: 1'))]);
      expect(unknown.code).not.toBe(0);
      expect(unknown.stderr).toContain('strict decoding error: unknown field "spec.bogus"');
    });

    it('replaces from a file', async () => {
      const replaced = await kubectl.run(['replace', '-f', file('a2.yaml', leaseYaml('lease-a', 'alice-2', { app: 'demo' }))]);
      expect(replaced).toMatchObject({ code: 0, stdout: 'lease.coordination.k8s.io/lease-a replaced\n' });
      expect(server.store.get('default', 'lease-a')?.spec?.holderIdentity).toBe('alice-2');
    });

    it('patches with json, merge and strategic patches', async () => {
      const json = await kubectl.run(['patch', 'lease', 'lease-a', '--type=json', '-p', '[{"op":"replace","path":"/spec/holderIdentity","value":"json-holder"}]']);
      expect(json).toMatchObject({ code: 0, stdout: 'lease.coordination.k8s.io/lease-a patched\n' });
      const merge = await kubectl.run(['patch', 'lease', 'lease-a', '--type=merge', '-p', '{"spec":{"leaseTransitions":3}}']);
      expect(merge.stdout).toBe('lease.coordination.k8s.io/lease-a patched\n');
      const strategic = await kubectl.run(['patch', 'lease', 'lease-a', '--type=strategic', '-p', '{"metadata":{"labels":{"tier":"gold"}}}']);
      expect(strategic.stdout).toBe('lease.coordination.k8s.io/lease-a patched\n');
      const again = await kubectl.run(['patch', 'lease', 'lease-a', '--type=strategic', '-p', '{"metadata":{"labels":{"tier":"gold"}}}']);
      expect(again.stdout).toBe('lease.coordination.k8s.io/lease-a patched (no change)\n');
      const lease = server.store.get('default', 'lease-a');
      expect(lease?.spec).toMatchObject({ holderIdentity: 'json-holder', leaseTransitions: 3 });
      expect(lease?.metadata.labels).toEqual({ app: 'demo', tier: 'gold' });
      expect(lease?.metadata.managedFields?.map((m) => m.manager)).toContain('kubectl-patch');
    });

    it('applies server-side, conflicts for a second field manager, and forces', async () => {
      const path = file('ssa.yaml', leaseYaml('lease-ssa', 'first'));
      const applied = await kubectl.run(['apply', '--server-side', '-f', path]);
      expect(applied).toMatchObject({ code: 0, stdout: 'lease.coordination.k8s.io/lease-ssa serverside-applied\n' });
      const other = file('ssa2.yaml', leaseYaml('lease-ssa', 'second'));
      const conflict = await kubectl.run(['apply', '--server-side', '--field-manager=other', '-f', other]);
      expect(conflict.code).not.toBe(0);
      expect(conflict.stderr).toContain('Apply failed with 1 conflict: conflict with "kubectl": .spec.holderIdentity');
      expect(server.store.get('default', 'lease-ssa')?.spec?.holderIdentity).toBe('first');
      const forced = await kubectl.run(['apply', '--server-side', '--field-manager=other', '--force-conflicts', '-f', other]);
      expect(forced).toMatchObject({ code: 0, stdout: 'lease.coordination.k8s.io/lease-ssa serverside-applied\n' });
      const lease = server.store.get('default', 'lease-ssa');
      expect(lease?.spec?.holderIdentity).toBe('second');
      expect(lease?.metadata.managedFields?.map((m) => `${m.manager}/${m.operation}`).sort()).toEqual(['kubectl/Apply', 'other/Apply']);
    });

    it('streams changes made by another client with get -w', async () => {
      const watcher = kubectl.spawn(['get', 'leases', '-w']);
      try {
        await watcher.waitFor('lease-b');
        expect(await patchHolder(server, 'lease-b', 'watched-holder')).toBe(200);
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

    it('deletes', async () => {
      const deleted = await kubectl.run(['delete', 'lease', 'lease-b']);
      expect(deleted.code).toBe(0);
      expect(deleted.stdout).toMatch(/^lease\.coordination\.k8s\.io "lease-b" deleted/);
      expect(server.store.get('default', 'lease-b')).toBeUndefined();
    });
  });

  describe.each(binaries)('$label with client certificates', (binary) => {
    it('authenticates with the client certificate from the kubeconfig', async () => {
      const server = await startLeaseApiServer({ tls: { clientCertificates: true } });
      try {
        const kubectl = new KubectlSession(binary, await server.writeKubeconfig());
        server.store.create({ metadata: { name: 'mtls', namespace: 'default' }, spec: { holderIdentity: 'cert-holder' } });
        const res = await kubectl.run(['get', 'lease', 'mtls', '-o', 'jsonpath={.spec.holderIdentity}']);
        expect(res).toMatchObject({ code: 0, stdout: 'cert-holder' });
      } finally {
        await server.close();
      }
    });

    it('authenticates with a bearer token alone when client certificates are accepted but not presented', async () => {
      const server = await startLeaseApiServer({ tls: { clientCertificates: true }, token: TOKEN });
      try {
        const tokenOnly = server
          .kubeconfig()
          .split('\n')
          .filter((line) => !line.includes('client-certificate-data') && !line.includes('client-key-data'))
          .join('\n');
        const path = join(mkdtempSync(join(tmpdir(), 'kubectl-token-')), 'kubeconfig');
        writeFileSync(path, tokenOnly, { mode: 0o600 });
        const kubectl = new KubectlSession(binary, path);
        server.store.create({ metadata: { name: 'tok', namespace: 'default' }, spec: { holderIdentity: 'token-holder' } });
        const res = await kubectl.run(['get', 'lease', 'tok', '-o', 'jsonpath={.spec.holderIdentity}']);
        expect(res).toMatchObject({ code: 0, stdout: 'token-holder' });
      } finally {
        await server.close();
      }
    });
  });
});
