// CORS for browser clients, as kube-apiserver's --cors-allowed-origins (k8s.io/apiserver filters/cors.go):
// allowed Origins get the Access-Control-* headers and a 204 preflight; others get no CORS header at all.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCommand } from '../../../templates/k8s-lease-api-server/src/cli-args.js';
import { main } from '../../../templates/k8s-lease-api-server/src/cli.js';
import type { LeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import type { JsonBody } from '../helpers.js';
import { api, create, expectServerIntact, NS_BASE, start } from '../helpers.js';

const DASHBOARD = 'http://dashboard.test:3000';
const CORS_HEADERS = [
  'access-control-allow-origin',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-expose-headers',
  'access-control-allow-credentials',
];

function corsHeadersOf(headers: Headers): Record<string, string> {
  return Object.fromEntries(
    CORS_HEADERS.flatMap((name) => (headers.get(name) === null ? [] : [[name, headers.get(name) ?? '']])),
  );
}

describe('CORS (--cors-allowed-origins)', () => {
  let server: LeaseApiServer;
  beforeAll(async () => {
    server = await start({
      corsAllowedOrigins: ['^http://dashboard\\.test(:[0-9]+)?$', '//localhost(:|$)'],
      token: 'secret',
    });
    const created = server.store.create({ metadata: { name: 'cors-lease', namespace: 'default' }, spec: {} });
    if (!created.ok) throw new Error(created.error.message);
  });
  afterAll(() => server.close());

  const preflights: Array<{ method: string; contentType: string }> = [
    { method: 'PATCH', contentType: 'application/apply-patch+yaml' },
    { method: 'PATCH', contentType: 'application/merge-patch+json' },
    { method: 'PATCH', contentType: 'application/json-patch+json' },
    { method: 'PUT', contentType: 'application/json' },
  ];
  it.each(preflights)(
    'answers a preflight for $method with $contentType with 204 and the allowed methods and headers, without a token',
    async ({ method }) => {
      const res = await api(server, 'OPTIONS', `${NS_BASE}/cors-lease`, {
        headers: {
          Origin: DASHBOARD,
          'Access-Control-Request-Method': method,
          'Access-Control-Request-Headers': 'content-type,authorization',
        },
      });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect(corsHeadersOf(res.headers)).toEqual({
        'access-control-allow-origin': DASHBOARD,
        'access-control-allow-methods': 'POST, GET, OPTIONS, PUT, DELETE, PATCH',
        'access-control-allow-headers':
          'Content-Type, Content-Length, Accept-Encoding, X-CSRF-Token, Authorization, X-Requested-With, If-Modified-Since',
        'access-control-expose-headers': 'Date, Warning, Retry-After',
        'access-control-allow-credentials': 'true',
      });
    },
  );

  it('puts the CORS headers on actual answers too, errors included, so the page can read Warning and Retry-After', async () => {
    const ok = await api(server, 'GET', NS_BASE, {
      headers: { Origin: 'http://localhost:5173', Authorization: 'Bearer secret' },
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    const unauthorized = await api(server, 'GET', NS_BASE, { headers: { Origin: DASHBOARD } });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('access-control-expose-headers')).toBe('Date, Warning, Retry-After');
  });

  it.each([
    ['another host', 'http://evil.test'],
    ['a suffix attack on the allowed host', 'http://dashboard.test.evil.net'],
    ['a prefix attack on the allowed host', 'http://evildashboard.test'],
    ['another scheme', 'https://dashboard.test'],
  ])('gives %s no CORS headers, and its OPTIONS goes on to the API (405), as kube-apiserver', async (_what, origin) => {
    const res = await api(server, 'OPTIONS', `${NS_BASE}/cors-lease`, {
      headers: { Origin: origin, 'Access-Control-Request-Method': 'PATCH', Authorization: 'Bearer secret' },
    });
    expect(corsHeadersOf(res.headers)).toEqual({});
    expect(res.status).toBe(405);
  });

  it('without the option, sends no CORS headers for any origin', async () => {
    const plain = await start();
    try {
      const res = await api(plain, 'GET', NS_BASE, { headers: { Origin: DASHBOARD } });
      expect(res.status).toBe(200);
      expect(corsHeadersOf(res.headers)).toEqual({});
    } finally {
      await plain.close();
    }
  });

  it.each([
    ['', 'empty value'],
    ['dashboard.test', 'does not pin to start/end of host'],
    ['dashboard\\.test$', 'does not pin to start/end of host'],
    ['//dashboard\\.test', 'does not pin to start/end of host'],
    ['^http://(dashboard$', 'is not a valid regular expression'],
  ])('refuses the pattern %j at start-up with one line naming it (%s)', async (pattern, message) => {
    await expect(start({ corsAllowedOrigins: [pattern] })).rejects.toThrow(message);
    const parsed = parseCommand(['serve', `--cors-allowed-origins=${pattern}`]);
    expect(parsed.ok ? 'parsed' : parsed.error).toContain(
      pattern === ''
        ? '--cors-allowed-origins needs a non-empty value'
        : `--cors-allowed-origins: ${JSON.stringify(pattern)}`,
    );
  });

  it('lease-api-server serve --cors-allowed-origins answers an allowed preflight with 204', async () => {
    const controller = new AbortController();
    const out: string[] = [];
    const exit = main(['serve', '--port', '0', '--cors-allowed-origins', '^http://dashboard\\.test(:[0-9]+)?$'], {
      stdout: (t) => out.push(t),
      stderr: (t) => out.push(t),
      signal: controller.signal,
    });
    try {
      for (let i = 0; i < 200 && !out.join('').includes('listening on'); i++)
        await new Promise((r) => setTimeout(r, 10));
      const url = /listening on (\S+)/.exec(out.join(''))?.[1] ?? '';
      const res = await fetch(`${url}${NS_BASE}/x`, {
        method: 'OPTIONS',
        headers: { Origin: DASHBOARD, 'Access-Control-Request-Method': 'PATCH' },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(DASHBOARD);
    } finally {
      controller.abort();
    }
    expect(await exit).toBe(0);
  });
});

/** One request with exactly these header lines (fetch would join repeated headers into one). */
function rawRequest(
  url: string,
  method: string,
  headers: Record<string, string | string[]>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('CORS against hostile Origin headers', () => {
  let server: LeaseApiServer;
  let sentinel: JsonBody;
  beforeAll(async () => {
    server = await start({ corsAllowedOrigins: ['^http://dashboard\\.test(:[0-9]+)?$', '//localhost(:|$)'] });
    sentinel = await create(server, 'sentinel', { holderIdentity: 'keeper', leaseDurationSeconds: 30 });
  });
  afterAll(() => server.close());

  it.each([
    ['a disallowed Origin followed by an allowed one', ['http://evil.test', 'http://localhost'], 405, undefined],
    [
      'an allowed Origin followed by a disallowed one',
      ['http://localhost', 'http://evil.test'],
      204,
      'http://localhost',
    ],
  ])(
    "reads only the first of two Origin headers, as Go's Header.Get: %s",
    async (_what, origins, status, allowOrigin) => {
      const res = await rawRequest(`${server.url}${NS_BASE}/sentinel`, 'OPTIONS', {
        Origin: origins,
        'Access-Control-Request-Method': 'PATCH',
      });
      expect(res.status).toBe(status);
      expect(res.headers['access-control-allow-origin']).toBe(allowOrigin);
      await expectServerIntact(server, sentinel);
    },
  );

  it.each([
    ['the opaque origin null', 'null'],
    ["the allowed origin in upper case (the patterns are case-sensitive, as Go's regexp)", 'HTTP://LOCALHOST'],
    ['a non-ASCII character after the allowed host', 'http://localhost\u00e9'],
    ['a 15,000-character Origin', `http://localhost${'a'.repeat(15_000)}`],
  ])('gives %s no CORS headers and the normal answer', async (_what, origin) => {
    const res = await rawRequest(`${server.url}${NS_BASE}/sentinel`, 'GET', { Origin: origin });
    expect(res.status).toBe(200);
    expect(Object.keys(res.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
    await expectServerIntact(server, sentinel);
  });

  it('takes an RE2 flag group as kube-apiserver does: (?i) matches the Origin in any case', async () => {
    const caseless = await start({ corsAllowedOrigins: ['(?i)^http://dashboard\\.test$'] });
    try {
      const res = await rawRequest(`${caseless.url}${NS_BASE}`, 'OPTIONS', {
        Origin: 'HTTP://Dashboard.TEST',
        'Access-Control-Request-Method': 'PATCH',
      });
      expect(res.status).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe('HTTP://Dashboard.TEST');
    } finally {
      await caseless.close();
    }
    // Go's syntax, not JavaScript's: a lookbehind compiles in JavaScript but not in Go, so it is refused.
    await expect(start({ corsAllowedOrigins: ['(?<=x)^http://a$'] })).rejects.toThrow(
      /^corsAllowedOrigins: "\(\?<=x\)\^http:\/\/a\$" is not a valid regular expression: /,
    );
  });

  it('answers a hostile Origin at once even under a pattern with nested quantifiers (RE2 matches in linear time)', async () => {
    // A JavaScript RegExp backtracks exponentially here: 48 characters took 95 s, 80 would take years.
    const nested = await start({ corsAllowedOrigins: ['//([a-z0-9]+[.-]?)+\\.example\\.com(:|$)'] });
    try {
      const res = await rawRequest(`${nested.url}${NS_BASE}/sentinel`, 'GET', { Origin: `http://${'a'.repeat(80)}!` });
      expect(res.status).toBe(404);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      const allowed = await rawRequest(`${nested.url}${NS_BASE}`, 'OPTIONS', {
        Origin: 'https://dash.example.com',
        'Access-Control-Request-Method': 'PUT',
      });
      expect(allowed.status).toBe(204);
    } finally {
      await nested.close();
    }
  });

  it("sends no Vary: Origin, as kube-apiserver's WithCORS, on allowed and disallowed answers", async () => {
    for (const origin of ['http://localhost', 'http://evil.test']) {
      const res = await rawRequest(`${server.url}${NS_BASE}/sentinel`, 'GET', { Origin: origin });
      expect(res.status).toBe(200);
      expect(res.headers['vary']).toBeUndefined();
    }
  });
});
