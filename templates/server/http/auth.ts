// Bearer-token and client-certificate authentication, plus the "authenticated but forbidden" tokens
// tests use to exercise 403 handling. Discovery stays readable to any authenticated user, as with RBAC.
import type { IncomingMessage } from 'node:http';
import { TLSSocket } from 'node:tls';
import type { StatusError } from '../status.js';
import { forbidden, unauthorized } from '../status.js';

export interface AuthConfig {
  token: string | undefined;
  forbiddenTokens: readonly string[];
  clientCertificates: boolean;
}

export type AuthDecision = { ok: true; user: string } | { ok: false; error: StatusError };

export const FORBIDDEN_USER = 'forbidden-user';
export const TOKEN_USER = 'lease-api-test-user';

function bearerToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (header === undefined) return undefined;
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  return match?.[1]?.trim();
}

function certificateUser(req: IncomingMessage): string | undefined {
  const socket = req.socket;
  if (!(socket instanceof TLSSocket) || !socket.authorized) return undefined;
  const cn = socket.getPeerCertificate().subject?.CN;
  return typeof cn === 'string' && cn !== '' ? cn : 'client-certificate-user';
}

/** Who is calling; public endpoints (version, health) admit anonymous callers that send no credentials. */
export function authenticate(req: IncomingMessage, config: AuthConfig, publicEndpoint: boolean): AuthDecision {
  const token = bearerToken(req);
  if (token !== undefined && config.forbiddenTokens.includes(token)) return { ok: true, user: FORBIDDEN_USER };
  if (token !== undefined && config.token !== undefined && token === config.token) return { ok: true, user: TOKEN_USER };
  const certUser = config.clientCertificates ? certificateUser(req) : undefined;
  if (certUser !== undefined && (token === undefined || config.token === undefined)) return { ok: true, user: certUser };
  if (config.token === undefined && !config.clientCertificates) return { ok: true, user: 'system:anonymous' };
  if (token === undefined && publicEndpoint) return { ok: true, user: 'system:anonymous' };
  return { ok: false, error: unauthorized() };
}

/** Resource access for an authenticated user; only the forbidden tokens are denied. */
export function authorize(user: string, verb: string, namespace: string | undefined): StatusError | undefined {
  return user === FORBIDDEN_USER ? forbidden(user, verb, namespace) : undefined;
}
