import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as k8s from '../../generated/k8s-lease-client/src/v1_35/index.js';
import * as v130 from '../../generated/k8s-lease-client/src/v1_30/index.js';
import { startLeaseApiServer } from '../../templates/k8s-lease-api-server/src/index.js';
import type { LeaseApiServer } from '../../templates/k8s-lease-api-server/src/index.js';
import { PROJECT_ROOT } from '../helpers/project.js';
import { rejectionOf } from '../helpers/rejection.js';

/**
 * The generated clients against the Lease API server over real HTTP: every
 * operation, the error model, and the call options users rely on.
 */
const openapi = (release: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(PROJECT_ROOT, 'spec', 'openapi', `v${release}.json`), 'utf8')) as Record<
    string,
    unknown
  >;
const NS = 'integration';
let server: LeaseApiServer;
let client: k8s.Client;

function lease(name: string, labels: Record<string, string> = {}): k8s.Lease {
  return {
    metadata: { name, labels },
    spec: {
      holderIdentity: 'holder-a',
      leaseDurationSeconds: 15,
      renewTime: k8s.asMicroTime('2024-05-01T12:00:00.123456Z'),
    },
  };
}

beforeAll(async () => {
  server = await startLeaseApiServer({
    port: 0,
    release: '1.35.0',
    openapi: openapi('1.35.0'),
    namespaces: [NS, 'paging', 'watched'],
  });
  client = k8s.createClient({ baseUrl: server.url });
});
afterAll(() => server.close());

describe('generated operations against the Lease API server', () => {
  it('create, read, replace, patch (every type), list, delete with preconditions, deletecollection', async () => {
    const created = await k8s.createNamespacedLease(client, {
      namespace: NS,
      body: lease('crud', { app: 'web' }),
      fieldManager: 'tests',
    });
    expect(created.metadata?.uid).toBeTruthy();
    expect(created.spec?.renewTime).toBe('2024-05-01T12:00:00.123456Z');

    const read = await k8s.readNamespacedLease(client, { namespace: NS, name: 'crud' });
    expect(read).toMatchObject({
      kind: 'Lease',
      apiVersion: 'coordination.k8s.io/v1',
      spec: { holderIdentity: 'holder-a' },
    });

    const replaced = await k8s.replaceNamespacedLease(client, {
      namespace: NS,
      name: 'crud',
      body: { ...read, spec: { ...read.spec, holderIdentity: 'holder-b' } },
    });
    expect(replaced.spec?.holderIdentity).toBe('holder-b');
    expect(Number(replaced.metadata?.resourceVersion)).toBeGreaterThan(Number(read.metadata?.resourceVersion));

    const jsonPatched = await k8s.patchNamespacedLease(client, {
      namespace: NS,
      name: 'crud',
      patch: { type: 'json', operations: [{ op: 'add', path: '/spec/leaseTransitions', value: 1 }] },
    });
    expect(jsonPatched.spec?.leaseTransitions).toBe(1);
    const merged = await k8s.patchNamespacedLease(client, {
      namespace: NS,
      name: 'crud',
      patch: { type: 'merge', body: { metadata: { labels: { tier: 'x' } } } },
    });
    expect(merged.metadata?.labels).toEqual({ app: 'web', tier: 'x' });
    const strategic = await k8s.patchNamespacedLease(client, {
      namespace: NS,
      name: 'crud',
      patch: { type: 'strategic', body: { spec: { holderIdentity: 'holder-c' } } },
    });
    expect(strategic.spec?.holderIdentity).toBe('holder-c');
    const applied = await k8s.patchNamespacedLease(client, {
      namespace: NS,
      name: 'crud',
      fieldManager: 'applier',
      force: true,
      patch: {
        type: 'apply',
        body: {
          apiVersion: 'coordination.k8s.io/v1',
          kind: 'Lease',
          metadata: { name: 'crud' },
          spec: { holderIdentity: 'holder-d' },
        },
      },
    });
    expect(applied.spec?.holderIdentity).toBe('holder-d');
    expect(applied.metadata?.managedFields?.some((m) => m.manager === 'applier' && m.operation === 'Apply')).toBe(true);

    await k8s.createNamespacedLease(client, { namespace: NS, body: lease('other', { app: 'db' }) });
    const list = await k8s.listNamespacedLease(client, { namespace: NS, labelSelector: 'app in (web,db)' });
    expect(list.items.map((l) => l.metadata?.name).sort()).toEqual(['crud', 'other']);
    const web = await k8s.listLeaseForAllNamespaces(client, { labelSelector: 'app=web' });
    expect(web.items.map((l) => l.metadata?.name)).toEqual(['crud']);
    const byName = await k8s.listNamespacedLease(client, { namespace: NS, fieldSelector: 'metadata.name=other' });
    expect(byName.items).toHaveLength(1);

    const stale = await rejectionOf(
      k8s.deleteNamespacedLease(client, {
        namespace: NS,
        name: 'crud',
        body: { preconditions: { resourceVersion: read.metadata?.resourceVersion } },
      }),
    );
    expect(k8s.isConflict(stale)).toBe(true);
    const status = await k8s.deleteNamespacedLease(client, {
      namespace: NS,
      name: 'crud',
      body: { preconditions: { uid: created.metadata?.uid } },
    });
    expect(status).toMatchObject({ kind: 'Status', status: 'Success', details: { name: 'crud' } });

    await k8s.deleteCollectionNamespacedLease(client, { namespace: NS, labelSelector: 'app=db' });
    expect((await k8s.listNamespacedLease(client, { namespace: NS })).items).toEqual([]);
    const resources = await k8s.getAPIResources(client);
    expect(resources.resources.find((r) => r.name === 'leases')).toMatchObject({ kind: 'Lease', namespaced: true });
  });

  it('dryRun=All changes nothing', async () => {
    const dry = await k8s.createNamespacedLease(client, { namespace: NS, body: lease('dry'), dryRun: 'All' });
    expect(dry.metadata?.name).toBe('dry');
    expect(k8s.isNotFound(await rejectionOf(k8s.readNamespacedLease(client, { namespace: NS, name: 'dry' })))).toBe(
      true,
    );
  });

  it('pages with limit and continue', async () => {
    for (let i = 0; i < 5; i++) await k8s.createNamespacedLease(client, { namespace: 'paging', body: lease(`p${i}`) });
    const first = await k8s.listNamespacedLease(client, { namespace: 'paging', limit: 2 });
    expect(first.items).toHaveLength(2);
    expect(first.metadata?.continue).toBeTruthy();
    const second = await k8s.listNamespacedLease(client, {
      namespace: 'paging',
      limit: 2,
      continue: first.metadata!.continue!,
    });
    expect(second.items.map((l) => l.metadata?.name)).toEqual(['p2', 'p3']);
    const all: string[] = [];
    for await (const item of k8s.listAllNamespacedLeases(client, { namespace: 'paging' }, { limit: 2 }))
      all.push(item.metadata?.name ?? '');
    expect(all).toEqual(['p0', 'p1', 'p2', 'p3', 'p4']);
  });
});

describe('the error model', () => {
  it('AlreadyExists, NotFound, Invalid with causes, BadRequest for a MicroTime without six digits', async () => {
    await k8s.createNamespacedLease(client, { namespace: NS, body: lease('dup') });
    const exists = await rejectionOf(k8s.createNamespacedLease(client, { namespace: NS, body: lease('dup') }));
    expect(k8s.isAlreadyExists(exists)).toBe(true);
    expect(exists).toMatchObject({ status: 409, reason: 'AlreadyExists' });

    const missing = await rejectionOf(k8s.readNamespacedLease(client, { namespace: NS, name: 'missing' }));
    expect(k8s.isNotFound(missing)).toBe(true);
    expect((missing as k8s.KubernetesApiError).statusObject?.message).toBe(
      'leases.coordination.k8s.io "missing" not found',
    );

    const invalid = await rejectionOf(
      k8s.createNamespacedLease(client, {
        namespace: NS,
        body: { metadata: { name: 'bad' }, spec: { leaseDurationSeconds: 0 } },
      }),
    );
    expect(k8s.isInvalid(invalid)).toBe(true);
    expect((invalid as k8s.KubernetesApiError).statusObject?.details?.causes?.[0]).toMatchObject({
      field: 'spec.leaseDurationSeconds',
    });

    // What a client that formats milliseconds would send; the types refuse it, so it is forced here.
    const millis = {
      metadata: { name: 'ms' },
      spec: { renewTime: '2024-05-01T12:00:00.123Z' as unknown as k8s.MicroTime },
    };
    const badRequest = await rejectionOf(k8s.createNamespacedLease(client, { namespace: NS, body: millis }));
    expect(k8s.isBadRequest(badRequest)).toBe(true);
    expect((badRequest as Error).message).toContain('2006-01-02T15:04:05.000000Z07:00');
  });

  it('Conflict on a stale resourceVersion', async () => {
    const current = await k8s.createNamespacedLease(client, { namespace: NS, body: lease('stale') });
    await k8s.replaceNamespacedLease(client, {
      namespace: NS,
      name: 'stale',
      body: { ...current, spec: { ...current.spec, holderIdentity: 'x' } },
    });
    const conflict = await rejectionOf(
      k8s.replaceNamespacedLease(client, { namespace: NS, name: 'stale', body: current }),
    );
    expect(k8s.isConflict(conflict)).toBe(true);
  });

  it('TooManyRequests carries Retry-After; a body that is not a Status still explains itself', async () => {
    server.setFaults({ throttle: { count: 1, retryAfterSeconds: 7 } });
    const throttled = await rejectionOf(k8s.readNamespacedLease(client, { namespace: NS, name: 'dup' }));
    server.setFaults({});
    expect(k8s.isTooManyRequests(throttled)).toBe(true);
    expect((throttled as k8s.KubernetesApiError).retryAfterSeconds).toBe(7);
    const html = k8s.createClient({
      baseUrl: server.url,
      fetch: async () => new Response('<html>bad gateway</html>', { status: 502 }),
    });
    const gateway = await rejectionOf(k8s.readNamespacedLease(html, { namespace: NS, name: 'dup' }));
    expect(gateway).toMatchObject({ status: 502 });
    expect((gateway as Error).message).toContain('bad gateway');
  });

  it('Unauthorized and Forbidden with a token-checking server; a token provider is asked per request', async () => {
    const secured = await startLeaseApiServer({ port: 0, token: 'good', forbiddenTokens: ['weak'] });
    try {
      const none = k8s.createClient({ baseUrl: secured.url });
      expect(k8s.isUnauthorized(await rejectionOf(k8s.listNamespacedLease(none, { namespace: NS })))).toBe(true);
      const weak = k8s.createClient({ baseUrl: secured.url, token: 'weak' });
      expect(k8s.isForbidden(await rejectionOf(k8s.listNamespacedLease(weak, { namespace: NS })))).toBe(true);
      let asked = 0;
      const rotating = k8s.createClient({
        baseUrl: secured.url,
        token: () => {
          asked++;
          return 'good';
        },
      });
      await k8s.listNamespacedLease(rotating, { namespace: NS });
      await k8s.listNamespacedLease(rotating, { namespace: NS });
      expect(asked).toBe(2);
    } finally {
      await secured.close();
    }
  });

  it('rejects an invalid path parameter before any request exists', async () => {
    const before = server.requests().length;
    await expect(k8s.readNamespacedLease(client, { namespace: NS, name: '../etc' })).rejects.toMatchObject({
      name: 'InvalidPathParameterError',
      parameter: 'name',
    });
    await expect(k8s.readNamespacedLease(client, { namespace: 'a/b', name: 'x' })).rejects.toMatchObject({
      parameter: 'namespace',
    });
    expect(server.requests().length).toBe(before);
  });
});

describe('call options', () => {
  it('a per-call timeout beats the default; an abort keeps the caller’s reason', async () => {
    server.setFaults({ latencyMs: 300 });
    try {
      const slow = k8s.createClient({ baseUrl: server.url, timeoutMs: 5_000 });
      await expect(
        k8s.readNamespacedLease(slow, { namespace: NS, name: 'dup' }, { timeoutMs: 50 }),
      ).rejects.toMatchObject({ name: 'RequestTimeoutError' });
      const controller = new AbortController();
      const reason = new Error('caller gave up');
      setTimeout(() => controller.abort(reason), 20);
      await expect(
        k8s.readNamespacedLease(slow, { namespace: NS, name: 'dup' }, { signal: controller.signal }),
      ).rejects.toBe(reason);
    } finally {
      server.setFaults({});
    }
  });
});

describe('release-specific clients', () => {
  it('the 1.30 client against a 1.30 server; a 1.31 field is unknown there', async () => {
    const old = await startLeaseApiServer({ port: 0, release: '1.30.0', openapi: openapi('1.30.0'), namespaces: [NS] });
    try {
      const c = v130.createClient({ baseUrl: old.url });
      const created = await v130.createNamespacedLease(c, {
        namespace: NS,
        body: { metadata: { name: 'old' }, spec: { holderIdentity: 'a' } },
        fieldValidation: 'Strict',
      });
      expect(created.spec?.holderIdentity).toBe('a');
      const withNewField = {
        metadata: { name: 'new' },
        spec: { preferredHolder: 'b', strategy: 'OldestEmulationVersion' },
      } as unknown as v130.Lease;
      const rejected = await rejectionOf(
        v130.createNamespacedLease(c, { namespace: NS, body: withNewField, fieldValidation: 'Strict' }),
      );
      expect(v130.isBadRequest(rejected)).toBe(true);
      expect((rejected as Error).message).toContain('unknown field "spec.preferredHolder"');
    } finally {
      await old.close();
    }
  });
});

describe('generated watch functions', () => {
  it('watchNamespacedLeases yields typed events from the list path; an informer syncs and follows changes', async () => {
    const controller = new AbortController();
    const seen: string[] = [];
    const done = (async () => {
      for await (const event of k8s.watchNamespacedLeases(
        client,
        { namespace: 'watched' },
        { signal: controller.signal },
      )) {
        if (event.type === 'RESYNC') continue;
        seen.push(`${event.type} ${event.object.metadata?.name} ${event.object.spec?.holderIdentity ?? ''}`.trim());
        if (seen.length === 3) controller.abort();
      }
    })();
    const informed: string[] = [];
    const informer = k8s.createNamespacedLeaseInformer(
      client,
      { namespace: 'watched' },
      {
        onAdd: (l) => informed.push(`add ${l.metadata?.name}`),
        onUpdate: (_old, l) => informed.push(`update ${l.metadata?.name} ${l.spec?.holderIdentity}`),
        onDelete: (l) => informed.push(`delete ${l.metadata?.name}`),
      },
    );
    await informer.start();
    expect(informer.hasSynced()).toBe(true);
    const w = await k8s.createNamespacedLease(client, { namespace: 'watched', body: lease('w') });
    await k8s.replaceNamespacedLease(client, {
      namespace: 'watched',
      name: 'w',
      body: { ...w, spec: { ...w.spec, holderIdentity: 'holder-z' } },
    });
    await k8s.deleteNamespacedLease(client, { namespace: 'watched', name: 'w' });
    await done;
    expect(seen).toEqual(['ADDED w holder-a', 'MODIFIED w holder-z', 'DELETED w holder-z']);
    await expect.poll(() => informed).toEqual(['add w', 'update w holder-z', 'delete w']);
    await informer.stop();
    await expect.poll(() => server.activeWatches()).toBe(0);
  });
});
