import { X509Certificate, createPrivateKey } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startLeaseApiServer } from '../../templates/server/index.js';
import { createTestPki } from '../../templates/server/tls/pki.js';
import { NS_BASE, api, httpsJson } from './helpers.js';

const hasOpenssl = ['/usr/bin/openssl', '/usr/local/bin/openssl'].some((p) => existsSync(p));

describe('bearer tokens', () => {
  it('answers 401 without or with a wrong token, 200 with the right one', async () => {
    const server = await startLeaseApiServer({ token: 'secret' });
    try {
      const none = await api(server, 'GET', NS_BASE);
      expect(none.status).toBe(401);
      expect(none.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
      const wrong = await api(server, 'GET', NS_BASE, { headers: { Authorization: 'Bearer nope' } });
      expect(wrong.status).toBe(401);
      const right = await api(server, 'GET', NS_BASE, { headers: { Authorization: 'Bearer secret' } });
      expect(right.status).toBe(200);
      expect((await api(server, 'GET', '/version')).status).toBe(200);
      expect((await api(server, 'GET', '/apis')).status).toBe(401);
      expect(server.kubeconfig()).toContain('token: "secret"');
    } finally {
      await server.close();
    }
  });

  it('answers 403 Forbidden for forbidden tokens on Leases but still serves discovery', async () => {
    const server = await startLeaseApiServer({ token: 'secret', forbiddenTokens: ['blocked'] });
    try {
      const headers = { Authorization: 'Bearer blocked' };
      const res = await api(server, 'GET', NS_BASE, { headers });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({
        reason: 'Forbidden',
        message: 'leases.coordination.k8s.io is forbidden: User "forbidden-user" cannot list resource "leases" in API group "coordination.k8s.io" in the namespace "default"',
        details: { group: 'coordination.k8s.io', kind: 'leases' },
      });
      const create = await api(server, 'POST', NS_BASE, { headers, body: { metadata: { name: 'x' } } });
      expect(create.body.message).toContain('cannot create resource');
      expect((await api(server, 'GET', '/apis', { headers })).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('TLS', () => {
  it('generates a CA and a serving certificate for 127.0.0.1 and localhost with node:crypto', () => {
    const pki = createTestPki({ hosts: ['127.0.0.1', 'localhost', '::1'], clientCertificate: true });
    const ca = new X509Certificate(pki.ca.certificate);
    const leaf = new X509Certificate(pki.server.certificate);
    expect(ca.ca).toBe(true);
    expect(leaf.ca).toBe(false);
    expect(leaf.verify(ca.publicKey)).toBe(true);
    expect(leaf.checkIssued(ca)).toBe(true);
    expect(leaf.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(leaf.checkHost('localhost')).toBe('localhost');
    expect(leaf.subjectAltName).toBe('IP Address:127.0.0.1, DNS:localhost, IP Address:0:0:0:0:0:0:0:1');
    expect(leaf.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    expect(leaf.checkPrivateKey(createPrivateKey(pki.server.key))).toBe(true);
    const client = new X509Certificate(pki.client?.certificate ?? '');
    expect(client.keyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
    expect(client.subject).toContain('CN=lease-api-test-client');
  });

  it.skipIf(!hasOpenssl)('produces certificates openssl verifies', () => {
    const pki = createTestPki({ hosts: ['127.0.0.1', 'localhost'], clientCertificate: false });
    const dir = mkdtempSync(join(tmpdir(), 'pki-'));
    writeFileSync(join(dir, 'ca.pem'), pki.ca.certificate);
    writeFileSync(join(dir, 'server.pem'), pki.server.certificate);
    const out = execFileSync('openssl', ['verify', '-purpose', 'sslserver', '-CAfile', join(dir, 'ca.pem'), join(dir, 'server.pem')]).toString();
    expect(out.trim()).toBe(`${join(dir, 'server.pem')}: OK`);
  });

  it('serves HTTPS trusted through the generated CA, which the kubeconfig carries', async () => {
    const server = await startLeaseApiServer({ tls: true });
    try {
      expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const res = await httpsJson(server, '/version');
      expect(res.status).toBe(200);
      expect(server.kubeconfig()).toContain(`certificate-authority-data: ${Buffer.from(server.tls?.ca ?? '').toString('base64')}`);
      await expect(fetch(`${server.url}/version`)).rejects.toThrow();
    } finally {
      await server.close();
    }
  });

  it('requires a client certificate when asked, and the kubeconfig presents one', async () => {
    const server = await startLeaseApiServer({ tls: { clientCertificates: true } });
    try {
      await expect(httpsJson(server, NS_BASE)).rejects.toThrow();
      const res = await httpsJson(server, NS_BASE, { cert: server.tls?.clientCertificate, key: server.tls?.clientKey });
      expect(res.status).toBe(200);
      const kubeconfig = server.kubeconfig();
      expect(kubeconfig).toContain('client-certificate-data: ');
      expect(kubeconfig).toContain('client-key-data: ');
    } finally {
      await server.close();
    }
  });
});
