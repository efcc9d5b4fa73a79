import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import { encodeMessage } from '../../../templates/k8s-lease-api-server/src/openapi/protobuf.js';
import { BASE, NS_BASE, api, create, lease, start } from '../helpers.js';

const FIXED_NOW = Date.parse('2024-01-01T00:00:00.250Z');

describe('Lease storage', () => {
  let server: LeaseApiServer;
  beforeEach(async () => {
    server = await start({ clock: () => FIXED_NOW });
  });
  afterEach(() => server.close());

  it('creates a Lease with server-set metadata', async () => {
    const res = await api(server, 'POST', `${NS_BASE}?fieldManager=tester`, {
      body: lease('a', { holderIdentity: 'h1', leaseDurationSeconds: 15 }, { labels: { k: 'v' } }),
    });
    expect(res.status).toBe(201);
    expect(res.body.kind).toBe('Lease');
    expect(res.body.apiVersion).toBe('coordination.k8s.io/v1');
    const meta = res.body.metadata ?? {};
    expect(meta.name).toBe('a');
    expect(meta.namespace).toBe('default');
    expect(meta.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(meta.resourceVersion).toMatch(/^\d+$/);
    // Lease storage sets no generation (pkg/registry/coordination/lease/strategy.go).
    expect(meta.generation).toBeUndefined();
    expect(Object.keys(meta)).not.toContain('generation');
    expect(meta.creationTimestamp).toBe('2024-01-01T00:00:00Z');
    expect(meta.managedFields).toEqual([
      {
        manager: 'tester',
        operation: 'Update',
        apiVersion: 'coordination.k8s.io/v1',
        time: '2024-01-01T00:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:metadata': { 'f:labels': { '.': {}, 'f:k': {} } },
          'f:spec': { 'f:holderIdentity': {}, 'f:leaseDurationSeconds': {} },
        },
      },
    ]);
    expect(Object.keys(res.body)).toEqual(['kind', 'apiVersion', 'metadata', 'spec']);
  });

  it('derives the field manager from the User-Agent when none is given', async () => {
    const res = await api(server, 'POST', NS_BASE, {
      body: lease('ua'),
      headers: { 'User-Agent': 'my-controller/v1.2.3 (linux/amd64)' },
    });
    expect(res.body.metadata?.managedFields?.[0]?.manager).toBe('my-controller');
  });

  it('gets a Lease and lists them without kind/apiVersion on items', async () => {
    await create(server, 'b');
    await create(server, 'a');
    await create(server, 'c', undefined, undefined, 'other');
    const got = await api(server, 'GET', `${NS_BASE}/a`);
    expect(got.status).toBe(200);
    expect(got.body.metadata?.name).toBe('a');
    const list = await api(server, 'GET', NS_BASE);
    expect(list.body.kind).toBe('LeaseList');
    expect(list.body.apiVersion).toBe('coordination.k8s.io/v1');
    expect(list.body.metadata?.resourceVersion).toBe(server.store.resourceVersion);
    expect(list.body.items?.map((i) => i.metadata?.name)).toEqual(['a', 'b']);
    expect(list.body.items?.[0]?.kind).toBeUndefined();
    const all = await api(server, 'GET', `${BASE}/leases`);
    expect(all.body.items?.map((i) => `${i.metadata?.namespace}/${i.metadata?.name}`)).toEqual([
      'default/a',
      'default/b',
      'other/c',
    ]);
  });

  it('keeps a cluster-wide monotonic resourceVersion', async () => {
    const a = await create(server, 'a');
    const b = await create(server, 'b', undefined, undefined, 'other');
    expect(Number(b.metadata?.resourceVersion)).toBeGreaterThan(Number(a.metadata?.resourceVersion));
  });

  it('rejects a duplicate name with 409 AlreadyExists', async () => {
    await create(server, 'dup');
    const res = await api(server, 'POST', NS_BASE, { body: lease('dup') });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'leases.coordination.k8s.io "dup" already exists',
      reason: 'AlreadyExists',
      details: { name: 'dup', group: 'coordination.k8s.io', kind: 'leases' },
      code: 409,
    });
  });

  it('returns 404 NotFound for a missing Lease on get and delete', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await api(server, method, `${NS_BASE}/ghost`);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({
        reason: 'NotFound',
        message: 'leases.coordination.k8s.io "ghost" not found',
        details: { name: 'ghost', group: 'coordination.k8s.io', kind: 'leases' },
      });
    }
  });

  it('replaces a Lease without ever setting a generation, keeping uid and creationTimestamp', async () => {
    const created = await create(server, 'r');
    const labelsOnly = { ...created, metadata: { ...created.metadata, labels: { x: 'y' } } };
    const relabelled = await api(server, 'PUT', `${NS_BASE}/r`, { body: labelsOnly });
    expect(relabelled.status).toBe(200);
    expect(relabelled.body.metadata?.generation).toBeUndefined();
    expect(relabelled.body.metadata?.uid).toBe(created.metadata?.uid);
    const respec = { ...relabelled.body, spec: { holderIdentity: 'h2' } };
    const replaced = await api(server, 'PUT', `${NS_BASE}/r`, { body: respec });
    expect(replaced.body.metadata?.generation).toBeUndefined();
    expect(replaced.body.spec).toEqual({ holderIdentity: 'h2' });
    expect(replaced.body.metadata?.creationTimestamp).toBe(created.metadata?.creationTimestamp);
  });

  it('keeps a generation a client sends on create and ignores one sent on update, as rest.BeforeCreate/BeforeUpdate', async () => {
    const created = await create(server, 'g', { holderIdentity: 'h1' }, { generation: 5 });
    expect(created.metadata?.generation).toBe(5);
    const bumped = await api(server, 'PUT', `${NS_BASE}/g`, {
      body: { ...created, metadata: { ...created.metadata, generation: 9 }, spec: { holderIdentity: 'h2' } },
    });
    expect(bumped.status).toBe(200);
    expect(bumped.body.metadata?.generation).toBe(5);
    expect(bumped.body.spec).toEqual({ holderIdentity: 'h2' });
    const patched = await api(server, 'PATCH', `${NS_BASE}/g`, {
      body: { metadata: { generation: 1 }, spec: { holderIdentity: 'h3' } },
      contentType: 'application/merge-patch+json',
    });
    expect(patched.body.metadata?.generation).toBe(5);
    expect(server.store.get('default', 'g')?.metadata.generation).toBe(5);
  });

  it('rejects a replace with a stale resourceVersion with 409 Conflict', async () => {
    const created = await create(server, 'c');
    await api(server, 'PUT', `${NS_BASE}/c`, { body: { ...created, spec: { holderIdentity: 'h2' } } });
    const stale = await api(server, 'PUT', `${NS_BASE}/c`, { body: { ...created, spec: { holderIdentity: 'h3' } } });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({
      reason: 'Conflict',
      message:
        'Operation cannot be fulfilled on leases.coordination.k8s.io "c": the object has been modified; please apply your changes to the latest version and try again',
      details: { name: 'c', group: 'coordination.k8s.io', kind: 'leases' },
    });
  });

  // generic/registry/store.go Update: AllowUnconditionalUpdate() is false for Leases.
  // The uint64 zero renders as JSON (1.35, start()'s default release); field-value.test.ts has 1.33's 0x0.
  it('refuses a replace without resourceVersion with 422, naming the resource', async () => {
    await create(server, 'u');
    const res = await api(server, 'PUT', `${NS_BASE}/u`, { body: lease('u', { holderIdentity: 'other' }) });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'leases.coordination.k8s.io "u" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update',
      reason: 'Invalid',
      details: {
        name: 'u',
        group: 'coordination.k8s.io',
        kind: 'leases',
        causes: [
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: 0: must be specified for an update',
            field: 'metadata.resourceVersion',
          },
        ],
      },
      code: 422,
    });
  });

  it('does not write (nor bump resourceVersion) for a no-op replace', async () => {
    const created = await create(server, 'n');
    const res = await api(server, 'PUT', `${NS_BASE}/n`, { body: created });
    expect(res.body.metadata?.resourceVersion).toBe(created.metadata?.resourceVersion);
  });

  it('rejects a body whose namespace or name disagree with the URL with 400 BadRequest', async () => {
    const wrongNs = await api(server, 'POST', NS_BASE, { body: lease('x', undefined, { namespace: 'other' }) });
    expect(wrongNs.status).toBe(400);
    expect(wrongNs.body).toMatchObject({
      reason: 'BadRequest',
      message: 'the namespace of the provided object does not match the namespace sent on the request',
    });
    await create(server, 'x');
    const wrongName = await api(server, 'PUT', `${NS_BASE}/x`, { body: lease('y') });
    expect(wrongName.status).toBe(400);
    expect(wrongName.body.message).toBe('the name of the object (y) does not match the name on the URL (x)');
  });

  it('generates names from generateName', async () => {
    const res = await api(server, 'POST', NS_BASE, { body: { metadata: { generateName: 'gen-' }, spec: {} } });
    expect(res.status).toBe(201);
    expect(res.body.metadata?.name).toMatch(/^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  it('refuses a resourceVersion on create as the storage layer does', async () => {
    const res = await api(server, 'POST', NS_BASE, { body: lease('rv', undefined, { resourceVersion: '5' }) });
    expect(res.status).toBe(500);
    expect(res.body.message).toBe(
      'Internal error occurred: resourceVersion should not be set on objects to be created',
    );
  });

  it('changes nothing on dryRun=All for create, replace, patch and delete', async () => {
    const rv = server.store.resourceVersion;
    const created = await api(server, 'POST', `${NS_BASE}?dryRun=All`, { body: lease('dry') });
    expect(created.status).toBe(201);
    expect(created.body.metadata?.uid).toBeDefined();
    expect(server.store.get('default', 'dry')).toBeUndefined();
    const real = await create(server, 'real');
    const rvAfterCreate = server.store.resourceVersion;
    const replaced = await api(server, 'PUT', `${NS_BASE}/real?dryRun=All`, {
      body: { ...real, spec: { holderIdentity: 'dry' } },
    });
    expect(replaced.body.spec).toEqual({ holderIdentity: 'dry' });
    const patched = await api(server, 'PATCH', `${NS_BASE}/real?dryRun=All`, {
      body: { spec: { holderIdentity: 'p' } },
      contentType: 'application/merge-patch+json',
    });
    expect(patched.body.spec?.['holderIdentity']).toBe('p');
    const deleted = await api(server, 'DELETE', `${NS_BASE}/real?dryRun=All`);
    expect(deleted.status).toBe(200);
    const collection = await api(server, 'DELETE', `${NS_BASE}?dryRun=All`);
    expect(collection.body.items).toHaveLength(1);
    expect(server.store.resourceVersion).toBe(rvAfterCreate);
    expect(server.store.get('default', 'real')?.spec).toEqual(real.spec);
    expect(Number(rvAfterCreate)).toBe(Number(rv) + 1);
  });

  // ValidateDryRun: field.NotSupported of the whole []string, %#v up to 1.33 and JSON from 1.34.
  it('rejects an unknown dryRun value as invalid CreateOptions, the list rendered as the release renders it', async () => {
    const res = await api(server, 'POST', `${NS_BASE}?dryRun=Sometimes`, { body: lease('d') });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(
      'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["Sometimes"]: supported values: "All"',
    );
    const old = await start({ release: '1.33' });
    try {
      const answer = await api(old, 'POST', `${NS_BASE}?dryRun=Sometimes&dryRun=All`, { body: lease('d') });
      expect(answer.body.message).toBe(
        'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Sometimes", "All"}: supported values: "All"',
      );
    } finally {
      await old.close();
    }
  });

  it('answers unsupported methods with 405 and unreadable bodies with 415', async () => {
    const post = await api(server, 'POST', `${BASE}/leases`, { body: lease('z') });
    expect(post.status).toBe(405);
    const text = await api(server, 'POST', NS_BASE, { body: 'name: z', contentType: 'text/plain' });
    expect(text.status).toBe(415);
    expect(text.body.reason).toBe('UnsupportedMediaType');
  });

  it('accepts YAML bodies', async () => {
    const yaml =
      'apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata:\n  name: from-yaml\n  labels:\n    app: web\nspec:\n  holderIdentity: "h"\n  leaseDurationSeconds: 10\n';
    const res = await api(server, 'POST', NS_BASE, { body: yaml, contentType: 'application/yaml' });
    expect(res.status).toBe(201);
    expect(res.body.metadata?.labels).toEqual({ app: 'web' });
    expect(res.body.spec).toEqual({ holderIdentity: 'h', leaseDurationSeconds: 10 });
  });

  it('offers the store to tests directly, with the same semantics', async () => {
    const created = server.store.create({ metadata: { name: 's', namespace: 'other' }, spec: { holderIdentity: 'a' } });
    expect(created.ok).toBe(true);
    const dup = server.store.create({ metadata: { name: 's', namespace: 'other' } });
    expect(dup.ok ? undefined : dup.error.reason).toBe('AlreadyExists');
    const updated = server.store.update({ metadata: { name: 's', namespace: 'other' }, spec: { holderIdentity: 'b' } });
    expect(updated.ok && updated.value.metadata.generation).toBeUndefined();
    expect(updated.ok && updated.value.spec?.holderIdentity).toBe('b');
    expect(server.store.list('other').map((l) => l.spec?.holderIdentity)).toEqual(['b']);
    const res = await api(server, 'GET', `${BASE}/namespaces/other/leases/s`);
    expect(res.body.spec).toEqual({ holderIdentity: 'b' });
    expect(server.store.delete('other', 's').ok).toBe(true);
    expect(server.store.size).toBe(0);
  });
});

const NOWHERE_NOT_FOUND = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'namespaces "nowhere" not found',
  reason: 'NotFound',
  details: { name: 'nowhere', kind: 'namespaces' },
  code: 404,
};

describe('namespaces (NamespaceLifecycle admission)', () => {
  const NOWHERE = `${BASE}/namespaces/nowhere/leases`;
  let server: LeaseApiServer;
  let sentinel: string;
  beforeEach(async () => {
    server = await start({ clock: () => FIXED_NOW, namespaces: ['declared'] });
    sentinel = JSON.stringify(await create(server, 'sentinel'));
  });
  afterEach(() => server.close());

  async function expectSentinelIntact(): Promise<void> {
    const res = await api(server, 'GET', `${NS_BASE}/sentinel`);
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).toBe(sentinel);
    expect(server.store.size).toBe(1);
  }

  it('has the namespaces of every cluster and the declared ones', async () => {
    const list = await api(server, 'GET', '/api/v1/namespaces');
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ kind: 'NamespaceList', apiVersion: 'v1' });
    expect(list.body.items?.map((n) => n.metadata?.name)).toEqual([
      'declared',
      'default',
      'kube-node-lease',
      'kube-public',
      'kube-system',
    ]);
    expect(list.body.items?.map((n) => n.kind)).toEqual([undefined, undefined, undefined, undefined, undefined]);
    // Selectors as for any list: every namespace carries kubernetes.io/metadata.name.
    const selected = await api(
      server,
      'GET',
      '/api/v1/namespaces?labelSelector=kubernetes.io/metadata.name%20in%20(default,declared)',
    );
    expect(selected.body.items?.map((n) => n.metadata?.name)).toEqual(['declared', 'default']);
    const byName = await api(server, 'GET', '/api/v1/namespaces?fieldSelector=metadata.name%3Dkube-public');
    expect(byName.body.items?.map((n) => n.metadata?.name)).toEqual(['kube-public']);
    const bad = await api(server, 'GET', '/api/v1/namespaces?labelSelector=@@@');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ reason: 'BadRequest' });
    const one = await api(server, 'GET', '/api/v1/namespaces/kube-node-lease');
    expect(one.body).toMatchObject({
      kind: 'Namespace',
      apiVersion: 'v1',
      metadata: {
        name: 'kube-node-lease',
        labels: { 'kubernetes.io/metadata.name': 'kube-node-lease' },
        creationTimestamp: '2024-01-01T00:00:00Z',
      },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    });
    expect((await create(server, 'in-declared', undefined, undefined, 'declared')).metadata?.namespace).toBe(
      'declared',
    );
  });

  it.each([
    { what: 'POST', method: 'POST', path: NOWHERE, body: lease('x'), contentType: 'application/json' },
    {
      what: 'POST with dryRun=All',
      method: 'POST',
      path: `${NOWHERE}?dryRun=All`,
      body: lease('x'),
      contentType: 'application/json',
    },
    {
      what: 'POST of an invalid Lease (admission runs before validation)',
      method: 'POST',
      path: NOWHERE,
      body: lease('x', { leaseDurationSeconds: -1 }),
      contentType: 'application/json',
    },
    {
      what: 'POST with generateName',
      method: 'POST',
      path: NOWHERE,
      body: { metadata: { generateName: 'g-' }, spec: {} },
      contentType: 'application/json',
    },
    {
      what: 'server-side apply creating',
      method: 'PATCH',
      path: `${NOWHERE}/x?fieldManager=m`,
      body: JSON.stringify(lease('x')),
      contentType: 'application/apply-patch+yaml',
    },
  ])(
    "answers a create in a missing namespace ($what) with kube-apiserver's 404",
    async ({ method, path, body, contentType }) => {
      const res = await api(server, method, path, { body, contentType });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOWHERE_NOT_FOUND);
      expect(server.store.list('nowhere')).toEqual([]);
      await expectSentinelIntact();
    },
  );

  it('reads in a missing namespace as kube-apiserver does: a Lease 404 and an empty list', async () => {
    const get = await api(server, 'GET', `${NOWHERE}/x`);
    expect(get.status).toBe(404);
    expect(get.body).toMatchObject({
      reason: 'NotFound',
      message: 'leases.coordination.k8s.io "x" not found',
      details: { name: 'x', group: 'coordination.k8s.io', kind: 'leases' },
    });
    const list = await api(server, 'GET', NOWHERE);
    expect(list.status).toBe(200);
    expect(list.body.items).toEqual([]);
    // A PUT of a missing Lease is a create (AllowCreateOnUpdate), so NamespaceLifecycle answers.
    const put = await api(server, 'PUT', `${NOWHERE}/x`, { body: lease('x') });
    expect(put.body).toEqual(NOWHERE_NOT_FOUND);
    await expectSentinelIntact();
  });

  it('applies the same admission to the store handle', async () => {
    const created = server.store.create({ metadata: { name: 'x', namespace: 'nowhere' }, spec: {} });
    expect(created.ok ? undefined : created.error).toEqual({
      code: 404,
      reason: 'NotFound',
      message: 'namespaces "nowhere" not found',
      details: { name: 'nowhere', kind: 'namespaces' },
    });
    await expectSentinelIntact();
  });

  it('creates namespaces through core/v1 as kubectl create namespace does, then admits Leases into them', async () => {
    const body = {
      kind: 'Namespace',
      apiVersion: 'v1',
      metadata: { name: 'nowhere', labels: { team: 'a' } },
      spec: {},
      status: {},
    };
    const dry = await api(
      server,
      'POST',
      '/api/v1/namespaces?dryRun=All&fieldManager=kubectl-create&fieldValidation=Strict',
      { body },
    );
    expect(dry.status).toBe(201);
    expect(dry.body.metadata?.resourceVersion).toBeUndefined();
    expect((await api(server, 'GET', '/api/v1/namespaces/nowhere')).body).toEqual(NOWHERE_NOT_FOUND);
    const made = await api(server, 'POST', '/api/v1/namespaces?fieldManager=kubectl-create&fieldValidation=Strict', {
      body,
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      kind: 'Namespace',
      apiVersion: 'v1',
      metadata: {
        name: 'nowhere',
        labels: { team: 'a', 'kubernetes.io/metadata.name': 'nowhere' },
        resourceVersion: expect.stringMatching(/^\d+$/),
        uid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      },
      status: { phase: 'Active' },
    });
    expect((await api(server, 'GET', '/api/v1/namespaces/nowhere')).body).toEqual(made.body);
    expect((await api(server, 'POST', NOWHERE, { body: lease('now-ok') })).status).toBe(201);
    const again = await api(server, 'POST', '/api/v1/namespaces', { body });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      reason: 'AlreadyExists',
      message: 'namespaces "nowhere" already exists',
      details: { name: 'nowhere', kind: 'namespaces' },
    });
    // Update and patch are not served (README); delete is (namespaces/namespace-handler.test.ts).
    expect((await api(server, 'PATCH', '/api/v1/namespaces/nowhere', { body: {} })).status).toBe(405);
    expect((await api(server, 'GET', '/api/v1/namespaces/nowhere')).status).toBe(200);
  });

  it.each([
    {
      body: { kind: 'Namespace', apiVersion: 'v1', metadata: { name: 'Bad_Name' } },
      status: 422,
      message:
        "Namespace \"Bad_Name\" is invalid: metadata.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    },
    {
      body: { kind: 'Namespace', apiVersion: 'v1', metadata: {} },
      status: 422,
      message: 'Namespace "" is invalid: metadata.name: Required value: name or generateName is required',
    },
    {
      // A kind other than the URL's: decoded as a v1 Pod, which does not convert to a Namespace
      // (versioning codec Decode, then endpoints/handlers transformDecodeError).
      body: { kind: 'Pod', apiVersion: 'v1', metadata: { name: 'x' } },
      status: 400,
      message:
        'Pod in version "v1" cannot be handled as a Namespace: converting (v1.Pod) to (core.Namespace): unknown conversion',
    },
    {
      body: { kind: 'Namespace', apiVersion: 'apps/v1', metadata: { name: 'x' } },
      status: 400,
      message:
        'Namespace in version "v1" cannot be handled as a Namespace: no kind "Namespace" is registered for version "apps/v1" in scheme "pkg/api/legacyscheme/scheme.go:30"',
    },
    {
      body: { kind: 'Namespace', apiVersion: 'v1', metadata: { name: '__proto__', labels: { __proto__: 'x' } } },
      status: 422,
      message: expect.stringContaining('Namespace "__proto__" is invalid'),
    },
  ])('rejects a bad Namespace with $status', async ({ body, status, message }) => {
    const res = await api(server, 'POST', '/api/v1/namespaces', {
      body: JSON.stringify(body).replace('"labels":{}', '"labels":{"__proto__":"x"}'),
    });
    expect(res.status).toBe(status);
    expect(res.body.message).toEqual(message);
    expect((await api(server, 'GET', '/api/v1/namespaces')).body.items).toHaveLength(5);
    await expectSentinelIntact();
  });

  it('creates a namespace from the protobuf body kubectl 1.33 sends, and refuses a malformed one', async () => {
    const magic = Buffer.from('k8s\u0000', 'latin1');
    const typeMeta = {
      field: 1,
      value: [
        { field: 1, value: 'v1' },
        { field: 2, value: 'Namespace' },
      ],
    };
    const namespace = encodeMessage([
      {
        field: 1,
        value: [
          { field: 1, value: 'from-proto' },
          {
            field: 11,
            value: [
              { field: 1, value: 'team' },
              { field: 2, value: 'b' },
            ],
          },
        ],
      },
    ]);
    const body = Buffer.concat([magic, encodeMessage([typeMeta]), Buffer.from([0x12, namespace.length]), namespace]);
    const headers = {
      'Content-Type': 'application/vnd.kubernetes.protobuf',
      Accept: 'application/vnd.kubernetes.protobuf, */*',
    };
    const made = await fetch(`${server.url}/api/v1/namespaces?fieldManager=kubectl-create`, {
      method: 'POST',
      headers,
      body,
    });
    expect(made.status).toBe(201);
    expect(made.headers.get('content-type')).toBe('application/vnd.kubernetes.protobuf');
    expect((await api(server, 'GET', '/api/v1/namespaces/from-proto')).body).toMatchObject({
      kind: 'Namespace',
      metadata: { name: 'from-proto', labels: { team: 'b', 'kubernetes.io/metadata.name': 'from-proto' } },
    });
    // rest.go transformDecodeError: an unreadable envelope names the expected type and shows the body in hex.
    const unrecognized = 'the object provided is unrecognized (must be of type Namespace): ';
    for (const [bad, message] of [
      [
        Buffer.from('not protobuf'),
        `${unrecognized}provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] (6e6f742070726f746f627566)`,
      ],
      [
        Buffer.concat([magic, Buffer.from([0x12, 0xff, 0xff, 0xff, 0xff, 0x0f])]),
        `${unrecognized}unexpected EOF (6b38730012ffffffff0f)`,
      ],
      [
        Buffer.concat([magic, Buffer.from([0x0b])]),
        `${unrecognized}proto: wrong wireType = 3 for field TypeMeta (6b3873000b)`,
      ],
    ] as const) {
      const res = await fetch(`${server.url}/api/v1/namespaces`, { method: 'POST', headers, body: bad });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toBe('application/vnd.kubernetes.protobuf');
      expect(Buffer.from(await res.arrayBuffer()).includes(Buffer.from(message))).toBe(true);
    }
    expect((await api(server, 'GET', '/api/v1/namespaces')).body.items).toHaveLength(6);
    await expectSentinelIntact();
  });

  it('refuses to start with a declared namespace that is not a valid name', async () => {
    await expect(start({ namespaces: ['Not Valid'] })).rejects.toThrow(
      'namespaces: "Not Valid" is not a valid namespace name (a lowercase RFC 1123 label)',
    );
  });
});
