// Bearer-token and client-certificate authentication, plus the "authenticated but forbidden" tokens
// tests use to exercise 403 handling. Discovery stays readable to any authenticated user, as with RBAC.
//
// Imitates kube-apiserver's authenticator chain: union.New(x509, token) wrapped by
// union.NewFailOnError(…, anonymous). Each authenticator answers "user", "not mine" or "error";
// the union takes the first user and only fails (401) when none answered with one; an error from
// any of them (an unverified certificate, an unknown token) also keeps anonymous access away.
import type { IncomingMessage } from 'node:http';
import { X509Certificate } from 'node:crypto';
import { TLSSocket } from 'node:tls';
import type { StatusError, StatusResource } from '../status.js';
import { forbidden, unauthorized } from '../status.js';

export interface AuthConfig {
  token: string | undefined;
  forbiddenTokens: readonly string[];
  clientCertificates: boolean;
}

export type AuthDecision = { ok: true; user: string } | { ok: false; error: StatusError };

/** One authenticator's answer, as in k8s.io/apiserver/pkg/authentication/authenticator (resp, ok, err). */
type Outcome = { kind: 'user'; user: string } | { kind: 'none' } | { kind: 'error' };

export const FORBIDDEN_USER = 'forbidden-user';
export const TOKEN_USER = 'lease-api-test-user';
export const ANONYMOUS_USER = 'system:anonymous';

const CLIENT_AUTH_OID = '1.3.6.1.5.5.7.3.2';
const ANY_EXTENDED_KEY_USAGE_OID = '2.5.29.37.0';
const NONE: Outcome = { kind: 'none' };

function bearerToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (header === undefined) return undefined;
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  return match?.[1]?.trim();
}

/** Go's x509.Verify with KeyUsages [ClientAuth]: a certificate without extended key usage allows any. */
function allowsClientAuth(raw: Buffer): boolean {
  try {
    const usages = new X509Certificate(raw).keyUsage;
    return usages === undefined || usages.includes(CLIENT_AUTH_OID) || usages.includes(ANY_EXTENDED_KEY_USAGE_OID);
  } catch {
    return false;
  }
}

/**
 * As k8s.io/apiserver/pkg/authentication/request/x509: no certificate is "not mine"; a certificate
 * that does not verify against the client CA is an error; a verified one names the user by its CN
 * (CommonNameUserConversion; an empty CN is "not mine").
 */
function certificateOutcome(req: IncomingMessage, config: AuthConfig): Outcome {
  const socket = req.socket;
  if (!config.clientCertificates || !(socket instanceof TLSSocket)) return NONE;
  const peer = socket.getPeerCertificate();
  if (peer === null || !Buffer.isBuffer(peer.raw) || peer.raw.length === 0) return NONE;
  if (!socket.authorized || !allowsClientAuth(peer.raw)) return { kind: 'error' };
  const cn = peer.subject?.CN;
  return typeof cn === 'string' && cn !== '' ? { kind: 'user', user: cn } : NONE;
}

/** As the token-file authenticator: no bearer header is "not mine", an unknown token an error. */
function tokenOutcome(req: IncomingMessage, config: AuthConfig): Outcome {
  const token = bearerToken(req);
  if (token === undefined) return NONE;
  if (config.forbiddenTokens.includes(token)) return { kind: 'user', user: FORBIDDEN_USER };
  if (config.token !== undefined && token === config.token) return { kind: 'user', user: TOKEN_USER };
  return { kind: 'error' };
}

/** Who is calling; public endpoints (version, health) admit anonymous callers that send no credentials. */
export function authenticate(req: IncomingMessage, config: AuthConfig, publicEndpoint: boolean): AuthDecision {
  // Without a token or client CA configured the server is open (anonymous auth, AlwaysAllow), yet the
  // forbidden tokens still name their user so 403 handling can be exercised on an open server.
  if (config.token === undefined && !config.clientCertificates) {
    const token = bearerToken(req);
    return {
      ok: true,
      user: token !== undefined && config.forbiddenTokens.includes(token) ? FORBIDDEN_USER : ANONYMOUS_USER,
    };
  }
  let failed = false;
  for (const outcome of [certificateOutcome(req, config), tokenOutcome(req, config)]) {
    if (outcome.kind === 'user') return { ok: true, user: outcome.user };
    if (outcome.kind === 'error') failed = true;
  }
  if (!failed && publicEndpoint) return { ok: true, user: ANONYMOUS_USER };
  return { ok: false, error: unauthorized() };
}

/** Resource access for an authenticated user; only the forbidden tokens are denied. */
export function authorize(
  user: string,
  verb: string,
  namespace: string | undefined,
  resource?: StatusResource,
): StatusError | undefined {
  return user === FORBIDDEN_USER ? forbidden(user, verb, namespace, resource) : undefined;
}
