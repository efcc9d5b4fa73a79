// A throwaway PKI per server: a CA, a serving certificate for 127.0.0.1/localhost/::1 (and the bound
// host) and, when asked, a client certificate the kubeconfig presents. Certificates are built by
// @peculiar/x509 on WebCrypto; only the choice of names and extensions here encodes Kubernetes' needs.
import { KeyObject, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import type { Extension, JsonGeneralName, JsonName, X509Certificate } from '@peculiar/x509';

type X509 = typeof import('@peculiar/x509');

/**
 * Loaded on first use, so a server without TLS neither loads the library nor touches Reflect:
 * @peculiar/x509 resolves its algorithms through tsyringe, which needs the Reflect metadata API
 * that reflect-metadata installs (a global, hence only when TLS is asked for).
 */
async function loadX509(): Promise<X509> {
  await import('reflect-metadata');
  return import('@peculiar/x509');
}

export interface KeyPairPem {
  certificate: string;
  /** PKCS#8 PEM, as Node's tls and kubectl's client-key-data accept. */
  key: string;
}

export interface TestPki {
  ca: KeyPairPem;
  server: KeyPairPem;
  client?: KeyPairPem | undefined;
}

export interface PkiOptions {
  hosts: string[];
  clientCertificate: boolean;
  /** The user Kubernetes' x509 authenticator reads from the subject CN. */
  clientCommonName?: string | undefined;
  /** The groups it reads from the subject O attributes. Default system:masters. */
  clientGroups?: string[] | undefined;
}

// ECDSA P-256 with SHA-256: accepted by Go's crypto/tls (every kubectl), OpenSSL and Node.
const KEY_ALGORITHM: EcKeyGenParams = { name: 'ECDSA', namedCurve: 'P-256' };
const SIGNING_ALGORITHM: EcdsaParams = { name: 'ECDSA', hash: 'SHA-256' };
const HOUR_MS = 60 * 60 * 1000;

interface Issuer {
  name: JsonName;
  keys: CryptoKeyPair;
}

const webCrypto = (): Crypto => globalThis.crypto;

function newKeys(): Promise<CryptoKeyPair> {
  return webCrypto().subtle.generateKey(KEY_ALGORITHM, true, ['sign', 'verify']);
}

function keyPem(key: CryptoKey): string {
  return String(KeyObject.from(key).export({ type: 'pkcs8', format: 'pem' }));
}

/** A positive 127-bit serial (RFC 5280 §4.1.2.2: positive, at most 20 octets). */
function serialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0] ?? 0) & 0x7f;
  return bytes.toString('hex');
}

function validity(): { notBefore: Date; notAfter: Date } {
  const now = Date.now();
  // Back-dated an hour so a client whose clock lags slightly still accepts the certificate.
  return { notBefore: new Date(now - HOUR_MS), notAfter: new Date(now + 365 * 24 * HOUR_MS) };
}

function altNames(hosts: readonly string[]): JsonGeneralName[] {
  const unique = [...new Set(hosts)];
  return unique.map((host) => ({ type: isIP(host) === 0 ? 'dns' : 'ip', value: host }));
}

async function issueCa(x509: X509): Promise<{ issuer: Issuer; certificate: X509Certificate }> {
  const {
    BasicConstraintsExtension,
    KeyUsageFlags,
    KeyUsagesExtension,
    SubjectKeyIdentifierExtension,
    X509CertificateGenerator,
  } = x509;
  const keys = await newKeys();
  const name: JsonName = [{ CN: ['lease-api-test-ca'] }];
  const certificate = await X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: serialNumber(),
      name,
      keys,
      signingAlgorithm: SIGNING_ALGORITHM,
      ...validity(),
      extensions: [
        new BasicConstraintsExtension(true, 0, true),
        new KeyUsagesExtension(
          KeyUsageFlags.keyCertSign | KeyUsageFlags.cRLSign | KeyUsageFlags.digitalSignature,
          true,
        ),
        await SubjectKeyIdentifierExtension.create(keys.publicKey, false, webCrypto()),
      ],
    },
    webCrypto(),
  );
  return { issuer: { name, keys }, certificate };
}

async function issueLeaf(x509: X509, issuer: Issuer, subject: JsonName, extensions: Extension[]): Promise<KeyPairPem> {
  const {
    AuthorityKeyIdentifierExtension,
    BasicConstraintsExtension,
    KeyUsageFlags,
    KeyUsagesExtension,
    SubjectKeyIdentifierExtension,
    X509CertificateGenerator,
  } = x509;
  const keys = await newKeys();
  const certificate = await X509CertificateGenerator.create(
    {
      serialNumber: serialNumber(),
      subject,
      issuer: issuer.name,
      publicKey: keys.publicKey,
      signingKey: issuer.keys.privateKey,
      signingAlgorithm: SIGNING_ALGORITHM,
      ...validity(),
      extensions: [
        new BasicConstraintsExtension(false, undefined, true),
        new KeyUsagesExtension(KeyUsageFlags.digitalSignature, true),
        ...extensions,
        await SubjectKeyIdentifierExtension.create(keys.publicKey, false, webCrypto()),
        // Python ≥ 3.13 verifies with X509_STRICT, which wants the authority key identifier.
        await AuthorityKeyIdentifierExtension.create(issuer.keys.publicKey, false, webCrypto()),
      ],
    },
    webCrypto(),
  );
  return { certificate: certificate.toString('pem'), key: keyPem(keys.privateKey) };
}

/** The subject Kubernetes' x509 authenticator maps to a user: CN is the name, each O a group. */
export function clientSubject(commonName: string, groups: readonly string[]): JsonName {
  // One RDN per group, as openssl and Go's crypto/x509 write them (not one multi-valued RDN).
  return [{ CN: [commonName] }, ...groups.map((group) => ({ O: [group] }))];
}

export async function createTestPki(options: PkiOptions): Promise<TestPki> {
  const x509 = await loadX509();
  const { ExtendedKeyUsage, ExtendedKeyUsageExtension, SubjectAlternativeNameExtension } = x509;
  const ca = await issueCa(x509);
  const server = await issueLeaf(
    x509,
    ca.issuer,
    [{ CN: ['lease-api-test-server'] }],
    [
      new ExtendedKeyUsageExtension([ExtendedKeyUsage.serverAuth]),
      new SubjectAlternativeNameExtension(altNames(options.hosts)),
    ],
  );
  const pki: TestPki = {
    ca: { certificate: ca.certificate.toString('pem'), key: keyPem(ca.issuer.keys.privateKey) },
    server,
  };
  if (options.clientCertificate) {
    const subject = clientSubject(
      options.clientCommonName ?? 'lease-api-test-client',
      options.clientGroups ?? ['system:masters'],
    );
    pki.client = await issueLeaf(x509, ca.issuer, subject, [
      new ExtendedKeyUsageExtension([ExtendedKeyUsage.clientAuth]),
    ]);
  }
  return pki;
}
