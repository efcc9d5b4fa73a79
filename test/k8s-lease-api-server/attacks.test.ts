// Attacks a hostile client can make on the Lease API server that hostile-input.test.ts does not cover.
// Each asserts kube-apiserver's answer and that the server is intact afterwards: a sentinel Lease
// unchanged, Object.prototype clean, creates and replaces still working.
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LeaseApiServer } from '../../templates/k8s-lease-api-server/src/index.js';
import type { JsonBody } from './helpers.js';
import { NS_BASE, api, create, expectServerIntact, httpsJson, lease, start } from './helpers.js';

describe('attacks', () => {
  let server: LeaseApiServer;
  let sentinel: JsonBody;

  beforeEach(async () => {
    server = await start();
    sentinel = await create(
      server,
      'sentinel',
      { holderIdentity: 'keeper', leaseDurationSeconds: 30 },
      { labels: { keep: 'me' } },
    );
  });
  afterEach(() => server.close());

  const expectIntact = (): Promise<void> => expectServerIntact(server, sentinel);

  describe('huge query strings', () => {
    it('reads a 500 KB fieldManager (Go allows 1 MiB of headers) and answers 422 as kube-apiserver does, not 431', async () => {
      const res = await api(server, 'POST', `${NS_BASE}?fieldManager=${'m'.repeat(500_000)}`, {
        body: lease('huge-manager'),
      });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ reason: 'Invalid', code: 422 });
      expect(JSON.stringify(res.body)).toContain('may not be more than 128 bytes');
      expect((await api(server, 'GET', `${NS_BASE}/huge-manager`)).status).toBe(404);
      await expectIntact();
    });
  });

  describe('metadata limits counted as Go counts them', () => {
    it('counts annotation size in UTF-8 bytes (ValidateAnnotationsSize uses len), so 100000 euro signs are too long', async () => {
      const res = await api(server, 'POST', NS_BASE, {
        body: lease('euro', { holderIdentity: 'h1' }, { annotations: { a: '€'.repeat(100_000) } }),
      });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({
        reason: 'Invalid',
        message:
          'Lease.coordination.k8s.io "euro" is invalid: metadata.annotations: Too long: may not be more than 262144 bytes',
        details: { causes: [{ reason: 'FieldValueTooLong', field: 'metadata.annotations' }] },
      });
      expect((await api(server, 'GET', `${NS_BASE}/euro`)).status).toBe(404);
      await expectIntact();
    });

    it('truncates a long generateName to 58 characters before the 5 random ones (SimpleNameGenerator)', async () => {
      const prefix = 'g'.repeat(250);
      const res = await api(server, 'POST', NS_BASE, {
        body: lease('', { holderIdentity: 'h1' }, { name: undefined, generateName: prefix }),
      });
      expect(res.status).toBe(201);
      const name = res.body.metadata?.name ?? '';
      expect(name).toHaveLength(63);
      expect(name.startsWith('g'.repeat(58))).toBe(true);
      expect(res.body.metadata?.generateName).toBe(prefix);
      expect((await api(server, 'GET', `${NS_BASE}/${name}`)).status).toBe(200);
      await expectIntact();
    });

    it('validates generateName even beside a name or when it is too long to be a prefix (ValidateObjectMetaAccessor)', async () => {
      const tooLong = await api(server, 'POST', NS_BASE, {
        body: lease('', { holderIdentity: 'h1' }, { name: undefined, generateName: 'g'.repeat(300) }),
      });
      expect(tooLong.status).toBe(422);
      expect(tooLong.body.details?.causes).toEqual([
        {
          reason: 'FieldValueInvalid',
          message: `Invalid value: "${'g'.repeat(300)}": must be no more than 253 characters`,
          field: 'metadata.generateName',
        },
      ]);
      const beside = await api(server, 'POST', NS_BASE, {
        body: lease('named', { holderIdentity: 'h1' }, { generateName: 'Bad_' }),
      });
      expect(beside.status).toBe(422);
      expect(beside.body.details?.causes?.map((c) => c.field)).toEqual(['metadata.generateName']);
      expect((await api(server, 'GET', `${NS_BASE}/named`)).status).toBe(404);
      await expectIntact();
    });
  });

  describe('DELETE with a mistyped DeleteOptions body', () => {
    // kube-apiserver decodes the body into metav1.DeleteOptions with Go's encoding/json; a type mismatch
    // fails the request before anything is deleted (400 since kubernetes#133358, a 500 before it).
    const cases: { name: string; body: string; message: string }[] = [
      {
        name: 'propagationPolicy as a number',
        body: '{"propagationPolicy":5}',
        message:
          'json: cannot unmarshal number into Go struct field DeleteOptions.propagationPolicy of type v1.DeletionPropagation',
      },
      {
        name: 'gracePeriodSeconds as a string',
        body: '{"gracePeriodSeconds":"0"}',
        message: 'json: cannot unmarshal string into Go struct field DeleteOptions.gracePeriodSeconds of type int64',
      },
      {
        name: 'gracePeriodSeconds as a fraction',
        body: '{"gracePeriodSeconds":1.5}',
        message:
          'json: cannot unmarshal number 1.5 into Go struct field DeleteOptions.gracePeriodSeconds of type int64',
      },
      {
        name: 'gracePeriodSeconds past int64',
        body: '{"gracePeriodSeconds":1e30}',
        message:
          'json: cannot unmarshal number 1e30 into Go struct field DeleteOptions.gracePeriodSeconds of type int64',
      },
      {
        name: 'dryRun as a string',
        body: '{"dryRun":"All"}',
        message: 'json: cannot unmarshal string into Go struct field DeleteOptions.dryRun of type []string',
      },
      {
        name: 'dryRun with a number',
        body: '{"dryRun":[5]}',
        message: 'json: cannot unmarshal number into Go struct field DeleteOptions.dryRun of type string',
      },
      {
        name: 'orphanDependents as a string',
        body: '{"orphanDependents":"yes"}',
        message: 'json: cannot unmarshal string into Go struct field DeleteOptions.orphanDependents of type bool',
      },
      {
        name: 'preconditions as a string',
        body: '{"preconditions":"x"}',
        message:
          'json: cannot unmarshal string into Go struct field DeleteOptions.preconditions of type v1.Preconditions',
      },
      {
        name: 'preconditions.uid as a number',
        body: '{"preconditions":{"uid":5}}',
        message: 'json: cannot unmarshal number into Go struct field Preconditions.preconditions.uid of type types.UID',
      },
      {
        name: 'the first mismatch, in body order',
        body: '{"dryRun":["All"],"orphanDependents":1,"gracePeriodSeconds":"x"}',
        message: 'json: cannot unmarshal number into Go struct field DeleteOptions.orphanDependents of type bool',
      },
    ];
    it.each(cases)('$name: 400 and nothing deleted', async ({ body, message }) => {
      const victim = await create(server, 'victim');
      const res = await api(server, 'DELETE', `${NS_BASE}/victim`, { body });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'BadRequest', code: 400, message });
      const after = await api(server, 'GET', `${NS_BASE}/victim`);
      expect(after.status).toBe(200);
      expect(after.body).toEqual(victim);
      await expectIntact();
    });

    it('refuses a mistyped body on a collection delete too, deleting nothing', async () => {
      const res = await api(server, 'DELETE', NS_BASE, { body: '{"gracePeriodSeconds":"0"}' });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(
        'json: cannot unmarshal string into Go struct field DeleteOptions.gracePeriodSeconds of type int64',
      );
      await expectIntact();
    });

    it('still honours a well-typed body with nulls (Go leaves those fields unset)', async () => {
      await create(server, 'victim');
      const res = await api(server, 'DELETE', `${NS_BASE}/victim`, {
        body: '{"gracePeriodSeconds":null,"preconditions":null,"dryRun":null,"propagationPolicy":"Background"}',
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ kind: 'Status', status: 'Success' });
      expect((await api(server, 'GET', `${NS_BASE}/victim`)).status).toBe(404);
      await expectIntact();
    });
  });
});

describe('managedFields sent by a client', () => {
  // As the field manager's decodeLiveOrNew (apimachinery managedfields/internal/fieldmanager.go): an
  // empty list or a list of one empty entry resets ownership (isResetManagedFields; kubernetes
  // test/integration/apiserver/apply TestClearManagedFieldsWithUpdateEmptyList); a list that does not
  // decode keeps the live managedFields, "to prevent clients who don't understand managedFields from
  // deleting it accidentally".
  const MERGE = 'application/merge-patch+json';
  let server: LeaseApiServer;
  let live: JsonBody;
  beforeEach(async () => {
    server = await start();
    live = await create(server, 'owned', { holderIdentity: 'h1', leaseDurationSeconds: 15 });
  });
  afterEach(() => server.close());

  const keeps: { name: string; managedFields: unknown[] }[] = [
    {
      name: 'an entry with an unknown operation',
      managedFields: [{ manager: 'x', operation: 'Bogus', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': {} } }],
    },
    {
      name: 'an entry with another fieldsType',
      managedFields: [{ manager: 'x', operation: 'Update', fieldsType: 'FieldsV2', fieldsV1: { 'f:spec': {} } }],
    },
    {
      name: 'a valid entry beside an undecodable one',
      managedFields: [
        { manager: 'x', operation: 'Update', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': {} } },
        { manager: 'y', operation: 'Delete', fieldsType: 'FieldsV1', fieldsV1: {} },
      ],
    },
  ];
  it.each(keeps)('$name is a no-op that keeps the live managedFields', async ({ managedFields }) => {
    const res = await api(server, 'PATCH', `${NS_BASE}/owned`, {
      contentType: MERGE,
      body: { metadata: { managedFields } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(live);
    expect((await api(server, 'GET', `${NS_BASE}/owned`)).body).toEqual(live);
  });

  it.each([[[{}]], [[]]])('%j resets ownership, as documented for server-side apply', async (managedFields) => {
    expect(live.metadata?.managedFields?.length).toBe(1);
    const res = await api(server, 'PATCH', `${NS_BASE}/owned`, {
      contentType: MERGE,
      body: { metadata: { managedFields } },
    });
    expect(res.status).toBe(200);
    expect(res.body.metadata?.managedFields).toBeUndefined();
    expect(res.body.spec).toEqual(live.spec);
  });
});

describe('secrets stay out of what a test prints', () => {
  const TOKEN = 'attack-secret-token-0123456789';
  let server: LeaseApiServer;
  afterEach(() => server.close());

  it('util.inspect of the server handle shows neither the bearer token nor the client key, which still work', async () => {
    server = await start({ token: TOKEN, tls: { clientCertificates: true } });
    const key = server.tls?.clientKey ?? '';
    expect(key).toContain('PRIVATE KEY');
    for (const shown of [
      inspect(server, { depth: Infinity, showHidden: true }),
      inspect(server.tls),
      String(server.tls),
      JSON.stringify(server.requests()),
    ]) {
      expect(shown).not.toContain(TOKEN);
      expect(shown).not.toContain('PRIVATE KEY');
    }
    // The redaction is for printing only: the material is still there for clients to use.
    const byCert = await httpsJson(server, NS_BASE, { cert: server.tls?.clientCertificate, key });
    expect(byCert.status).toBe(200);
    const byToken = await httpsJson(server, NS_BASE, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(byToken.status).toBe(200);
    const wrong = await httpsJson(server, NS_BASE, { headers: { Authorization: `Bearer ${TOKEN}x` } });
    expect(wrong).toEqual({
      status: 401,
      body: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'Unauthorized',
        reason: 'Unauthorized',
        code: 401,
      },
    });
  });
});
