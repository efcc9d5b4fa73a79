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
import { splitN } from '../go-strings.js';

export interface AuthConfig {
  token: string | undefined;
  forbiddenTokens: readonly string[];
  clientCertificates: boolean;
}

/** `warning`: bearertoken.go's, when the header had a space too many before the token (sent as a Warning header). */
export type AuthDecision =
  | { ok: true; user: string; warning?: string }
  | { ok: false; error: StatusError; warning?: string };

/** One authenticator's answer, as in k8s.io/apiserver/pkg/authentication/authenticator (resp, ok, err). */
type Outcome = { kind: 'user'; user: string } | { kind: 'none' } | { kind: 'error' };

export const FORBIDDEN_USER = 'forbidden-user';
export const TOKEN_USER = 'lease-api-test-user';
export const ANONYMOUS_USER = 'system:anonymous';

const CLIENT_AUTH_OID = '1.3.6.1.5.5.7.3.2';
const ANY_EXTENDED_KEY_USAGE_OID = '2.5.29.37.0';
const NONE: Outcome = { kind: 'none' };

/** invalidTokenWithSpaceWarning in k8s.io/apiserver/pkg/authentication/request/bearertoken/bearertoken.go. */
export const EXTRA_SPACE_WARNING =
  'the provided Authorization header contains extra space before the bearer token, and is ignored';

/**
 * The token of an Authorization header as bearertoken.go's AuthenticateRequest reads it: the header trimmed
 * (strings.TrimSpace), split at single spaces into at most three parts (strings.SplitN(auth, " ", 3)), a
 * case-insensitive "bearer" first; the token is the second part, so `Bearer a b` is the token `a`, a tab is no
 * separator, and an empty second part (`Bearer  a`) is no token, with a warning when a third part follows.
 */
export function parseBearer(header: string | undefined): { token: string | undefined; extraSpace: boolean } {
  // Go's TrimSpace on the header's bytes: Node hands them over as Latin-1, where 0x85 and 0xA0 are no UTF-8
  // space, so only ASCII whitespace is trimmed (JavaScript's trim() would also take U+00A0).
  const auth = header?.replace(/^[ \t\n\v\f\r]+|[ \t\n\v\f\r]+$/g, '') ?? '';
  const parts = auth === '' ? [] : splitN(auth, ' ', 3);
  if (parts.length < 2 || parts[0]!.toLowerCase() !== 'bearer') return { token: undefined, extraSpace: false };
  const token = parts[1]!;
  if (token === '') return { token: undefined, extraSpace: parts.length === 3 };
  return { token, extraSpace: false };
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
function tokenOutcome(token: string | undefined, config: AuthConfig): Outcome {
  if (token === undefined) return NONE;
  if (config.forbiddenTokens.includes(token)) return { kind: 'user', user: FORBIDDEN_USER };
  if (config.token !== undefined && token === config.token) return { kind: 'user', user: TOKEN_USER };
  return { kind: 'error' };
}

/** Who is calling; public endpoints (version, health) admit anonymous callers that send no credentials. */
export function authenticate(req: IncomingMessage, config: AuthConfig, publicEndpoint: boolean): AuthDecision {
  const bearer = parseBearer(req.headers.authorization);
  // Without a token or client CA configured the server is open (anonymous auth, AlwaysAllow), yet the
  // forbidden tokens still name their user so 403 handling can be exercised on an open server.
  if (config.token === undefined && !config.clientCertificates) {
    const token = bearer.token;
    return {
      ok: true,
      user: token !== undefined && config.forbiddenTokens.includes(token) ? FORBIDDEN_USER : ANONYMOUS_USER,
    };
  }
  let failed = false;
  // In the union's order: the token authenticator (and its warning) only runs when no certificate named a user.
  const certificate = certificateOutcome(req, config);
  if (certificate.kind === 'user') return { ok: true, user: certificate.user };
  if (certificate.kind === 'error') failed = true;
  const token = tokenOutcome(bearer.token, config);
  // A header with the extra space holds no token, so the warning goes with an anonymous answer or a 401.
  const warning = bearer.extraSpace ? { warning: EXTRA_SPACE_WARNING } : {};
  if (token.kind === 'user') return { ok: true, user: token.user };
  if (token.kind === 'error') failed = true;
  if (!failed && publicEndpoint) return { ok: true, user: ANONYMOUS_USER, ...warning };
  return { ok: false, error: unauthorized(), ...warning };
}

/** The subject's O attributes: x509's CommonNameUserConversion reads the groups from them. */
function organizations(req: IncomingMessage): string[] {
  const socket = req.socket;
  if (!(socket instanceof TLSSocket)) return [];
  const o: unknown = socket.getPeerCertificate()?.subject?.O;
  if (typeof o === 'string') return [o];
  return Array.isArray(o) ? o.filter((g): g is string => typeof g === 'string') : [];
}

/**
 * The groups of the caller `authenticate` named: anonymous is system:unauthenticated; everyone else gets
 * system:authenticated (the group authenticator.AuthenticatedGroupAdder adds), after their certificate's
 * organisations when a client certificate named them.
 */
export function callerGroups(req: IncomingMessage, config: AuthConfig, user: string): string[] {
  if (user === ANONYMOUS_USER) return ['system:unauthenticated'];
  const certificate = certificateOutcome(req, config);
  const fromCertificate = certificate.kind === 'user' && certificate.user === user ? organizations(req) : [];
  return [...fromCertificate, 'system:authenticated'];
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
