// Whatever fails, a bearer token never reaches an error, the client object or a middleware's events: the transport
// (createClient) and the middleware wrappers together.
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { KubernetesApiError } from '../../../templates/k8s-lease-client/src/runtime/errors.js';
import type { RetryEvent } from '../../../templates/k8s-lease-client/src/runtime/middleware/retries.js';
import { withRetries } from '../../../templates/k8s-lease-client/src/runtime/middleware/retries.js';
import type { ApiWarning } from '../../../templates/k8s-lease-client/src/runtime/middleware/warnings.js';
import { withWarnings } from '../../../templates/k8s-lease-client/src/runtime/middleware/warnings.js';
import { createClient } from '../../../templates/k8s-lease-client/src/runtime/transport.js';
import type { RequestSpec } from '../../../templates/k8s-lease-client/src/runtime/transport.js';
import { jsonHandler } from '../../helpers/loopback.js';
import type { Handler } from '../../helpers/loopback.js';
import { rejectionOf } from '../../helpers/rejection.js';
import { fakeSleep, LEASE_PATH, lease, leaseLoopback, status } from './helpers/lease-loopback.js';

const server = leaseLoopback();

describe('secrets never leak', () => {
  const TOKEN = 'tok-3f9a1c0de5b74e2a';
  afterEach(() => {
    server.handler = jsonHandler(200, lease);
  });

  /** Everything a user might log: message, String(), stack, util.inspect (nested causes included), JSON. */
  function everything(value: unknown): string {
    return [
      String(value),
      inspect(value, { depth: 10, showHidden: true }),
      JSON.stringify(value) ?? '',
      value instanceof Error ? (value.stack ?? '') : '',
    ].join('\n');
  }

  const cases: Array<{
    name: string;
    handler?: Handler;
    token?: string;
    baseUrl?: string;
    timeoutMs?: number;
    spec?: Partial<RequestSpec>;
  }> = [
    { name: '404 Status', handler: jsonHandler(404, status(404, 'NotFound')) },
    { name: 'HTML error page', handler: jsonHandler(502, '<html>bad gateway</html>') },
    { name: '2xx that is not JSON', handler: jsonHandler(200, 'not json') },
    { name: 'timeout', handler: () => undefined, timeoutMs: 20 },
    { name: 'connection reset', handler: (_request, res) => res.socket?.destroy() },
    { name: 'connection refused', baseUrl: 'http://127.0.0.1:1' },
    { name: 'token with an inner line break', token: `a\n${TOKEN}` },
    { name: 'token with a NUL', token: `a\0${TOKEN}` },
    { name: 'token with a carriage return', token: `a\r${TOKEN}` },
    { name: 'token outside Latin-1', token: `${TOKEN}€` },
    {
      name: 'query string',
      handler: jsonHandler(403, status(403, 'Forbidden')),
      spec: { query: '?labelSelector=app%3Dx' },
    },
  ];

  it.each(cases)(
    '$name: no token in the error, nor in the client',
    async ({ handler, token = TOKEN, baseUrl, timeoutMs, spec }) => {
      if (handler) server.handler = handler;
      const client = createClient({
        baseUrl: baseUrl ?? server.baseUrl,
        token,
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
      });
      const error = await rejectionOf(client.request({ method: 'GET', path: LEASE_PATH, ...spec }));
      expect(error).toBeInstanceOf(Error);
      for (const text of [
        everything(error),
        everything(client),
        inspect(createClient({ baseUrl: server.baseUrl, token: () => token }), { showHidden: true }),
      ]) {
        expect(text).not.toContain(TOKEN);
        expect(text.toLowerCase()).not.toContain('bearer');
      }
    },
  );

  it('a token with a line break is refused before anything is sent', async () => {
    const client = createClient({ baseUrl: server.baseUrl, token: `a\n${TOKEN}` });
    expect(await rejectionOf(client.request({ method: 'GET', path: LEASE_PATH }))).toEqual(
      new TypeError('Invalid header authorization'),
    );
    expect(server.requests).toHaveLength(0);
  });

  it('wrappers do not leak the token either', async () => {
    server.handler = jsonHandler(503, status(503, 'ServiceUnavailable'));
    const events: RetryEvent[] = [];
    const warnings: ApiWarning[] = [];
    const wrapped = withWarnings(
      withRetries(fetch, { sleep: fakeSleep().sleep, maxRetries: 2, onRetry: (e) => events.push(e) }),
      (w) => warnings.push(w),
    );
    const client = createClient({ baseUrl: server.baseUrl, token: TOKEN, fetch: wrapped });
    const error = await rejectionOf(client.request({ method: 'GET', path: LEASE_PATH }));
    expect(error).toBeInstanceOf(KubernetesApiError);
    expect(events).toHaveLength(2);
    expect(everything(error) + everything(events) + everything(wrapped)).not.toContain(TOKEN);
  });
});
