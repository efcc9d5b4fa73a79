import { X509Certificate, createPrivateKey } from 'node:crypto';
import { failure, type Failure } from './errors.js';
import { err, ok, type Result } from './result.js';
import type { ExecApiVersion } from './config.js';
import type { ExecCredential } from './types.js';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Own string properties only: a `__proto__` key in the plugin's JSON is data, never an inherited field. */
function stringField(object: Json, key: string): Result<string, Failure> {
  const value = Object.hasOwn(object, key) ? object[key] : undefined;
  if (value === undefined || value === null) return ok('');
  return typeof value === 'string'
    ? ok(value)
    : err(failure('decode', `decoding stdout: status.${key} is not a string`));
}

// metav1.Time unmarshals with Go's time.RFC3339 layout: a 'T', seconds, optional fraction, 'Z' or ±hh:mm.
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

function expiry(status: Json): Result<number | undefined, Failure> {
  const value = Object.hasOwn(status, 'expirationTimestamp') ? status['expirationTimestamp'] : undefined;
  if (value === undefined || value === null) return ok(undefined);
  const time = typeof value === 'string' && RFC3339.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(time)
    ? err(failure('decode', 'decoding stdout: status.expirationTimestamp is not an RFC 3339 time'))
    : ok(time);
}

// Only well-formed group/versions are echoed: anything else the plugin printed may be a secret.
const GROUP_VERSION = /^[a-z0-9.-]{1,100}\/v[a-z0-9]{1,20}$/;

function describe(value: unknown): string {
  return typeof value === 'string' && GROUP_VERSION.test(value) ? value : '(unrecognised)';
}

/** As Go's tls.X509KeyPair: both PEM blocks parse and the key belongs to the certificate. */
function checkKeyPair(cert: string, key: string): boolean {
  try {
    return new X509Certificate(cert).checkPrivateKey(createPrivateKey(key));
  } catch {
    return false;
  }
}

/**
 * Decodes a plugin's stdout as client-go's refreshCredsLocked does (same checks, same order, its wording); errors
 * never quote the output, which holds the secret.
 */
export function parseExecCredential(stdout: string, apiVersion: ExecApiVersion): Result<ExecCredential, Failure> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout);
  } catch {
    return err(failure('decode', 'decoding stdout: not a JSON ExecCredential'));
  }
  if (!isObject(parsed)) return err(failure('decode', 'decoding stdout: not a JSON object'));
  const gotVersion = Object.hasOwn(parsed, 'apiVersion') ? parsed['apiVersion'] : undefined;
  if (gotVersion !== apiVersion) {
    return err(
      failure(
        'wrong-version',
        `exec plugin is configured to use API version ${apiVersion}, plugin returned version ${describe(gotVersion)}`,
      ),
    );
  }
  const kind = Object.hasOwn(parsed, 'kind') ? parsed['kind'] : undefined;
  if (kind !== 'ExecCredential')
    return err(
      failure('wrong-kind', `decoding stdout: kind ${kind === undefined ? 'is missing' : 'is not ExecCredential'}`),
    );
  const status = Object.hasOwn(parsed, 'status') ? parsed['status'] : undefined;
  if (status === undefined || status === null)
    return err(failure('no-credential', "exec plugin didn't return a status field"));
  if (!isObject(status)) return err(failure('decode', 'decoding stdout: status is not an object'));
  const token = stringField(status, 'token');
  if (!token.ok) return token;
  const cert = stringField(status, 'clientCertificateData');
  if (!cert.ok) return cert;
  const key = stringField(status, 'clientKeyData');
  if (!key.ok) return key;
  const expiresAt = expiry(status);
  if (!expiresAt.ok) return expiresAt;
  if (token.value === '' && cert.value === '' && key.value === '')
    return err(failure('no-credential', "exec plugin didn't return a token or cert/key pair"));
  if ((cert.value === '') !== (key.value === ''))
    return err(failure('no-credential', 'exec plugin returned only certificate or key, not both'));
  if (cert.value !== '' && !checkKeyPair(cert.value, key.value))
    return err(failure('bad-certificate', 'failed parsing client key/certificate'));
  return ok({
    token: token.value === '' ? undefined : token.value,
    certificate: cert.value === '' ? undefined : { cert: cert.value, key: key.value },
    expiresAt: expiresAt.value,
  });
}
