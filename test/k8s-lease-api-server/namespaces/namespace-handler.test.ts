// core/v1 namespace deletion over HTTP, end to end through the namespace controller. Each expectation
// cites the upstream code that fixes it:
// - pkg/registry/core/namespace/storage/storage.go REST.Delete: the first DELETE answers the namespace
//   marked (deletionTimestamp, phase Terminating, spec.finalizers kept); a later one answers it as it is;
//   uid/resourceVersion preconditions as NewConflict with its "Precondition failed" wording.
// - staging/src/k8s.io/apiserver/pkg/admission/plugin/namespace/lifecycle/admission.go Admit: default,
//   kube-system, kube-public "may not be deleted"; creates into a terminating namespace are Forbidden
//   with the NamespaceTerminating cause.
// - staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go Create: "object is being deleted: ".
// - pkg/controller/namespace/deletion/namespaced_resources_deleter.go + status_condition_utils.go: content
//   deleted, conditions kept, the "kubernetes" finalizer removed through finalize.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import { BASE, api, create, lease, start, watch } from '../helpers.js';

const NS = '/api/v1/namespaces';

interface Condition {
  status: string;
  message: string;
}

/** A Namespace's status (the helpers' JsonBody types `status` as a Status's string). */
function conditionsOf(text: string): Condition[] {
  const parsed: { status?: { conditions?: Condition[] } } = JSON.parse(text);
  return parsed.status?.conditions ?? [];
}

async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** status.phase of a Namespace answer (the helpers' JsonBody types `status` as a Status's string). */
function registryPhase(res: { text: string }): string | undefined {
  const parsed: { status?: { phase?: string } } = JSON.parse(res.text);
  return parsed.status?.phase;
}

const gone = (server: LeaseApiServer, name: string) => async (): Promise<boolean> =>
  (await api(server, 'GET', `${NS}/${name}`)).status === 404;

describe('namespace deletion', () => {
  let server: LeaseApiServer;
  beforeEach(async () => {
    server = await start();
    expect((await api(server, 'POST', NS, { body: { metadata: { name: 'team' } } })).status).toBe(201);
  });
  afterEach(async () => {
    await server.close();
  });

  it('marks the namespace Terminating, refuses new content, then empties and removes it', async () => {
    await create(server, 'a', undefined, undefined, 'team');
    await create(server, 'b', undefined, undefined, 'team');
    const leases = await watch(server, `${BASE}/namespaces/team/leases?watch=1&resourceVersion=0`);
    await leases.next();
    await leases.next();
    const deleted = await api(server, 'DELETE', `${NS}/team`, { body: { propagationPolicy: 'Background' } });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({
      kind: 'Namespace',
      metadata: { name: 'team', deletionTimestamp: expect.stringMatching(/Z$/) },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Terminating' },
    });
    expect(deleted.body.metadata?.finalizers).toBeUndefined();
    const refused = await api(server, 'POST', `${BASE}/namespaces/team/leases`, { body: lease('late') });
    // Either refused as terminating, or (if the controller already finished) as a missing namespace.
    // The whole Status is pinned by the conformance case (cases/namespaces.ts); here, that it is this refusal.
    if (refused.status === 403) expect(refused.body.details?.causes?.[0]?.reason).toBe('NamespaceTerminating');
    else expect(refused.status).toBe(404);
    const events = [await leases.next(), await leases.next()];
    expect(events.map((e) => [e.type, e.object.metadata?.name]).sort()).toEqual([
      ['DELETED', 'a'],
      ['DELETED', 'b'],
    ]);
    leases.close();
    await eventually(gone(server, 'team'), 'the namespace to go');
  });

  it('answers a re-create of a terminating namespace 409 "object is being deleted", and a second DELETE with the namespace', async () => {
    await create(server, 'kept', undefined, { finalizers: ['example.com/hold'] }, 'team');
    expect((await api(server, 'DELETE', `${NS}/team`)).status).toBe(200);
    const again = await api(server, 'POST', NS, { body: { metadata: { name: 'team' } } });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      reason: 'AlreadyExists',
      message: 'object is being deleted: namespaces "team" already exists',
      details: { name: 'team', kind: 'namespaces' },
    });
    const second = await api(server, 'DELETE', `${NS}/team`);
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ status: { phase: 'Terminating' }, spec: { finalizers: ['kubernetes'] } });
  });

  it('keeps a namespace whose content carries finalizers, with the conditions the deleter sets, until they go', async () => {
    await create(server, 'kept', undefined, { finalizers: ['example.com/hold'] }, 'team');
    await create(server, 'free', undefined, undefined, 'team');
    expect((await api(server, 'DELETE', `${NS}/team`)).status).toBe(200);
    const conditionsSet = async (): Promise<boolean> =>
      conditionsOf((await api(server, 'GET', `${NS}/team`)).text).length === 5;
    await eventually(conditionsSet, 'the deletion conditions');
    const conditions = conditionsOf((await api(server, 'GET', `${NS}/team`)).text);
    // The full five are pinned by the conformance case and namespace-conditions.test.ts; here, what holds it.
    expect(conditions.filter((c) => c.status === 'True').map((c) => c.message)).toEqual([
      'Some resources are remaining: leases.coordination.k8s.io has 1 resource instances',
      'Some finalizers are remaining: example.com/hold in 1 resource instances',
    ]);
    expect((await api(server, 'GET', `${BASE}/namespaces/team/leases/free`)).status).toBe(404);
    const kept = await api(server, 'GET', `${BASE}/namespaces/team/leases/kept`);
    expect(kept.body.metadata?.deletionTimestamp).toBeDefined();
    const released = await api(server, 'PATCH', `${BASE}/namespaces/team/leases/kept`, {
      body: { metadata: { finalizers: null } },
      contentType: 'application/merge-patch+json',
    });
    expect(released.status).toBe(200);
    await eventually(gone(server, 'team'), 'the namespace to go once the finalizer is removed');
  });

  it('refuses to delete default, kube-system and kube-public with the lifecycle plugin 403, not kube-node-lease', async () => {
    // The Status itself is pinned by the conformance case (cases/namespaces.ts).
    for (const name of ['default', 'kube-system', 'kube-public'])
      expect((await api(server, 'DELETE', `${NS}/${name}`)).status).toBe(403);
    expect(registryPhase(await api(server, 'GET', `${NS}/default`))).toBe('Active');
    expect((await api(server, 'DELETE', `${NS}/kube-node-lease`)).status).toBe(200);
  });

  it('checks the uid and resourceVersion preconditions first, and answers a missing namespace 404', async () => {
    const ns = await api(server, 'GET', `${NS}/team`);
    const uid = ns.body.metadata?.uid ?? '';
    const badUid = await api(server, 'DELETE', `${NS}/team`, { body: { preconditions: { uid: 'other' } } });
    expect(badUid.status).toBe(409);
    expect(badUid.body.message).toBe(
      `Operation cannot be fulfilled on namespaces "team": Precondition failed: UID in precondition: other, UID in object meta: ${uid}`,
    );
    const badRv = await api(server, 'DELETE', `${NS}/team`, { body: { preconditions: { resourceVersion: '1' } } });
    expect(badRv.status).toBe(409);
    expect(badRv.body.message).toBe(
      `Operation cannot be fulfilled on namespaces "team": Precondition failed: ResourceVersion in precondition: 1, ResourceVersion in object meta: ${ns.body.metadata?.resourceVersion}`,
    );
    expect((await api(server, 'DELETE', `${NS}/nowhere`)).body).toMatchObject({
      code: 404,
      message: 'namespaces "nowhere" not found',
    });
    const ok = await api(server, 'DELETE', `${NS}/team`, { body: { preconditions: { uid } } });
    expect(ok.status).toBe(200);
  });

  it('adds the orphan or foregroundDeletion finalizer the propagation policy implies, and answers 202 for orphanDependents false', async () => {
    // With a body, the options come from it alone (the query's dryRun would be ignored).
    const orphan = await api(server, 'DELETE', `${NS}/team`, {
      body: { propagationPolicy: 'Orphan', dryRun: ['All'] },
    });
    expect(orphan.body.metadata?.finalizers).toEqual(['orphan']);
    const foreground = await api(server, 'DELETE', `${NS}/team`, {
      body: { propagationPolicy: 'Foreground', dryRun: ['All'] },
    });
    expect(foreground.body.metadata?.finalizers).toEqual(['foregroundDeletion']);
    // A dry run stores nothing.
    expect((await api(server, 'GET', `${NS}/team`)).body).toMatchObject({ status: { phase: 'Active' } });
    const accepted = await api(server, 'DELETE', `${NS}/team`, { body: { orphanDependents: false } });
    expect(accepted.status).toBe(202);
    expect(accepted.body.metadata?.finalizers).toEqual(['foregroundDeletion']);
    // The namespace owns nothing once empty, so the garbage collector's finalizer comes off and it goes.
    await eventually(gone(server, 'team'), 'the namespace to go');
  });

  it('finalize replaces spec.finalizers, and a terminating namespace left with none goes', async () => {
    await create(server, 'kept', undefined, { finalizers: ['example.com/hold'] }, 'team');
    expect((await api(server, 'DELETE', `${NS}/team`)).status).toBe(200);
    const wrongName = await api(server, 'PUT', `${NS}/team/finalize`, { body: { metadata: { name: 'x' } } });
    expect(wrongName.status).toBe(400);
    expect(wrongName.body.message).toBe('the name of the object (x) does not match the name on the URL (team)');
    const badName = await api(server, 'PUT', `${NS}/team/finalize`, {
      body: { metadata: { name: 'team' }, spec: { finalizers: ['bogus'] } },
    });
    expect(badName.status).toBe(422);
    expect(badName.body.message).toBe(
      'Namespace "team" is invalid: spec.finalizers[0]: Invalid value: "bogus": name is neither a standard finalizer name nor is it fully qualified',
    );
    const finalized = await api(server, 'PUT', `${NS}/team/finalize`, {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' }, spec: { finalizers: [] } },
    });
    expect(finalized.status).toBe(200);
    expect(finalized.body).toMatchObject({ metadata: { name: 'team' }, status: { phase: 'Terminating' } });
    expect((await api(server, 'GET', `${NS}/team`)).status).toBe(404);
    // The Lease kept by its finalizer is still there: finalize skips the controller's work.
    expect((await api(server, 'GET', `${BASE}/namespaces/team/leases/kept`)).status).toBe(200);
  });

  it('streams ADDED, MODIFIED and DELETED namespaces to a watch filtered by name', async () => {
    const list = await api(server, 'GET', `${NS}?fieldSelector=metadata.name%3Dteam`);
    expect(list.body.items?.map((i) => i.metadata?.name)).toEqual(['team']);
    const rv = list.body.metadata?.resourceVersion ?? '';
    const events = await watch(server, `${NS}?watch=1&fieldSelector=metadata.name%3Dteam&resourceVersion=${rv}`);
    expect(events.status).toBe(200);
    expect((await api(server, 'DELETE', `${NS}/team`)).status).toBe(200);
    const first = await events.next();
    expect(first.type).toBe('MODIFIED');
    expect(first.object).toMatchObject({ kind: 'Namespace', apiVersion: 'v1', status: { phase: 'Terminating' } });
    let last = first;
    while (last.type !== 'DELETED') last = await events.next(20_000);
    expect(last.object.metadata?.name).toBe('team');
    events.close();
  });
});
