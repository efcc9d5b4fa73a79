// Decoding a plugin's stdout, without running a plugin. Cases after client-go's TestRefreshCreds
// (plugin/pkg/client/auth/exec/exec_test.go: beta-basic-request, beta-expiry, beta-with-TLS-credentials,
// beta-with-bad-TLS-credentials, beta-cert-but-no-key, beta-no-group-version, beta-no-status, beta-no-token); the
// messages are exec.go refreshCredsLocked's. A message never quotes the output: it holds the secret.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestPki } from '../../../templates/k8s-lease-api-server/src/tls/pki.js';
import type { KeyPairPem } from '../../../templates/k8s-lease-api-server/src/tls/pki.js';
import { V1, V1BETA1 } from '../../../templates/k8s-lease-client-node/src/exec/config.js';
import { parseExecCredential } from '../../../templates/k8s-lease-client-node/src/exec/credential.js';
import { failure } from '../../../templates/k8s-lease-client-node/src/exec/errors.js';
import type { ExecPluginFailure } from '../../../templates/k8s-lease-client-node/src/exec/errors.js';
import { ok } from '../../../templates/k8s-lease-client-node/src/exec/result.js';

const SECRET = 'foo-bar-secret-7c1e';
const credential = (status: unknown, apiVersion: string = V1BETA1): string =>
  JSON.stringify({ kind: 'ExecCredential', apiVersion, ...(status === undefined ? {} : { status }) });

let pair: KeyPairPem;
beforeAll(async () => {
  const pki = await createTestPki({ hosts: ['127.0.0.1'], clientCertificate: true });
  if (!pki.client) throw new Error('test PKI without a client certificate');
  pair = pki.client;
});

describe('parseExecCredential: what client-go accepts', () => {
  it('a token (beta-basic-request), for v1beta1 and v1 alike', () => {
    const want = ok({ token: SECRET, certificate: undefined, expiresAt: undefined });
    expect(parseExecCredential(credential({ token: SECRET }), V1BETA1)).toEqual(want);
    expect(parseExecCredential(credential({ token: SECRET }, V1), V1)).toEqual(want);
  });

  it('a token with an expirationTimestamp (beta-expiry: 2006-01-02T15:04:05Z)', () => {
    const parsed = parseExecCredential(
      credential({ token: SECRET, expirationTimestamp: '2006-01-02T15:04:05Z' }),
      V1BETA1,
    );
    expect(parsed).toEqual(ok({ token: SECRET, certificate: undefined, expiresAt: Date.UTC(2006, 0, 2, 15, 4, 5) }));
  });

  it.each([
    ['a fraction of a second', '2006-01-02T15:04:05.5Z', Date.UTC(2006, 0, 2, 15, 4, 5, 500)],
    ['an offset', '2006-01-02T17:04:05+02:00', Date.UTC(2006, 0, 2, 15, 4, 5)],
    ['null', null, undefined],
  ])('an expirationTimestamp with %s (Go time.RFC3339)', (_name, expirationTimestamp, expiresAt) => {
    const parsed = parseExecCredential(credential({ token: SECRET, expirationTimestamp }), V1BETA1);
    expect(parsed.ok && parsed.value.expiresAt).toBe(expiresAt);
  });

  it('a client certificate and its key (beta-with-TLS-credentials)', () => {
    const parsed = parseExecCredential(
      credential({ clientCertificateData: pair.certificate, clientKeyData: pair.key }),
      V1BETA1,
    );
    expect(parsed).toEqual(
      ok({ token: undefined, certificate: { cert: pair.certificate, key: pair.key }, expiresAt: undefined }),
    );
  });
});

describe('parseExecCredential: what client-go refuses', () => {
  it.each<[string, string, ExecPluginFailure, string]>([
    ['output that is not JSON', `token: ${SECRET}`, 'decode', 'decoding stdout: not a JSON ExecCredential'],
    ['a JSON array', `["${SECRET}"]`, 'decode', 'decoding stdout: not a JSON object'],
    [
      'no apiVersion (beta-no-group-version)',
      JSON.stringify({ kind: 'ExecCredential', status: { token: SECRET } }),
      'wrong-version',
      `exec plugin is configured to use API version ${V1BETA1}, plugin returned version (unrecognised)`,
    ],
    [
      'another apiVersion, named since it is a group/version',
      credential({ token: SECRET }, V1),
      'wrong-version',
      `exec plugin is configured to use API version ${V1BETA1}, plugin returned version ${V1}`,
    ],
    [
      'an apiVersion that is not a group/version, not echoed',
      credential({ token: SECRET }, SECRET),
      'wrong-version',
      `exec plugin is configured to use API version ${V1BETA1}, plugin returned version (unrecognised)`,
    ],
    [
      'no kind',
      JSON.stringify({ apiVersion: V1BETA1, status: { token: SECRET } }),
      'wrong-kind',
      'decoding stdout: kind is missing',
    ],
    [
      'another kind',
      JSON.stringify({ kind: SECRET, apiVersion: V1BETA1, status: { token: SECRET } }),
      'wrong-kind',
      'decoding stdout: kind is not ExecCredential',
    ],
    ['no status (beta-no-status)', credential(undefined), 'no-credential', "exec plugin didn't return a status field"],
    ['a status that is not an object', credential(SECRET), 'decode', 'decoding stdout: status is not an object'],
    [
      'an empty status (beta-no-token)',
      credential({}),
      'no-credential',
      "exec plugin didn't return a token or cert/key pair",
    ],
    [
      'a token that is not a string',
      credential({ token: 42 }),
      'decode',
      'decoding stdout: status.token is not a string',
    ],
    [
      'an expirationTimestamp that is not RFC 3339',
      credential({ token: SECRET, expirationTimestamp: '2006-01-02 15:04:05' }),
      'decode',
      'decoding stdout: status.expirationTimestamp is not an RFC 3339 time',
    ],
    [
      'a certificate without its key (beta-cert-but-no-key)',
      credential({ clientCertificateData: '-----BEGIN CERTIFICATE-----' }),
      'no-credential',
      'exec plugin returned only certificate or key, not both',
    ],
    [
      'a certificate and key that do not parse (beta-with-bad-TLS-credentials)',
      credential({ clientKeyData: 'foo', clientCertificateData: 'bar' }),
      'bad-certificate',
      'failed parsing client key/certificate',
    ],
  ])('%s', (_name, stdout, kind, detail) => {
    const parsed = parseExecCredential(stdout, V1BETA1);
    expect(parsed).toEqual({ ok: false, error: failure(kind, detail) });
    expect(JSON.stringify(parsed)).not.toContain(SECRET);
  });

  it('a key that does not belong to the certificate (Go tls.X509KeyPair)', async () => {
    const other = await createTestPki({ hosts: ['127.0.0.1'], clientCertificate: true });
    const parsed = parseExecCredential(
      credential({ clientCertificateData: pair.certificate, clientKeyData: other.client?.key }),
      V1BETA1,
    );
    expect(parsed).toEqual({ ok: false, error: failure('bad-certificate', 'failed parsing client key/certificate') });
  });

  it('reads own fields only: a __proto__ holding a token is no token', () => {
    const stdout = `{"kind":"ExecCredential","apiVersion":"${V1BETA1}","status":{"__proto__":{"token":"${SECRET}"}}}`;
    expect(parseExecCredential(stdout, V1BETA1)).toEqual({
      ok: false,
      error: failure('no-credential', "exec plugin didn't return a token or cert/key pair"),
    });
  });
});
