// A throwaway PKI per server: a CA, a serving certificate for 127.0.0.1/localhost and, when asked,
// a client certificate the kubeconfig presents.
import type { KeyObject } from 'node:crypto';
import { generateKeyPairSync } from 'node:crypto';
import { createCertificate } from './x509.js';

export interface KeyPairPem {
  certificate: string;
  key: string;
}

export interface TestPki {
  ca: KeyPairPem;
  server: KeyPairPem;
  client?: KeyPairPem;
}

interface Keys {
  publicKey: KeyObject;
  privateKey: KeyObject;
}

const newKeys = (): Keys => generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const keyPem = (keys: Keys): string => String(keys.privateKey.export({ type: 'pkcs8', format: 'pem' }));

export interface PkiOptions {
  hosts: string[];
  clientCertificate: boolean;
  clientCommonName?: string;
}

export function createTestPki(options: PkiOptions): TestPki {
  const now = Date.now();
  const notBefore = new Date(now - 60 * 60 * 1000);
  const notAfter = new Date(now + 365 * 24 * 60 * 60 * 1000);
  const caKeys = newKeys();
  const caName = { commonName: 'lease-api-test-ca' };
  const caCert = createCertificate({
    subject: caName,
    issuer: caName,
    publicKey: caKeys.publicKey,
    issuerKey: caKeys.privateKey,
    issuerPublicKey: caKeys.publicKey,
    isCA: true,
    notBefore,
    notAfter,
  });
  const issue = (commonName: string, usage: 'serverAuth' | 'clientAuth', altNames: string[], organization?: string): KeyPairPem => {
    const keys = newKeys();
    const subject = organization === undefined ? { commonName } : { commonName, organization };
    const certificate = createCertificate({
      subject,
      issuer: caName,
      publicKey: keys.publicKey,
      issuerKey: caKeys.privateKey,
      issuerPublicKey: caKeys.publicKey,
      isCA: false,
      altNames,
      usages: [usage],
      notBefore,
      notAfter,
    });
    return { certificate, key: keyPem(keys) };
  };
  const pki: TestPki = {
    ca: { certificate: caCert, key: keyPem(caKeys) },
    server: issue('lease-api-test-server', 'serverAuth', options.hosts),
  };
  if (options.clientCertificate) pki.client = issue(options.clientCommonName ?? 'lease-api-test-client', 'clientAuth', [], 'system:masters');
  return pki;
}
