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
  EXTRA_SPACE_WARNING,
  authenticate,
  authorize,
  parseBearer,
} from '../../../templates/k8s-lease-api-server/src/http/auth.js';
import { api, NS_BASE, start } from '../helpers.js';

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
    // bearertoken.go splits at single spaces (strings.SplitN(auth, " ", 3)) and takes the second part.
    ['Bearer s3cret trailing', false, { ok: true, user: TOKEN_USER }],
    ['Bearer\ts3cret', false, UNAUTHORIZED],
    ['Bearer\ts3cret', true, { ok: true, user: ANONYMOUS_USER }],
    ['Bearer ', false, UNAUTHORIZED],
    ['Bearer  s3cret', false, { ...UNAUTHORIZED, warning: EXTRA_SPACE_WARNING }],
    ['Bearer  s3cret', true, { ok: true, user: ANONYMOUS_USER, warning: EXTRA_SPACE_WARNING }],
  ])('with a token configured, %j on a public endpoint %s → %j', (header, publicEndpoint, decision) => {
    expect(authenticate(request(header), TOKEN, publicEndpoint)).toStrictEqual(decision);
  });
});

describe('parseBearer', () => {
  // bearertoken_test.go (k8s.io/apiserver/pkg/authentication/request/bearertoken) TestAuthenticateRequestBadValue's
  // headers (none, "Bearer", "bear token", "Bearer: token"), then the edges of AuthenticateRequest's SplitN.
  it.each<[string | undefined, string | undefined, boolean]>([
    [undefined, undefined, false],
    ['', undefined, false],
    ['   ', undefined, false],
    ['Bearer token', 'token', false],
    ['bEaReR token', 'token', false],
    ['Bearer token extra', 'token', false],
    ['Bearer', undefined, false],
    ['bear token', undefined, false],
    ['Bearer: token', undefined, false],
    ['Bearer ', undefined, false],
    ['Bearer  token', undefined, true],
    ['Bearer\ttoken', undefined, false],
    ['Basic token', undefined, false],
    [' Bearer token ', 'token', false],
    // TrimSpace over the header's bytes: a 0xA0 byte (Latin-1 U+00A0 to Node) is no UTF-8 space to Go.
    ['Bearer token\u00a0', 'token\u00a0', false],
  ])('%j → token %j, extra space %s', (header, token, extraSpace) => {
    expect(parseBearer(header)).toEqual({ token, extraSpace });
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

describe('over HTTP', () => {
  it("answers a token after two spaces 401 with bearertoken.go's warning, and the version anonymously with it", async () => {
    const server = await start({ token: 's3cret' });
    try {
      const headers = { Authorization: 'Bearer  s3cret' };
      const refused = await api(server, 'GET', NS_BASE, { headers });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('warning')).toBe(`299 - "${EXTRA_SPACE_WARNING}"`);
      const version = await api(server, 'GET', '/version', { headers });
      expect(version.status).toBe(200);
      expect(version.headers.get('warning')).toBe(`299 - "${EXTRA_SPACE_WARNING}"`);
      const good = await api(server, 'GET', NS_BASE, { headers: { Authorization: 'Bearer s3cret' } });
      expect(good.status).toBe(200);
      expect(good.headers.get('warning')).toBeNull();
    } finally {
      await server.close();
    }
  });
});
