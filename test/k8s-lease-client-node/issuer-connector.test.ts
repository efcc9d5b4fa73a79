// The OIDC refresh's connector: http: and https: (verified against the configured CA) as undici's own connector,
// and every socket, one still in its TLS handshake included, destroyed when the refresh's signal aborts (undici's
// Agent.destroy() leaves such a socket open).
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { Agent, fetch } from 'undici';
import { createTestPki } from '../../templates/k8s-lease-api-server/src/tls/pki.js';
import { abortableConnector } from '../../templates/k8s-lease-client-node/src/issuer-connector.js';
import { eventually, startSilentServer } from './helpers.js';

const closers: Array<() => void> = [];
afterAll(() => {
  for (const close of closers.splice(0)) close();
});

describe('abortableConnector', () => {
  it('connects over https verified against the CA it is given, and refuses a server that CA did not sign', async () => {
    const pki = await createTestPki({ hosts: ['127.0.0.1'], clientCertificate: false });
    const other = await createTestPki({ hosts: ['127.0.0.1'], clientCertificate: false });
    const server = createHttpsServer({ key: pki.server.key, cert: pki.server.certificate }, (_req, res) =>
      res.end('ok'),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => {
      server.closeAllConnections();
      server.close();
    });
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const get = async (ca: string): Promise<string> => {
      const agent = new Agent({ connect: abortableConnector(ca, new AbortController().signal) });
      try {
        return await (await fetch(url, { dispatcher: agent })).text();
      } finally {
        await agent.close();
      }
    };
    expect(await get(pki.ca.certificate)).toBe('ok');
    const refused = await get(other.ca.certificate).catch((e: unknown) => e);
    expect((refused as Error).cause).toMatchObject({ code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' });
  });

  it('destroys a socket still in its TLS handshake when the signal aborts', async () => {
    const silent = await startSilentServer();
    closers.push(() => void silent.close());
    const controller = new AbortController();
    const agent = new Agent({ connect: abortableConnector(undefined, controller.signal) });
    const url = `https://127.0.0.1:${silent.port}/`;
    const pending = fetch(url, { dispatcher: agent, signal: controller.signal }).catch((e: unknown) => e);
    await eventually('the connection to arrive', () => silent.open() === 1);
    controller.abort();
    await pending;
    await agent.destroy();
    await eventually('the connection to close', () => silent.open() === 0);
  });
});
