// Builds and signs X.509 v3 certificates with node:crypto (ECDSA P-256, SHA-256) — no openssl needed.
import type { KeyObject } from 'node:crypto';
import { createHash, randomBytes, sign } from 'node:crypto';
import { isIP } from 'node:net';
import * as der from './der.js';

const OID = {
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  authorityKeyIdentifier: '2.5.29.35',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
};

export interface DistinguishedName {
  commonName: string;
  organization?: string;
}

export interface CertificateRequest {
  subject: DistinguishedName;
  publicKey: KeyObject;
  issuer: DistinguishedName;
  issuerKey: KeyObject;
  /** Public key of the issuer, for the authority key identifier. */
  issuerPublicKey: KeyObject;
  isCA: boolean;
  /** DNS names and IP addresses. */
  altNames?: string[];
  usages?: ('serverAuth' | 'clientAuth')[];
  notBefore: Date;
  notAfter: Date;
}

function name(dn: DistinguishedName): Buffer {
  const rdns = [];
  if (dn.organization !== undefined) rdns.push(der.set(der.sequence(der.objectIdentifier(OID.organization), der.utf8String(dn.organization))));
  rdns.push(der.set(der.sequence(der.objectIdentifier(OID.commonName), der.utf8String(dn.commonName))));
  return der.sequence(...rdns);
}

function extension(oid: string, critical: boolean, value: Buffer): Buffer {
  return critical
    ? der.sequence(der.objectIdentifier(oid), der.boolean(true), der.octetString(value))
    : der.sequence(der.objectIdentifier(oid), der.octetString(value));
}

function keyIdentifier(publicKey: KeyObject): Buffer {
  return createHash('sha1').update(publicKey.export({ type: 'spki', format: 'der' })).digest();
}

function ipBytes(ip: string): Buffer {
  if (isIP(ip) === 4) return Buffer.from(ip.split('.').map(Number));
  const [head = '', tail = ''] = ip.split('::');
  const headParts = head === '' ? [] : head.split(':');
  const tailParts = tail === '' ? [] : tail.split(':');
  const groups = ip.includes('::') ? [...headParts, ...new Array<string>(8 - headParts.length - tailParts.length).fill('0'), ...tailParts] : headParts;
  return Buffer.from(groups.flatMap((g) => [parseInt(g, 16) >> 8, parseInt(g, 16) & 0xff]));
}

function subjectAltNames(names: string[]): Buffer {
  return der.sequence(
    ...names.map((n) => (isIP(n) === 0 ? der.implicitPrimitive(2, Buffer.from(n, 'ascii')) : der.implicitPrimitive(7, ipBytes(n)))),
  );
}

/** KeyUsage bits: digitalSignature (0), keyCertSign (5), cRLSign (6). */
function keyUsage(isCA: boolean): Buffer {
  return isCA ? der.bitString(Buffer.from([0x86]), 1) : der.bitString(Buffer.from([0x80]), 7);
}

function extensions(request: CertificateRequest): Buffer {
  const list = [
    extension(OID.keyUsage, true, keyUsage(request.isCA)),
    extension(OID.basicConstraints, true, request.isCA ? der.sequence(der.boolean(true)) : der.sequence()),
    extension(OID.subjectKeyIdentifier, false, der.octetString(keyIdentifier(request.publicKey))),
  ];
  if (!request.isCA) {
    list.push(extension(OID.authorityKeyIdentifier, false, der.sequence(der.implicitPrimitive(0, keyIdentifier(request.issuerPublicKey)))));
  }
  if (request.usages !== undefined && request.usages.length > 0) {
    list.push(extension(OID.extKeyUsage, false, der.sequence(...request.usages.map((u) => der.objectIdentifier(OID[u])))));
  }
  if (request.altNames !== undefined && request.altNames.length > 0) {
    list.push(extension(OID.subjectAltName, false, subjectAltNames(request.altNames)));
  }
  return der.explicit(3, der.sequence(...list));
}

function serialNumber(): Buffer {
  const bytes = randomBytes(16);
  bytes[0] = ((bytes[0] ?? 0) & 0x7f) | 0x01;
  return der.unsignedInteger(bytes);
}

function toPem(label: string, body: Buffer): string {
  const lines = body.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

/** Returns the PEM of a certificate for request.publicKey signed by request.issuerKey. */
export function createCertificate(request: CertificateRequest): string {
  const algorithm = der.sequence(der.objectIdentifier(OID.ecdsaWithSha256));
  const tbs = der.sequence(
    der.explicit(0, der.smallInteger(2)),
    serialNumber(),
    algorithm,
    name(request.issuer),
    der.sequence(der.time(request.notBefore), der.time(request.notAfter)),
    name(request.subject),
    request.publicKey.export({ type: 'spki', format: 'der' }),
    extensions(request),
  );
  const signature = sign('sha256', tbs, request.issuerKey);
  return toPem('CERTIFICATE', der.sequence(tbs, algorithm, der.bitString(signature)));
}
