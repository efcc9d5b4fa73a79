import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import { BASE, NS_BASE, api, create, start } from '../helpers.js';

const CONTINUE_EXPIRED =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

function names(body: { items?: { metadata?: { name?: string } }[] }): (string | undefined)[] {
  return body.items?.map((i) => i.metadata?.name) ?? [];
}

describe('list', () => {
  let server: LeaseApiServer;
  beforeEach(async () => {
    server = await start({ historyWindow: 20, resourceVersionWaitMs: 20 });
  });
  afterEach(() => server.close());

  async function seed(count: number): Promise<void> {
    for (let i = 0; i < count; i++)
      await create(server, `l${i}`, {}, { labels: { parity: i % 2 === 0 ? 'even' : 'odd', idx: String(i) } });
  }

  it('filters by label selector', async () => {
    await seed(6);
    const even = await api(
      server,
      'GET',
      `${NS_BASE}?labelSelector=${encodeURIComponent('parity=even,idx notin (4)')}`,
    );
    expect(names(even.body)).toEqual(['l0', 'l2']);
    const exists = await api(server, 'GET', `${NS_BASE}?labelSelector=${encodeURIComponent('!parity')}`);
    expect(names(exists.body)).toEqual([]);
    const bad = await api(server, 'GET', `${NS_BASE}?labelSelector=${encodeURIComponent('a in b')}`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^unable to parse requirement: /);
  });

  it('filters by field selector and rejects unsupported fields', async () => {
    await seed(3);
    await create(server, 'l1', {}, {}, 'other');
    const byName = await api(server, 'GET', `${BASE}/leases?fieldSelector=metadata.name%3Dl1`);
    expect(byName.body.items?.map((i) => i.metadata?.namespace)).toEqual(['default', 'other']);
    const notNs = await api(server, 'GET', `${BASE}/leases?fieldSelector=metadata.namespace!%3Ddefault`);
    expect(names(notNs.body)).toEqual(['l1']);
    const bad = await api(server, 'GET', `${NS_BASE}?fieldSelector=spec.holderIdentity%3Dx`);
    expect(bad.status).toBe(400);
    // Lease has no field-label conversion of its own: the scheme's DefaultMetaV1FieldSelectorConversion answers.
    expect(bad.body).toMatchObject({
      reason: 'BadRequest',
      message: '"spec.holderIdentity" is not a known field selector: only "metadata.name", "metadata.namespace"',
    });
  });

  it('paginates with limit/continue and reports remainingItemCount', async () => {
    await seed(5);
    const first = await api(server, 'GET', `${NS_BASE}?limit=2`);
    expect(names(first.body)).toEqual(['l0', 'l1']);
    expect(first.body.metadata?.remainingItemCount).toBe(3);
    const token = first.body.metadata?.continue ?? '';
    expect(JSON.parse(Buffer.from(token, 'base64').toString())).toEqual({
      v: 'meta.k8s.io/v1',
      rv: Number(first.body.metadata?.resourceVersion),
      start: 'l1\u0000',
    });
    const second = await api(server, 'GET', `${NS_BASE}?limit=2&continue=${encodeURIComponent(token)}`);
    expect(names(second.body)).toEqual(['l2', 'l3']);
    const third = await api(
      server,
      'GET',
      `${NS_BASE}?limit=2&continue=${encodeURIComponent(second.body.metadata?.continue ?? '')}`,
    );
    expect(names(third.body)).toEqual(['l4']);
    expect(third.body.metadata?.continue).toBeUndefined();
    expect(third.body.metadata?.remainingItemCount).toBeUndefined();
  });

  it('keeps pages consistent with the first page snapshot while objects change', async () => {
    await seed(4);
    const first = await api(server, 'GET', `${NS_BASE}?limit=2`);
    const snapshotRv = first.body.metadata?.resourceVersion;
    await api(server, 'DELETE', `${NS_BASE}/l2`);
    await create(server, 'l25');
    await api(server, 'PATCH', `${NS_BASE}/l3`, {
      body: { spec: { holderIdentity: 'changed' } },
      contentType: 'application/merge-patch+json',
    });
    const rest = await api(
      server,
      'GET',
      `${NS_BASE}?limit=10&continue=${encodeURIComponent(first.body.metadata?.continue ?? '')}`,
    );
    expect(names(rest.body)).toEqual(['l2', 'l3']);
    expect(rest.body.items?.[1]?.spec).toEqual({});
    expect(rest.body.metadata?.resourceVersion).toBe(snapshotRv);
  });

  it('answers 410 Expired with an inconsistent-continue token once history is gone', async () => {
    await seed(4);
    const first = await api(server, 'GET', `${NS_BASE}?limit=2`);
    await create(server, 'zz');
    server.store.compact();
    const expired = await api(
      server,
      'GET',
      `${NS_BASE}?limit=2&continue=${encodeURIComponent(first.body.metadata?.continue ?? '')}`,
    );
    expect(expired.status).toBe(410);
    expect(expired.body).toMatchObject({ kind: 'Status', reason: 'Expired', code: 410, message: CONTINUE_EXPIRED });
    const retry = expired.body.metadata?.continue ?? '';
    expect(JSON.parse(Buffer.from(retry, 'base64').toString())).toMatchObject({ rv: -1, start: 'l1\u0000' });
    const inconsistent = await api(server, 'GET', `${NS_BASE}?limit=10&continue=${encodeURIComponent(retry)}`);
    expect(names(inconsistent.body)).toEqual(['l2', 'l3', 'zz']);
  });

  it('expires continue tokens that fall out of the history window', async () => {
    await seed(3);
    const first = await api(server, 'GET', `${NS_BASE}?limit=1`);
    for (let i = 0; i < 25; i++)
      await api(server, 'PATCH', `${NS_BASE}/l0`, {
        body: { spec: { leaseTransitions: i } },
        contentType: 'application/merge-patch+json',
      });
    const res = await api(
      server,
      'GET',
      `${NS_BASE}?limit=1&continue=${encodeURIComponent(first.body.metadata?.continue ?? '')}`,
    );
    expect(res.status).toBe(410);
  });

  it('answers a continue token from a resourceVersion not yet reached with 504 Too large resource version', async () => {
    // etcd3/store.go GetList: etcd refuses the token's future revision (ErrFutureRev), answered as
    // storage.NewTooLargeResourceVersionError(withRev, currentRV, 0), whose retryAfterSeconds 0 is omitted.
    // The page is never served from the current state, whose objects the token's revision cannot know.
    await seed(3);
    const current = Number(server.store.resourceVersion);
    const token = Buffer.from(`{"v":"meta.k8s.io/v1","rv":${current + 50},"start":"l0\\u0000"}`).toString('base64url');
    const res = await api(server, 'GET', `${NS_BASE}?limit=1&continue=${token}`);
    expect(res.status).toBe(504);
    expect(res.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `Timeout: Too large resource version: ${current + 50}, current: ${current}`,
      reason: 'Timeout',
      details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }] },
      code: 504,
    });
    const same = Buffer.from(`{"v":"meta.k8s.io/v1","rv":${current},"start":"l0\\u0000"}`).toString('base64url');
    expect(names((await api(server, 'GET', `${NS_BASE}?limit=1&continue=${same}`)).body)).toEqual(['l1']);
  });

  it('serves resourceVersion semantics: NotOlderThan, Exact, too old and too new', async () => {
    await create(server, 'a');
    const rvA = server.store.resourceVersion;
    await create(server, 'b');
    const notOlder = await api(server, 'GET', `${NS_BASE}?resourceVersion=${rvA}&resourceVersionMatch=NotOlderThan`);
    expect(names(notOlder.body)).toEqual(['a', 'b']);
    const legacy = await api(server, 'GET', `${NS_BASE}?resourceVersion=${rvA}`);
    expect(names(legacy.body)).toEqual(['a', 'b']);
    const exact = await api(server, 'GET', `${NS_BASE}?resourceVersion=${rvA}&resourceVersionMatch=Exact`);
    expect(names(exact.body)).toEqual(['a']);
    expect(exact.body.metadata?.resourceVersion).toBe(rvA);
    const any = await api(server, 'GET', `${NS_BASE}?resourceVersion=0`);
    expect(names(any.body)).toEqual(['a', 'b']);
    server.store.compact();
    const old = await api(server, 'GET', `${NS_BASE}?resourceVersion=${rvA}&resourceVersionMatch=Exact`);
    expect(old.status).toBe(410);
    expect(old.body).toMatchObject({
      reason: 'Expired',
      message: 'The resourceVersion for the provided list is too old.',
    });
    const future = await api(server, 'GET', `${NS_BASE}?resourceVersion=999999`);
    expect(future.status).toBe(504);
    expect(future.body).toMatchObject({
      reason: 'Timeout',
      message: `Timeout: Too large resource version: 999999, current: ${server.store.resourceVersion}`,
    });
  });

  it('validates ListOptions like the real server', async () => {
    const noRv = await api(server, 'GET', `${NS_BASE}?resourceVersionMatch=Exact`);
    expect(noRv.status).toBe(422);
    expect(noRv.body.message).toBe(
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
    );
    const exactZero = await api(server, 'GET', `${NS_BASE}?resourceVersion=0&resourceVersionMatch=Exact`);
    expect(exactZero.body.details?.causes?.[0]?.message).toBe(
      'Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
    );
    const initial = await api(server, 'GET', `${NS_BASE}?sendInitialEvents=true`);
    expect(initial.status).toBe(422);
    const badToken = await api(server, 'GET', `${NS_BASE}?continue=not-a-token`);
    expect(badToken.status).toBe(400);
  });

  it('renders a meta.k8s.io Table with Name, Holder and Age columns when asked', async () => {
    const clockServer = await start({ clock: () => Date.parse('2024-01-01T00:00:00Z') });
    try {
      await create(clockServer, 'tbl', { holderIdentity: 'node-1' });
      clockServer.advanceClock(150_000);
      const accept =
        'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
      const res = await api(clockServer, 'GET', NS_BASE, { headers: { Accept: accept } });
      expect(res.body.kind).toBe('Table');
      expect(res.body.apiVersion).toBe('meta.k8s.io/v1');
      expect(res.body.columnDefinitions?.map((c) => c.name)).toEqual(['Name', 'Holder', 'Age']);
      expect(res.body.rows?.[0]?.cells).toEqual(['tbl', 'node-1', '2m30s']);
      expect(res.body.rows?.[0]?.object).toMatchObject({
        kind: 'PartialObjectMetadata',
        apiVersion: 'meta.k8s.io/v1',
        metadata: { name: 'tbl' },
      });
      const single = await api(clockServer, 'GET', `${NS_BASE}/tbl?includeObject=None`, {
        headers: { Accept: accept },
      });
      expect(single.body.rows).toEqual([{ cells: ['tbl', 'node-1', '2m30s'] }]);
      // A Table has no protobuf form (RequestScope.AllowsMediaTypeTransform: Table only as JSON or YAML).
      const protobufOnly = await api(clockServer, 'GET', NS_BASE, {
        headers: { Accept: 'application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io' },
      });
      expect(protobufOnly.status).toBe(406);
    } finally {
      await clockServer.close();
    }
  });
});
