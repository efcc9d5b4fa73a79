import { execFileSync } from 'node:child_process';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clientSubject, createTestPki } from '../../../templates/k8s-lease-api-server/src/tls/pki.js';

describe('createTestPki', () => {
  it('generates a CA, a serving certificate for 127.0.0.1, localhost and ::1, and a client certificate naming user and groups', async () => {
    const pki = await createTestPki({
      hosts: ['127.0.0.1', 'localhost', '::1', 'localhost'],
      clientCertificate: true,
      clientCommonName: 'alice',
      clientGroups: ['team-a', 'team-b'],
    });
    const ca = new X509Certificate(pki.ca.certificate);
    const leaf = new X509Certificate(pki.server.certificate);
    expect(ca.ca).toBe(true);
    expect(ca.subject).toBe('CN=lease-api-test-ca');
    expect(leaf.ca).toBe(false);
    expect(leaf.verify(ca.publicKey)).toBe(true);
    expect(leaf.checkIssued(ca)).toBe(true);
    expect(leaf.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(leaf.checkIP('::1')).toBe('::1');
    expect(leaf.checkHost('localhost')).toBe('localhost');
    expect(leaf.subjectAltName).toBe('IP Address:127.0.0.1, DNS:localhost, IP Address:0:0:0:0:0:0:0:1');
    expect(leaf.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    expect(leaf.publicKey.asymmetricKeyDetails).toEqual({ namedCurve: 'prime256v1' });
    expect(leaf.checkPrivateKey(createPrivateKey(pki.server.key))).toBe(true);
    expect(pki.server.key).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    const client = new X509Certificate(pki.client?.certificate ?? '');
    expect(client.keyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
    expect(client.subject).toBe('CN=alice\nO=team-a\nO=team-b');
    expect(client.checkIssued(ca)).toBe(true);
  });

  it('produces certificates openssl verifies for their purposes, with the extensions strict verifiers want', async () => {
    const pki = await createTestPki({ hosts: ['127.0.0.1', 'localhost'], clientCertificate: true });
    const dir = mkdtempSync(join(tmpdir(), 'pki-'));
    const files = { ca: join(dir, 'ca.pem'), server: join(dir, 'server.pem'), client: join(dir, 'client.pem') };
    writeFileSync(files.ca, pki.ca.certificate);
    writeFileSync(files.server, pki.server.certificate);
    writeFileSync(files.client, pki.client?.certificate ?? '');
    const verify = (purpose: string, file: string): string =>
      execFileSync('openssl', ['verify', '-x509_strict', '-purpose', purpose, '-CAfile', files.ca, file])
        .toString()
        .trim();
    expect(verify('sslserver', files.server)).toBe(`${files.server}: OK`);
    expect(verify('sslclient', files.client)).toBe(`${files.client}: OK`);
    const caText = execFileSync('openssl', ['x509', '-noout', '-text', '-in', files.ca]).toString();
    expect(caText).toMatch(/X509v3 Basic Constraints: critical\s+CA:TRUE/);
    expect(caText).toMatch(/X509v3 Key Usage: critical\s+Digital Signature, Certificate Sign, CRL Sign/);
    const serverText = execFileSync('openssl', ['x509', '-noout', '-text', '-in', files.server]).toString();
    expect(serverText).toMatch(/X509v3 Basic Constraints: critical\s+CA:FALSE/);
    expect(serverText).toContain('X509v3 Authority Key Identifier');
    expect(serverText).toContain('X509v3 Subject Key Identifier');
  });

  it('issues no client certificate unless asked', async () => {
    const pki = await createTestPki({ hosts: ['127.0.0.1'], clientCertificate: false });
    expect(pki.client).toBeUndefined();
  });
});

describe('clientSubject (what request/x509 CommonNameUserConversion reads: CN the user, each O a group)', () => {
  it('puts the user in CN and each group in an O of its own', () => {
    expect(clientSubject('alice', ['system:masters', 'dev'])).toEqual([
      { CN: ['alice'] },
      { O: ['system:masters'] },
      { O: ['dev'] },
    ]);
  });
});
