// LeaseCandidate (coordination.k8s.io) on the Lease API server with the CoordinatedLeaderElection gate:
// the group versions each release serves, CRUD through the Lease's machinery, and kube-apiserver's validation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import type { JsonBody } from '../helpers.js';
import { api, start, watch } from '../helpers.js';

const V1BETA1 = '/apis/coordination.k8s.io/v1beta1/namespaces/default/leasecandidates';
const V1ALPHA2 = '/apis/coordination.k8s.io/v1alpha2/namespaces/default/leasecandidates';
const V1ALPHA1 = '/apis/coordination.k8s.io/v1alpha1/namespaces/default/leasecandidates';

function candidate(name: string, spec: Record<string, unknown>, apiVersion = 'coordination.k8s.io/v1beta1'): JsonBody {
  return { apiVersion, kind: 'LeaseCandidate', metadata: { name }, spec };
}

const valid = {
  leaseName: 'kube-scheduler',
  binaryVersion: '1.34.0',
  emulationVersion: '1.33.0',
  strategy: 'OldestEmulationVersion',
};

describe('LeaseCandidate per release (CoordinatedLeaderElection on)', () => {
  it.each([
    ['1.31', ['v1alpha1'], ['v1alpha2', 'v1beta1']],
    ['1.32', ['v1alpha2'], ['v1alpha1', 'v1beta1']],
    ['1.33', ['v1beta1', 'v1alpha2'], ['v1alpha1']],
    ['1.35', ['v1beta1', 'v1alpha2'], ['v1alpha1']],
  ])(
    'release %s serves LeaseCandidate in %j and not in %j, and discovery lists exactly those',
    async (release, served, absent) => {
      const server = await start({ release, coordinatedLeaderElection: { resyncMs: 0 } });
      try {
        for (const version of served) {
          expect(
            (await api(server, 'GET', `/apis/coordination.k8s.io/${version}/namespaces/default/leasecandidates`)).body
              .kind,
          ).toBe('LeaseCandidateList');
          const list = await api(server, 'GET', `/apis/coordination.k8s.io/${version}`);
          expect(list.body['resources']).toEqual([
            expect.objectContaining({ name: 'leasecandidates', kind: 'LeaseCandidate', namespaced: true }),
          ]);
        }
        for (const version of absent)
          expect(
            (await api(server, 'GET', `/apis/coordination.k8s.io/${version}/namespaces/default/leasecandidates`))
              .status,
          ).toBe(404);
        const group = await api(server, 'GET', '/apis/coordination.k8s.io');
        expect((group.body['versions'] as { version: string }[]).map((v) => v.version)).toEqual(['v1', ...served]);
        expect(group.body['preferredVersion']).toEqual({ groupVersion: 'coordination.k8s.io/v1', version: 'v1' });
        const aggregated = await api(server, 'GET', '/apis', {
          headers: { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' },
        });
        const versions = (aggregated.body.items?.[0]?.['versions'] as { version: string }[]).map((v) => v.version);
        expect(versions).toEqual(['v1', ...served]);
      } finally {
        await server.close();
      }
    },
  );

  it("lists an OpenAPI v3 document per served version, derived from the Lease's (kubectl explain, kubectl's fieldValidation probe)", async () => {
    const server = await start({ release: '1.33', coordinatedLeaderElection: { resyncMs: 0 } });
    try {
      const index = (await api(server, 'GET', '/openapi/v3')).body['paths'] as Record<
        string,
        { serverRelativeURL: string }
      >;
      expect(Object.keys(index)).toEqual([
        'apis/coordination.k8s.io/v1',
        'apis/coordination.k8s.io/v1beta1',
        'apis/coordination.k8s.io/v1alpha2',
      ]);
      const url = index['apis/coordination.k8s.io/v1beta1']?.serverRelativeURL ?? '';
      const doc = await api(server, 'GET', url);
      expect(doc.headers.get('cache-control')).toBe('public, immutable');
      const schemas = (doc.body['components'] as { schemas: Record<string, JsonBody> }).schemas;
      expect(schemas['io.k8s.api.coordination.v1beta1.LeaseCandidate']?.['x-kubernetes-group-version-kind']).toEqual([
        { group: 'coordination.k8s.io', kind: 'LeaseCandidate', version: 'v1beta1' },
      ]);
      expect(
        Object.keys(
          (schemas['io.k8s.api.coordination.v1beta1.LeaseCandidateSpec']?.['properties'] ?? {}) as object,
        ).sort(),
      ).toEqual(['binaryVersion', 'emulationVersion', 'leaseName', 'pingTime', 'renewTime', 'strategy']);
      expect(Object.keys(schemas).filter((name) => name.includes('coordination.v1.'))).toEqual([]);
      const patch = (doc.body['paths'] as Record<string, Record<string, JsonBody>>)[
        '/apis/coordination.k8s.io/v1beta1/namespaces/{namespace}/leasecandidates/{name}'
      ]?.['patch'];
      expect(patch).toMatchObject({
        operationId: 'patchCoordinationV1beta1NamespacedLeaseCandidate',
        'x-kubernetes-group-version-kind': { group: 'coordination.k8s.io', kind: 'LeaseCandidate', version: 'v1beta1' },
      });
      expect((patch?.['parameters'] as { name?: string }[]).map((p) => p.name)).toContain('fieldValidation');
      expect((await api(server, 'GET', '/openapi/v3/apis/coordination.k8s.io/v1alpha1')).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('is not served without the gate (as kube-apiserver with the feature off), and a release before 1.31 refuses the gate', async () => {
    const server = await start({ release: '1.33' });
    try {
      expect((await api(server, 'GET', V1BETA1)).status).toBe(404);
      expect((await api(server, 'GET', '/apis/coordination.k8s.io/v1beta1')).status).toBe(404);
    } finally {
      await server.close();
    }
    await expect(start({ release: '1.30', coordinatedLeaderElection: true })).rejects.toThrow(
      'release 1.30.0 has no LeaseCandidate API',
    );
  });
});

describe('LeaseCandidate CRUD (1.33: v1beta1 and v1alpha2, one stored object)', () => {
  let server: LeaseApiServer;
  beforeAll(async () => {
    server = await start({ release: '1.33', coordinatedLeaderElection: { resyncMs: 0 } });
  });
  afterAll(() => server.close());

  it('creates, reads in both versions, lists, updates, patches, watches and deletes', async () => {
    const events = await watch(server, `${V1ALPHA2}?watch=true`);
    const created = await api(server, 'POST', V1BETA1, { body: candidate('c1', valid) });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      kind: 'LeaseCandidate',
      apiVersion: 'coordination.k8s.io/v1beta1',
      metadata: { name: 'c1', namespace: 'default' },
      spec: valid,
    });
    expect(created.body.metadata?.managedFields?.map((m) => m.apiVersion)).toEqual(['coordination.k8s.io/v1beta1']);
    expect((await events.next()).object).toMatchObject({
      kind: 'LeaseCandidate',
      apiVersion: 'coordination.k8s.io/v1alpha2',
      metadata: { name: 'c1' },
    });
    const alpha = await api(server, 'GET', `${V1ALPHA2}/c1`);
    expect(alpha.body).toMatchObject({
      apiVersion: 'coordination.k8s.io/v1alpha2',
      metadata: { resourceVersion: created.body.metadata?.resourceVersion },
    });
    const list = await api(server, 'GET', V1BETA1);
    expect(list.body).toMatchObject({ kind: 'LeaseCandidateList', apiVersion: 'coordination.k8s.io/v1beta1' });
    expect(list.body.items?.map((i) => i.metadata?.name)).toEqual(['c1']);
    const renewed = await api(server, 'PUT', `${V1BETA1}/c1`, {
      body: { ...created.body, spec: { ...valid, renewTime: '2026-01-01T00:00:00.000000Z' } },
    });
    expect(renewed.status).toBe(200);
    expect((await events.next()).type).toBe('MODIFIED');
    const stale = await api(server, 'PUT', `${V1BETA1}/c1`, { body: created.body });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe(
      'Operation cannot be fulfilled on leasecandidates.coordination.k8s.io "c1": the object has been modified; please apply your changes to the latest version and try again',
    );
    const patched = await api(server, 'PATCH', `${V1BETA1}/c1`, {
      body: { spec: { pingTime: '2026-01-01T00:00:01.000000Z' } },
      contentType: 'application/merge-patch+json',
    });
    expect(patched.body.spec).toMatchObject({
      renewTime: '2026-01-01T00:00:00.000000Z',
      pingTime: '2026-01-01T00:00:01.000000Z',
    });
    expect((await events.next()).type).toBe('MODIFIED');
    const table = await api(server, 'GET', V1BETA1, {
      headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
    });
    expect(table.body.columnDefinitions?.map((c) => c.name)).toEqual([
      'Name',
      'LeaseName',
      'BinaryVersion',
      'EmulationVersion',
      'Age',
    ]);
    expect(table.body.rows?.[0]?.cells.slice(0, 4)).toEqual(['c1', 'kube-scheduler', '1.34.0', '1.33.0']);
    expect((await api(server, 'DELETE', `${V1BETA1}/c1`)).body.details).toMatchObject({
      name: 'c1',
      kind: 'leasecandidates',
    });
    expect((await events.next()).type).toBe('DELETED');
    const missing = await api(server, 'GET', `${V1BETA1}/c1`);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('leasecandidates.coordination.k8s.io "c1" not found');
    events.close();
  });

  it('refuses a Lease body and a body of another version, as kube-apiserver', async () => {
    const asLease = await api(server, 'POST', V1BETA1, {
      body: { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'x' }, spec: {} },
    });
    expect(asLease.status).toBe(400);
    const wrongVersion = await api(server, 'POST', V1BETA1, {
      body: candidate('x', valid, 'coordination.k8s.io/v1alpha2'),
    });
    expect(wrongVersion.body.message).toBe(
      'the API version in the data (coordination.k8s.io/v1alpha2) does not match the expected API version (coordination.k8s.io/v1beta1)',
    );
    const unknown = await api(server, 'POST', `${V1BETA1}?fieldValidation=Strict`, {
      body: candidate('x', { ...valid, preferredStrategies: ['OldestEmulationVersion'] }),
    });
    expect(unknown.body.message).toBe(
      'LeaseCandidate in version "v1beta1" cannot be handled as a LeaseCandidate: strict decoding error: unknown field "spec.preferredStrategies"',
    );
  });

  it.each([
    [{}, '[spec.leaseName: Required value, spec.binaryVersion: Required value, spec.strategy: Required value]'],
    // An unparsable version is 0.0.0 in the checks that follow it, as semver.Version{} is in kube-apiserver.
    [
      { ...valid, binaryVersion: '1.34' },
      '[spec.binaryVersion: Invalid value: "1.34": must be a valid semantic version, spec.binaryVersion: Invalid value: "1.34": must be greater than or equal to `emulationVersion`]',
    ],
    [
      { ...valid, emulationVersion: 'v1.33.0' },
      '[spec.emulationVersion: Invalid value: "v1.33.0": must be a valid semantic version, spec.emulationVersion: Required value: must be specified when `strategy` is \'OldestEmulationVersion\']',
    ],
    [
      { ...valid, binaryVersion: '1.32.0' },
      'spec.binaryVersion: Invalid value: "1.32.0": must be greater than or equal to `emulationVersion`',
    ],
    [
      { ...valid, emulationVersion: undefined },
      "spec.emulationVersion: Required value: must be specified when `strategy` is 'OldestEmulationVersion'",
    ],
    [
      { ...valid, binaryVersion: '1.34.0-rc.0', emulationVersion: '1.34.0' },
      'spec.binaryVersion: Invalid value: "1.34.0-rc.0": must be greater than or equal to `emulationVersion`',
    ],
    [
      { ...valid, strategy: 'Newest' },
      'spec.strategy.strategy: Unsupported value: "Newest": supported values: "OldestEmulationVersion"',
    ],
  ])('validates %j as kube-apiserver: %s', async (spec, message) => {
    const res = await api(server, 'POST', V1BETA1, { body: candidate('bad', spec) });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(`LeaseCandidate.coordination.k8s.io "bad" is invalid: ${message}`);
  });

  it('names a LeaseCandidate as a ConfigMap key (ValidLeaseCandidateName): upper case and underscores pass, a slash does not', async () => {
    expect((await api(server, 'POST', V1BETA1, { body: candidate('Kube_Scheduler.a', valid) })).status).toBe(201);
    const slash = await api(server, 'POST', V1BETA1, { body: candidate('..a', valid) });
    expect(slash.body.message).toBe(
      'LeaseCandidate.coordination.k8s.io "..a" is invalid: metadata.name: Invalid value: "..a": must not start with \'..\'',
    );
  });

  it('keeps spec.leaseName immutable', async () => {
    const created = await api(server, 'POST', V1BETA1, { body: candidate('c2', valid) });
    const moved = await api(server, 'PUT', `${V1BETA1}/c2`, {
      body: { ...created.body, spec: { ...valid, leaseName: 'kube-controller-manager' } },
    });
    expect(moved.status).toBe(422);
    expect(moved.body.message).toBe(
      'LeaseCandidate.coordination.k8s.io "c2" is invalid: spec.leaseName: Invalid value: "kube-controller-manager": field is immutable',
    );
  });
});

describe('LeaseCandidate authorization', () => {
  it("names leasecandidates in a 403, as kube-apiserver's authorizer", async () => {
    const server = await start({
      release: '1.33',
      coordinatedLeaderElection: { resyncMs: 0 },
      forbiddenTokens: ['no-access'],
    });
    try {
      const denied = await api(server, 'GET', V1BETA1, { headers: { Authorization: 'Bearer no-access' } });
      expect(denied.status).toBe(403);
      expect(denied.body.message).toMatch(
        /^leasecandidates\.coordination\.k8s\.io is forbidden: User ".+" cannot list resource "leasecandidates" in API group "coordination\.k8s\.io" in the namespace "default"$/,
      );
    } finally {
      await server.close();
    }
  });
});

describe('LeaseCandidate v1alpha1 (1.31: preferredStrategies)', () => {
  it('takes preferredStrategies and requires at least one', async () => {
    const server = await start({ release: '1.31', coordinatedLeaderElection: { resyncMs: 0 } });
    try {
      const spec = {
        leaseName: 'l',
        binaryVersion: '1.31.0',
        emulationVersion: '1.31.0',
        preferredStrategies: ['OldestEmulationVersion'],
      };
      expect(
        (await api(server, 'POST', V1ALPHA1, { body: candidate('a', spec, 'coordination.k8s.io/v1alpha1') })).status,
      ).toBe(201);
      const none = await api(server, 'POST', V1ALPHA1, {
        body: candidate('b', { leaseName: 'l' }, 'coordination.k8s.io/v1alpha1'),
      });
      expect(none.body.message).toBe(
        'LeaseCandidate.coordination.k8s.io "b" is invalid: spec.preferredStrategies: Required value: must contain at least one strategy',
      );
      const bare = await api(server, 'POST', V1ALPHA1, {
        body: candidate(
          'c',
          { leaseName: 'l', preferredStrategies: ['OldestEmulationVersion', 'Newest'] },
          'coordination.k8s.io/v1alpha1',
        ),
      });
      expect(bare.body.message).toBe(
        'LeaseCandidate.coordination.k8s.io "c" is invalid: [spec.binaryVersion: Required value: must be specified when `strategy` is \'OldestEmulationVersion\', spec.emulationVersion: Required value: must be specified when `strategy` is \'OldestEmulationVersion\', spec.preferredStrategies[1].strategy: Unsupported value: "Newest": supported values: "OldestEmulationVersion"]',
      );
    } finally {
      await server.close();
    }
  });
});

describe('the coordinated-leader-election controller (OldestEmulationVersion)', () => {
  const T0 = Date.UTC(2026, 0, 1);
  const micro = (ms: number): string => new Date(ms).toISOString().replace('Z', '000Z');
  let server: LeaseApiServer;
  let seq = 0;
  beforeAll(async () => {
    server = await start({ release: '1.34', clock: () => T0, coordinatedLeaderElection: { resyncMs: 0 } });
  });
  afterAll(() => server.close());

  async function join(
    leaseName: string,
    name: string,
    binaryVersion: string,
    emulationVersion: string,
    renewTime: number,
  ): Promise<void> {
    const spec = {
      leaseName,
      binaryVersion,
      emulationVersion,
      strategy: 'OldestEmulationVersion',
      renewTime: micro(renewTime),
    };
    expect((await api(server, 'POST', V1BETA1, { body: candidate(name, spec) })).status).toBe(201);
  }
  const leaseSpec = (name: string): Record<string, unknown> | undefined =>
    server.store.get('default', name)?.spec as Record<string, unknown> | undefined;

  it.each([
    [
      'the oldest emulation version',
      [
        ['new', '1.34.0', '1.34.0'],
        ['old', '1.34.0', '1.32.0'],
      ],
      'old',
    ],
    [
      'then the oldest binary version',
      [
        ['x', '1.34.0', '1.33.0'],
        ['y', '1.33.0', '1.33.0'],
      ],
      'y',
    ],
    [
      'then (created in the same second) the first name',
      [
        ['b', '1.34.0', '1.34.0'],
        ['a', '1.34.0', '1.34.0'],
      ],
      'a',
    ],
    [
      'a pre-release before its release',
      [
        ['ga', '1.34.0', '1.34.0'],
        ['rc', '1.34.0-rc.1', '1.34.0-rc.1'],
      ],
      'rc',
    ],
  ])('prefers %s', async (_what, candidates, best) => {
    const leaseName = `target-${++seq}`;
    for (const [name = '', binary = '', emulation = ''] of candidates)
      await join(leaseName, `${leaseName}-${name}`, binary, emulation, T0);
    server.reconcileLeaderElection();
    const spec = leaseSpec(leaseName);
    expect(spec).toMatchObject({ strategy: 'OldestEmulationVersion', leaseDurationSeconds: 5 });
    // The first candidate may have been elected alone; a better one that joined later is the preferredHolder.
    expect(spec?.['preferredHolder'] ?? spec?.['holderIdentity']).toBe(`${leaseName}-${best}`);
  });

  it('pings a candidate whose renewal is older than 5 s and elects nobody until it answers', async () => {
    const leaseName = `target-${++seq}`;
    await join(leaseName, `${leaseName}-quiet`, '1.34.0', '1.34.0', T0 - 10_000);
    server.reconcileLeaderElection();
    const pinged = await api(server, 'GET', `${V1BETA1}/${leaseName}-quiet`);
    expect(pinged.body.spec?.['pingTime']).toBe(micro(T0));
    expect(leaseSpec(leaseName)).toBeUndefined();
    // It answers the ping (renewTime after pingTime): now it is elected.
    await api(server, 'PUT', `${V1BETA1}/${leaseName}-quiet`, {
      body: { ...pinged.body, spec: { ...pinged.body.spec, renewTime: micro(T0 + 1) } },
    });
    server.reconcileLeaderElection();
    expect(leaseSpec(leaseName)).toMatchObject({ holderIdentity: `${leaseName}-quiet` });
  });
});
