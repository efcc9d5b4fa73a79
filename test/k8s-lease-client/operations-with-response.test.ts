import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as k8s from '../../generated/k8s-lease-client/src/v1_35/index.js';
import { startLeaseApiServer } from '../../templates/k8s-lease-api-server/src/index.js';
import type { LeaseApiServer } from '../../templates/k8s-lease-api-server/src/index.js';
import { PROJECT_ROOT } from '../helpers/project.js';

/** The operations' …WithResponse forms, parameterless lists and MicroTime round-trips, against the Lease API server over real HTTP. */
const NS = 'habits';
let server: LeaseApiServer;
let client: k8s.Client;

beforeAll(async () => {
  const openapi = JSON.parse(readFileSync(join(PROJECT_ROOT, 'spec', 'openapi', 'v1.35.0.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  server = await startLeaseApiServer({ port: 0, release: '1.35.0', openapi, namespaces: [NS] });
  client = k8s.createClient({ baseUrl: server.url });
});
afterAll(() => server.close());

const lease = (name: string): k8s.Lease => ({
  metadata: { name },
  spec: { holderIdentity: 'a', renewTime: k8s.asMicroTime('2024-05-01T12:00:00.123456Z') },
});

describe('…WithResponse tells a create (201) from a replace (200) and shows the headers', () => {
  it('returns status, headers and the typed body', async () => {
    const created = await k8s.createNamespacedLeaseWithResponse(client, {
      namespace: NS,
      body: lease('with-response'),
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toMatch(/^application\/json/);
    expect(created.body.metadata?.name).toBe('with-response');

    const read = await k8s.readNamespacedLeaseWithResponse(client, { namespace: NS, name: 'with-response' });
    expect(read.status).toBe(200);
    expect(read.body.spec?.renewTime).toBe('2024-05-01T12:00:00.123456Z');

    const replaced = await k8s.replaceNamespacedLeaseWithResponse(client, {
      namespace: NS,
      name: 'with-response',
      body: { ...read.body, spec: { ...read.body.spec, holderIdentity: 'b' } },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.spec?.holderIdentity).toBe('b');
  });

  it('throws the same KubernetesApiError as the plain function for a non-2xx', async () => {
    const error = await k8s
      .readNamespacedLeaseWithResponse(client, { namespace: NS, name: 'missing' })
      .catch((e: unknown) => e);
    expect(k8s.isNotFound(error)).toBe(true);
  });

  it('honours the per-call timeout and signal', async () => {
    const aborted = new AbortController();
    aborted.abort(new Error('stopped by caller'));
    await expect(
      k8s.readNamespacedLeaseWithResponse(client, { namespace: NS, name: 'with-response' }, { signal: aborted.signal }),
    ).rejects.toThrow('stopped by caller');
  });

  it('reports a 2xx body that is not JSON as a ResponseDecodeError', async () => {
    const fake = k8s.createClient({
      baseUrl: 'http://127.0.0.1:1',
      fetch: async () => new Response('<html>', { status: 200 }),
    });
    const error = await k8s
      .readNamespacedLeaseWithResponse(fake, { namespace: NS, name: 'x' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(k8s.ResponseDecodeError);
    expect(String(error)).toBe(
      'ResponseDecodeError: GET /apis/coordination.k8s.io/v1/namespaces/habits/leases/x: 200 body is not JSON: <html>',
    );
    expect((error as k8s.ResponseDecodeError).url).toBe(
      'http://127.0.0.1:1/apis/coordination.k8s.io/v1/namespaces/habits/leases/x',
    );
  });
});

describe('listLeaseForAllNamespaces(client) works without params', () => {
  it('lists every namespace', async () => {
    await k8s.createNamespacedLease(client, { namespace: NS, body: lease('listed') });
    const list = await k8s.listLeaseForAllNamespaces(client);
    expect(list.items.map((l) => l.metadata?.name)).toContain('listed');
  });
});

describe('parseMicroTime and formatMicroTime round-trip a Lease renewTime', () => {
  it('keeps all six digits through parse → format → replace', async () => {
    const read = await k8s.readNamespacedLease(client, { namespace: NS, name: 'listed' });
    const parsed = k8s.parseMicroTime(read.spec?.renewTime ?? '');
    const renewTime = k8s.formatMicroTime(parsed.date, parsed.microseconds);
    const replaced = await k8s.replaceNamespacedLease(client, {
      namespace: NS,
      name: 'listed',
      body: { ...read, spec: { ...read.spec, renewTime } },
    });
    expect(replaced.spec?.renewTime).toBe('2024-05-01T12:00:00.123456Z');
  });
});
