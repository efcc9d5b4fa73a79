import { describe, expect, it } from 'vitest';
import { startLeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import { ExecPluginError } from '../../../templates/k8s-lease-client-node/src/exec/errors.js';
import { refreshOnUnauthorized, tokenProvider } from '../../../templates/k8s-lease-client-node/src/exec/refresh.js';
import {
  createClient,
  createNamespacedLease,
  isNotFound,
  isUnauthorized,
  readNamespacedLease,
} from '../../../generated/k8s-lease-client/src/index.js';
import { newRecord, runs, source } from './plugin-fixture.js';

describe('refreshOnUnauthorized against the Lease API server', () => {
  it('refreshes the credential once on a 401 and retries the request (body included) with the new token', async () => {
    const server = await startLeaseApiServer({ token: 'new' });
    try {
      const record = newRecord();
      const creds = source({ PLUGIN_RECORD: record, PLUGIN_TOKENS: 'old,new' });
      const client = createClient({
        baseUrl: server.url,
        token: tokenProvider(creds),
        fetch: refreshOnUnauthorized(fetch, creds),
      });
      // A POST: its body is replayed on the retry.
      const created = await createNamespacedLease(client, {
        namespace: 'default',
        body: { metadata: { name: 'exec-lease' }, spec: { holderIdentity: 'exec' } },
      });
      expect(created.metadata?.name).toBe('exec-lease');
      expect(runs(record)).toHaveLength(2);
      const read = await readNamespacedLease(client, { namespace: 'default', name: 'exec-lease' });
      expect(read.spec?.holderIdentity).toBe('exec');
      // The new credential is cached: no further runs.
      expect(runs(record)).toHaveLength(2);
    } finally {
      await server.close();
    }
  });

  it('runs the plugin once for concurrent 401s', async () => {
    const server = await startLeaseApiServer({ token: 'new' });
    try {
      const good = createClient({ baseUrl: server.url, token: 'new' });
      await createNamespacedLease(good, { namespace: 'default', body: { metadata: { name: 'shared' } } });
      const record = newRecord();
      const creds = source({ PLUGIN_RECORD: record, PLUGIN_TOKENS: 'old,new' });
      const client = createClient({
        baseUrl: server.url,
        token: tokenProvider(creds),
        fetch: refreshOnUnauthorized(fetch, creds),
      });
      const leases = await Promise.all(
        Array.from({ length: 6 }, () => readNamespacedLease(client, { namespace: 'default', name: 'shared' })),
      );
      expect(leases.map((l) => l.metadata?.name)).toEqual(Array.from({ length: 6 }, () => 'shared'));
      // One run gave 'old' to all six, one refresh gave 'new' to all six.
      expect(runs(record).map((r) => r.argv)).toHaveLength(2);
    } finally {
      await server.close();
    }
  });

  it('refreshes once for concurrent 401s even when the plugin hands out the same token again', async () => {
    const server = await startLeaseApiServer({ token: 'new' });
    try {
      const record = newRecord();
      const creds = source({ PLUGIN_RECORD: record, PLUGIN_TOKENS: 'old' });
      const client = createClient({
        baseUrl: server.url,
        token: tokenProvider(creds),
        fetch: refreshOnUnauthorized(fetch, creds),
      });
      const results = await Promise.allSettled(
        Array.from({ length: 6 }, () => readNamespacedLease(client, { namespace: 'default', name: 'x' })),
      );
      // Each request retried once and still got kube-apiserver's 401; the plugin ran for the first credential and one refresh.
      expect(results.map((r) => r.status === 'rejected' && isUnauthorized(r.reason))).toEqual(
        Array.from({ length: 6 }, () => true),
      );
      expect(runs(record)).toHaveLength(2);
    } finally {
      await server.close();
    }
  });

  it('does not replay a streamed body: the 401 comes back as it is and nothing was created', async () => {
    const server = await startLeaseApiServer({ token: 'new' });
    try {
      const record = newRecord();
      const creds = source({ PLUGIN_RECORD: record, PLUGIN_TOKENS: 'old,new' });
      const wrapped = refreshOnUnauthorized(fetch, creds);
      const body = new Blob([JSON.stringify({ metadata: { name: 'streamed' } })]).stream();
      const response = await wrapped(`${server.url}/apis/coordination.k8s.io/v1/namespaces/default/leases`, {
        method: 'POST',
        headers: { authorization: `Bearer ${(await creds.token()) ?? ''}`, 'content-type': 'application/json' },
        body,
        duplex: 'half',
      } as RequestInit);
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
      expect(runs(record)).toHaveLength(1);
      const good = createClient({ baseUrl: server.url, token: 'new' });
      const missing: unknown = await readNamespacedLease(good, { namespace: 'default', name: 'streamed' }).catch(
        (e: unknown) => e,
      );
      expect(isNotFound(missing)).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('answers with the 401 when the refresh itself fails, and tells onRefreshError', async () => {
    const server = await startLeaseApiServer({ token: 'new' });
    try {
      const record = newRecord();
      const creds = source({
        PLUGIN_RECORD: record,
        PLUGIN_TOKENS: 'old',
        PLUGIN_FAIL_AFTER: '1',
        PLUGIN_STDERR: 'no refresh today',
      });
      const refreshErrors: unknown[] = [];
      const client = createClient({
        baseUrl: server.url,
        token: tokenProvider(creds),
        fetch: refreshOnUnauthorized(fetch, creds, { onRefreshError: (e) => refreshErrors.push(e) }),
      });
      const outcome: unknown = await readNamespacedLease(client, { namespace: 'default', name: 'x' }).catch(
        (e: unknown) => e,
      );
      expect(isUnauthorized(outcome)).toBe(true);
      expect(refreshErrors).toHaveLength(1);
      expect(refreshErrors[0]).toBeInstanceOf(ExecPluginError);
      expect((refreshErrors[0] as ExecPluginError).message).toBe(
        `exec plugin ${process.execPath}: executable failed with exit code 1`,
      );
      expect(runs(record)).toHaveLength(2);
      // The server still serves.
      expect(
        (
          await createNamespacedLease(createClient({ baseUrl: server.url, token: 'new' }), {
            namespace: 'default',
            body: { metadata: { name: 'after' } },
          })
        ).metadata?.name,
      ).toBe('after');
    } finally {
      await server.close();
    }
  });
});
