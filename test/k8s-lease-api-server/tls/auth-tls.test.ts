import { parse as parseYaml } from 'yaml';
import { X509Certificate } from 'node:crypto';
import { request as httpsRequest } from 'node:https';
import { describe, expect, it } from 'vitest';
import { startLeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import { createTestPki } from '../../../templates/k8s-lease-api-server/src/tls/pki.js';
import type { LeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import { NS_BASE, api, httpsJson } from '../helpers.js';

/** A DELETE over HTTPS trusting the server's CA, presenting the given client certificate. */
function httpsDelete(
  server: LeaseApiServer,
  path: string,
  tls: { cert?: string | undefined; key?: string | undefined },
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      server.url + path,
      { method: 'DELETE', ca: server.tls?.ca, cert: tls.cert, key: tls.key },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('bearer tokens', () => {
  it('answers 401 without or with a wrong token, 200 with the right one', async () => {
    const server = await startLeaseApiServer({ token: 'secret' });
    try {
      const none = await api(server, 'GET', NS_BASE);
      expect(none.status).toBe(401);
      expect(none.body).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'Unauthorized',
        reason: 'Unauthorized',
        code: 401,
      });
      const wrong = await api(server, 'GET', NS_BASE, { headers: { Authorization: 'Bearer nope' } });
      expect(wrong.status).toBe(401);
      const right = await api(server, 'GET', NS_BASE, { headers: { Authorization: 'Bearer secret' } });
      expect(right.status).toBe(200);
      expect((await api(server, 'GET', '/version')).status).toBe(200);
      expect((await api(server, 'GET', '/apis')).status).toBe(401);
      expect(server.kubeconfig()).toContain('token: "secret"');
    } finally {
      await server.close();
    }
  });

  it('answers 403 Forbidden for forbidden tokens on Leases but still serves discovery', async () => {
    const server = await startLeaseApiServer({ token: 'secret', forbiddenTokens: ['blocked'] });
    try {
      const headers = { Authorization: 'Bearer blocked' };
      const res = await api(server, 'GET', NS_BASE, { headers });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({
        reason: 'Forbidden',
        message:
          'leases.coordination.k8s.io is forbidden: User "forbidden-user" cannot list resource "leases" in API group "coordination.k8s.io" in the namespace "default"',
        details: { group: 'coordination.k8s.io', kind: 'leases' },
      });
      const create = await api(server, 'POST', NS_BASE, { headers, body: { metadata: { name: 'x' } } });
      expect(create.body.message).toContain('cannot create resource');
      expect((await api(server, 'GET', '/apis', { headers })).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('TLS', () => {
  it('serves HTTPS trusted through the generated CA, which the kubeconfig carries', async () => {
    const server = await startLeaseApiServer({ tls: true });
    try {
      expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const res = await httpsJson(server, '/version');
      expect(res.status).toBe(200);
      const config = parseYaml(server.kubeconfig()) as { clusters: Array<{ cluster: Record<string, string> }> };
      expect(Buffer.from(config.clusters[0]!.cluster['certificate-authority-data']!, 'base64').toString('utf8')).toBe(
        server.tls?.ca,
      );
      await expect(fetch(`${server.url}/version`)).rejects.toThrow();
    } finally {
      await server.close();
    }
  });
});

describe('client certificates (verified when given, as kube-apiserver: VerifyClientCertIfGiven)', () => {
  const SENTINEL = `${NS_BASE}/sentinel`;
  let server: LeaseApiServer;
  let sentinelBefore: string;
  const bearer = { Authorization: 'Bearer secret' };

  async function startWithSentinel(token: string | undefined): Promise<void> {
    server = await startLeaseApiServer({
      tls: { clientCertificates: true },
      ...(token === undefined ? {} : { token }),
    });
    const created = server.store.create({
      metadata: { name: 'sentinel', namespace: 'default' },
      spec: { holderIdentity: 'keep' },
    });
    if (!created.ok) throw new Error(created.error.message);
    sentinelBefore = JSON.stringify(server.store.get('default', 'sentinel'));
  }

  async function expectSentinelIntact(): Promise<void> {
    const read = await httpsJson(server, SENTINEL, { cert: server.tls?.clientCertificate, key: server.tls?.clientKey });
    expect(read.status).toBe(200);
    expect(JSON.stringify(server.store.get('default', 'sentinel'))).toBe(sentinelBefore);
  }

  const UNAUTHORIZED = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'Unauthorized',
    reason: 'Unauthorized',
    code: 401,
  };

  it('authenticates by the certificate the kubeconfig presents, without a token', async () => {
    await startWithSentinel(undefined);
    try {
      const res = await httpsJson(server, NS_BASE, { cert: server.tls?.clientCertificate, key: server.tls?.clientKey });
      expect(res.status).toBe(200);
      expect(res.body.items?.map((l) => l.metadata?.name)).toEqual(['sentinel']);
      const kubeconfig = server.kubeconfig();
      expect(kubeconfig).toContain('client-certificate-data: ');
      expect(kubeconfig).toContain('client-key-data: ');
      await expectSentinelIntact();
    } finally {
      await server.close();
    }
  });

  it('records who each request authenticated as: the certificate CN, the token user, anonymous, or nobody', async () => {
    await startWithSentinel('secret');
    try {
      server.clearRequests();
      await httpsJson(server, NS_BASE, { cert: server.tls?.clientCertificate, key: server.tls?.clientKey });
      await httpsJson(server, NS_BASE, { headers: bearer });
      await httpsJson(server, '/version');
      await httpsJson(server, NS_BASE, { headers: { Authorization: 'Bearer wrong' } });
      const cn = new X509Certificate(server.tls?.clientCertificate ?? '').subject.match(/CN=([^\n]+)/)?.[1];
      expect(server.requests().map((r) => [r.path, r.status, r.user])).toEqual([
        [NS_BASE, 200, cn],
        [NS_BASE, 200, 'lease-api-test-user'],
        ['/version', 200, 'system:anonymous'],
        [NS_BASE, 401, ''],
      ]);
    } finally {
      await server.close();
    }
  });

  it('lets a valid bearer token through without a certificate (the handshake does not require one)', async () => {
    await startWithSentinel('secret');
    try {
      expect((await httpsJson(server, NS_BASE, { headers: bearer })).status).toBe(200);
      expect(await httpsJson(server, NS_BASE)).toEqual({ status: 401, body: UNAUTHORIZED });
      expect(await httpsJson(server, NS_BASE, { headers: { Authorization: 'Bearer wrong' } })).toEqual({
        status: 401,
        body: UNAUTHORIZED,
      });
      expect((await httpsJson(server, '/version')).status).toBe(200);
      await expectSentinelIntact();
    } finally {
      await server.close();
    }
  });

  it('answers 401 to a certificate from another CA, lets a valid token win over it, and keeps it off public endpoints', async () => {
    await startWithSentinel('secret');
    const foreign = await createTestPki({ hosts: ['127.0.0.1'], clientCertificate: true, clientCommonName: 'mallory' });
    const cert = { cert: foreign.client?.certificate, key: foreign.client?.key };
    try {
      expect(await httpsJson(server, NS_BASE, cert)).toEqual({ status: 401, body: UNAUTHORIZED });
      const write = await httpsDelete(server, SENTINEL, cert);
      expect(write).toEqual({ status: 401, body: UNAUTHORIZED });
      // union.NewFailOnError: an authenticator's error is not turned into anonymous access.
      expect(await httpsJson(server, '/version', cert)).toEqual({ status: 401, body: UNAUTHORIZED });
      // union.New: the token authenticator still runs after the x509 one failed.
      expect((await httpsJson(server, NS_BASE, { ...cert, headers: bearer })).status).toBe(200);
      await expectSentinelIntact();
    } finally {
      await server.close();
    }
  });
});
