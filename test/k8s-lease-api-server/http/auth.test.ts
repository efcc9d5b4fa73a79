// Bearer-token authentication as kube-apiserver's chain answers it (k8s.io/apiserver/pkg/authentication:
// request/bearertoken AuthenticateRequest — a case-insensitive "Bearer" scheme, no header "not mine", an
// unknown token an error; request/union with NewFailOnError — the first user wins, an error keeps anonymous
// access away), the open server's anonymous user, and the forbidden tokens' 403 (RBAC's wording).
// Client certificates need a TLS socket: tls/auth-tls.test.ts covers them.
import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  ANONYMOUS_USER,
  type AuthConfig,
  type AuthDecision,
  FORBIDDEN_USER,
  TOKEN_USER,
  authenticate,
  authorize,
} from '../../../templates/k8s-lease-api-server/src/http/auth.js';

function request(authorization?: string): IncomingMessage {
  const req = new IncomingMessage(new Socket());
  req.headers = authorization === undefined ? {} : { authorization };
  return req;
}

const OPEN: AuthConfig = { token: undefined, forbiddenTokens: ['nope'], clientCertificates: false };
const TOKEN: AuthConfig = { token: 's3cret', forbiddenTokens: ['nope'], clientCertificates: false };
const UNAUTHORIZED: AuthDecision = {
  ok: false,
  error: { code: 401, reason: 'Unauthorized', message: 'Unauthorized' },
};

describe('authenticate', () => {
  it('lets anyone in as system:anonymous on an open server, the forbidden tokens as their user', () => {
    expect(authenticate(request(), OPEN, false)).toEqual({ ok: true, user: ANONYMOUS_USER });
    expect(authenticate(request('Bearer whatever'), OPEN, false)).toEqual({ ok: true, user: ANONYMOUS_USER });
    expect(authenticate(request('Bearer nope'), OPEN, false)).toEqual({ ok: true, user: FORBIDDEN_USER });
  });

  it.each<[string | undefined, boolean, AuthDecision]>([
    ['Bearer s3cret', false, { ok: true, user: TOKEN_USER }],
    ['bearer s3cret', false, { ok: true, user: TOKEN_USER }],
    ['  Bearer s3cret  ', false, { ok: true, user: TOKEN_USER }],
    ['Bearer nope', false, { ok: true, user: FORBIDDEN_USER }],
    ['Bearer wrong', false, UNAUTHORIZED],
    ['Bearer wrong', true, UNAUTHORIZED],
    [undefined, false, UNAUTHORIZED],
    [undefined, true, { ok: true, user: ANONYMOUS_USER }],
    ['Basic dXNlcjpwYXNz', true, { ok: true, user: ANONYMOUS_USER }],
    ['Basic dXNlcjpwYXNz', false, UNAUTHORIZED],
  ])('with a token configured, %j on a public endpoint %s → %j', (header, publicEndpoint, decision) => {
    expect(authenticate(request(header), TOKEN, publicEndpoint)).toEqual(decision);
  });
});

describe('authorize', () => {
  it('denies only the forbidden user, as RBAC words a denial', () => {
    expect(authorize(TOKEN_USER, 'list', 'default')).toBeUndefined();
    expect(authorize(FORBIDDEN_USER, 'list', 'default')).toEqual({
      code: 403,
      reason: 'Forbidden',
      message:
        'leases.coordination.k8s.io is forbidden: User "forbidden-user" cannot list resource "leases" in API group "coordination.k8s.io" in the namespace "default"',
      details: { group: 'coordination.k8s.io', kind: 'leases' },
    });
    expect(authorize(FORBIDDEN_USER, 'watch', undefined)?.message).toBe(
      'leases.coordination.k8s.io is forbidden: User "forbidden-user" cannot watch resource "leases" in API group "coordination.k8s.io" at the cluster scope',
    );
  });
});
