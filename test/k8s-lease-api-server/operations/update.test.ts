// PUT/PATCH as the generic registry's Store.Update runs them for Leases (AllowCreateOnUpdate true,
// AllowUnconditionalUpdate false), the URL/body checks of endpoints/handlers/update.go, the type meta
// the decoder defaults from the URL, gated fields, and etcd's size limit.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import { BASE, NS_BASE, api, create, lease, start } from '../helpers.js';

describe('update semantics', () => {
  let server: LeaseApiServer;
  beforeEach(async () => {
    server = await start();
  });
  afterEach(() => server.close());

  // registry/generic/registry/store.go Update: AllowCreateOnUpdate → create path, wasCreated → 201.
  it('creates a missing Lease on PUT with 201, ignoring a resourceVersion in the body', async () => {
    const res = await api(server, 'PUT', `${NS_BASE}/fresh?fieldManager=put`, {
      body: { ...lease('fresh', { holderIdentity: 'h' }), metadata: { name: 'fresh', resourceVersion: '12345' } },
    });
    expect(res.status).toBe(201);
    expect(res.body.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.metadata?.resourceVersion).toBe(server.store.resourceVersion);
    expect(res.body.metadata?.managedFields?.[0]).toMatchObject({ manager: 'put', operation: 'Update' });
    expect(server.store.get('default', 'fresh')?.spec?.holderIdentity).toBe('h');
    const dry = await api(server, 'PUT', `${NS_BASE}/ghost?dryRun=All`, { body: lease('ghost') });
    expect(dry.status).toBe(201);
    expect(server.store.get('default', 'ghost')).toBeUndefined();
  });

  // store.go Update: the body's uid is a storage precondition, checked against the empty object.
  it('refuses a create-on-update whose body carries a uid with the storage precondition Conflict', async () => {
    const res = await api(server, 'PUT', `${NS_BASE}/ghost`, {
      body: { ...lease('ghost'), metadata: { name: 'ghost', uid: 'u-1' } },
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(
      'Operation cannot be fulfilled on leases.coordination.k8s.io "ghost": StorageError: invalid object, Code: 4, Key: /registry/leases/default/ghost, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: u-1, UID in object meta: ',
    );
  });

  it('checks the uid precondition of an update before the resourceVersion', async () => {
    const created = await create(server, 'p');
    const res = await api(server, 'PUT', `${NS_BASE}/p`, {
      body: { ...created, metadata: { ...created.metadata, uid: 'other', resourceVersion: '1' } },
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(
      `Operation cannot be fulfilled on leases.coordination.k8s.io "p": StorageError: invalid object, Code: 4, Key: /registry/leases/default/p, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: other, UID in object meta: ${created.metadata?.uid}`,
    );
  });

  // handlers/rest.go checkName runs before the store: 400 even when the URL's name does not exist.
  it('answers a body naming another object than the URL with 400, before looking the object up', async () => {
    const res = await api(server, 'PUT', `${NS_BASE}/missing`, { body: lease('other') });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('the name of the object (other) does not match the name on the URL (missing)');
    const ns = await api(server, 'PUT', `${NS_BASE}/missing`, {
      body: { ...lease('missing'), metadata: { name: 'missing', namespace: 'other' } },
    });
    expect(ns.body.message).toBe(
      'the namespace of the provided object does not match the namespace sent on the request',
    );
  });

  it('refuses a patch that removes the resourceVersion, as an update without one', async () => {
    await create(server, 'm');
    const res = await api(server, 'PATCH', `${NS_BASE}/m`, {
      body: { metadata: { resourceVersion: null } },
      contentType: 'application/merge-patch+json',
    });
    expect(res.status).toBe(422);
    expect(res.body.message).toContain('metadata.resourceVersion: Invalid value: 0: must be specified for an update');
    const old = await start({ release: '1.33' });
    try {
      await create(old, 'm');
      const answer = await api(old, 'PATCH', `${NS_BASE}/m`, {
        body: { metadata: { resourceVersion: null } },
        contentType: 'application/merge-patch+json',
      });
      // 1.33's field.Error prints the uint64 with %#v.
      expect(answer.body.message).toContain(
        'metadata.resourceVersion: Invalid value: 0x0: must be specified for an update',
      );
    } finally {
      await old.close();
    }
  });

  // runtime/serializer/json gvkWithDefaults: the URL's GroupVersionKind fills in a missing kind/apiVersion.
  it('defaults kind and apiVersion from the URL and answers wrong ones as the decoder does', async () => {
    const bare = await api(server, 'POST', NS_BASE, { body: { metadata: { name: 'bare' } } });
    expect(bare.status).toBe(201);
    expect(bare.body).toMatchObject({ kind: 'Lease', apiVersion: 'coordination.k8s.io/v1' });
    const beta = await api(server, 'POST', NS_BASE, {
      body: { kind: 'Lease', apiVersion: 'coordination.k8s.io/v1beta1', metadata: { name: 'b' } },
    });
    expect(beta.body.message).toBe(
      'the API version in the data (coordination.k8s.io/v1beta1) does not match the expected API version (coordination.k8s.io/v1)',
    );
    const foreign = await api(server, 'POST', NS_BASE, { body: { kind: 'Gadget', metadata: { name: 'g' } } });
    expect(foreign.body.message).toBe(
      'Gadget in version "v1" cannot be handled as a Lease: no kind "Gadget" is registered for version "coordination.k8s.io/v1" in scheme "pkg/api/legacyscheme/scheme.go:30"',
    );
    const ns = await api(server, 'POST', '/api/v1/namespaces', { body: { metadata: { name: 'kindless' } } });
    expect(ns.status).toBe(201);
    expect(ns.body).toMatchObject({ kind: 'Namespace', apiVersion: 'v1', metadata: { name: 'kindless' } });
  });

  // pkg/registry/coordination/lease/strategy.go PrepareForCreate/PrepareForUpdate with the gate off.
  it('drops strategy and preferredHolder while CoordinatedLeaderElection is off, keeping what the old object had', async () => {
    const created = await api(server, 'POST', NS_BASE, {
      body: lease('cle', { holderIdentity: 'a', strategy: 'OldestEmulationVersion', preferredHolder: 'b' }),
    });
    expect(created.status).toBe(201);
    expect(created.body.spec).toEqual({ holderIdentity: 'a' });
    // A Lease written while the gate was on keeps its fields through later updates.
    const gated = await start({ coordinatedLeaderElection: { resyncMs: 0 } });
    try {
      const on = await api(gated, 'POST', `${BASE}/namespaces/default/leases`, {
        body: lease('cle', { holderIdentity: 'a', strategy: 'OldestEmulationVersion' }),
      });
      expect(on.body.spec?.strategy).toBe('OldestEmulationVersion');
    } finally {
      await gated.close();
    }
  });

  it('keeps a gated field on update only when the old object had it', async () => {
    const created = await create(server, 'keep', { holderIdentity: 'a' });
    const res = await api(server, 'PUT', `${NS_BASE}/keep`, {
      body: { ...created, spec: { holderIdentity: 'a', strategy: 'OldestEmulationVersion' } },
    });
    expect(res.status).toBe(200);
    expect(res.body.spec).toEqual({ holderIdentity: 'a' });
  });

  // etcd --max-request-bytes (1.5 MiB): the etcd error passes through as a 500 without a reason.
  it('refuses an object larger than etcd accepts with the 500 kube-apiserver answers', async () => {
    // holderIdentity has no length limit of its own; annotations would hit their 256 KiB limit first.
    const res = await api(server, 'POST', NS_BASE, {
      body: lease('big', { holderIdentity: 'x'.repeat(1.6 * 1024 * 1024) }),
    });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'etcdserver: request is too large',
      code: 500,
    });
    expect(server.store.get('default', 'big')).toBeUndefined();
    const fits = await api(server, 'POST', NS_BASE, {
      body: lease('fits', { holderIdentity: 'x'.repeat(1024 * 1024) }),
    });
    expect(fits.status).toBe(201);
  });
});
