// Hostile LeaseCandidates: versions kube-apiserver's semver.Parse (github.com/blang/semver/v4) refuses,
// versions beyond 2^53, prototype keys, and a flood of candidates the election controller must absorb.
// Each asserts kube-apiserver's answer and that the server is intact afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import type { JsonBody } from '../helpers.js';
import { api, create, expectServerIntact, start } from '../helpers.js';

const V1BETA1 = '/apis/coordination.k8s.io/v1beta1/namespaces/default/leasecandidates';
const OEV = 'OldestEmulationVersion';
const T0 = Date.UTC(2026, 0, 1);
const micro = (ms: number): string => new Date(ms).toISOString().replace('Z', '000Z');

function candidate(name: string, spec: Record<string, unknown>): JsonBody {
  return { apiVersion: 'coordination.k8s.io/v1beta1', kind: 'LeaseCandidate', metadata: { name }, spec };
}

describe('LeaseCandidate versions as kube-apiserver parses them', () => {
  let server: LeaseApiServer;
  let sentinel: JsonBody;
  beforeAll(async () => {
    server = await start({ release: '1.33', coordinatedLeaderElection: { resyncMs: 0 } });
    sentinel = await create(server, 'sentinel', { holderIdentity: 'keeper', leaseDurationSeconds: 30 });
  });
  afterAll(() => server.close());

  it.each([
    ['a numeric pre-release with a leading zero', '1.2.3-01'],
    ['an empty build', '1.2.3+'],
    ['an empty build identifier', '1.2.3+a..b'],
    ['a build identifier with a character outside [0-9A-Za-z-]', '1.2.3+a_b'],
    ['a major number beyond uint64', '18446744073709551616.0.0'],
    ['a 400-digit patch number', `1.2.${'9'.repeat(400)}`],
    ['a pre-release number beyond uint64', '1.2.3-18446744073709551616'],
  ])('refuses %s (%s) with 422 "must be a valid semantic version"', async (_what, version) => {
    const res = await api(server, 'POST', V1BETA1, {
      body: candidate('bad', {
        leaseName: 'l',
        binaryVersion: version,
        strategy: 'OldestEmulationVersion',
        emulationVersion: '0.0.1',
      }),
    });
    expect(res.status).toBe(422);
    // The unparsable version is then 0.0.0 in bv.LT(ev), below 0.0.1: kube-apiserver reports both.
    const invalid = `spec.binaryVersion: Invalid value: "${version}"`;
    expect(res.body.message).toBe(
      `LeaseCandidate.coordination.k8s.io "bad" is invalid: [${invalid}: must be a valid semantic version, ${invalid}: must be greater than or equal to \`emulationVersion\`]`,
    );
    expect((await api(server, 'GET', `${V1BETA1}/bad`)).status).toBe(404);
    await expectServerIntact(server, sentinel);
  });

  it.each(['18446744073709551615.0.0', '1.2.3+build.1-x', '1.2.3-rc.1+b', '1.2.3-0'])(
    'accepts %s, as semver.Parse does',
    async (version) => {
      const res = await api(server, 'POST', `${V1BETA1}?dryRun=All`, {
        body: candidate('good', { leaseName: 'l', binaryVersion: version, emulationVersion: '0.0.1', strategy: OEV }),
      });
      expect(res.status).toBe(201);
      expect(res.body.spec?.['binaryVersion']).toBe(version);
    },
  );

  it('compares an invalid binaryVersion as 0.0.0, which is not below 0.0.0-rc.1 (bv.LT(ev))', async () => {
    const res = await api(server, 'POST', V1BETA1, {
      body: candidate('zero', { leaseName: 'l', binaryVersion: 'x', emulationVersion: '0.0.0-rc.1', strategy: OEV }),
    });
    expect(res.body.message).toBe(
      'LeaseCandidate.coordination.k8s.io "zero" is invalid: spec.binaryVersion: Invalid value: "x": must be a valid semantic version',
    );
  });

  it('stores no prototype key from a create or a merge patch, and Object.prototype stays clean', async () => {
    const body =
      '{"__proto__":{"polluted":1},"apiVersion":"coordination.k8s.io/v1beta1","kind":"LeaseCandidate","metadata":{"name":"proto"},"spec":{"__proto__":{"leaseName":"evil"},"constructor":{"prototype":{"x":1}},"leaseName":"l","binaryVersion":"1.2.3","strategy":"OldestEmulationVersion","emulationVersion":"1.2.3"}}';
    const created = await api(server, 'POST', V1BETA1, { body });
    expect(created.status).toBe(201);
    const patched = await api(server, 'PATCH', `${V1BETA1}/proto`, {
      body: '{"spec":{"__proto__":{"leaseName":"evil"},"constructor":{"prototype":{"x":1}}}}',
      contentType: 'application/merge-patch+json',
    });
    expect(patched.status).toBe(200);
    const live = await api(server, 'GET', `${V1BETA1}/proto`);
    expect(live.body.spec).toEqual({
      leaseName: 'l',
      binaryVersion: '1.2.3',
      strategy: OEV,
      emulationVersion: '1.2.3',
    });
    expect(Object.keys(live.body)).not.toContain('__proto__');
    await expectServerIntact(server, sentinel);
  });
});

describe('the election controller under hostile candidates', () => {
  it('orders emulation versions beyond 2^53 exactly (9007199254740992 is older than 9007199254740993)', async () => {
    const server = await start({ release: '1.34', clock: () => T0, coordinatedLeaderElection: { resyncMs: 0 } });
    try {
      for (const [name, version] of [
        ['a-newer', '9007199254740993.0.0'],
        ['b-older', '9007199254740992.0.0'],
      ] as const) {
        const spec = {
          leaseName: 'big',
          binaryVersion: version,
          emulationVersion: version,
          strategy: OEV,
          renewTime: micro(T0),
        };
        expect((await api(server, 'POST', V1BETA1, { body: candidate(name, spec) })).status).toBe(201);
      }
      server.reconcileLeaderElection();
      const spec = server.store.get('default', 'big')?.spec as Record<string, unknown> | undefined;
      expect(spec?.['preferredHolder'] ?? spec?.['holderIdentity']).toBe('b-older');
    } finally {
      await server.close();
    }
  });

  it("one candidate's renewal among 1,000 candidates of 1,000 Leases is a pass over its own Lease only", async () => {
    // The server's clock is read once per candidate the controller looks at, so its calls count the work.
    let clockCalls = 0;
    const server = await start({
      release: '1.34',
      clock: () => {
        clockCalls++;
        return T0;
      },
      coordinatedLeaderElection: { resyncMs: 0 },
    });
    try {
      const n = 1000;
      for (let i = 0; i < n; i += 50) {
        const batch = Array.from({ length: Math.min(50, n - i) }, (_, j) =>
          api(server, 'POST', V1BETA1, {
            body: candidate(`c${i + j}`, {
              leaseName: `lease-${i + j}`,
              binaryVersion: '1.34.0',
              emulationVersion: '1.34.0',
              strategy: OEV,
              renewTime: micro(T0),
            }),
          }),
        );
        for (const res of await Promise.all(batch)) expect(res.status).toBe(201);
      }
      server.reconcileLeaderElection();
      expect(server.store.get('default', 'lease-999')?.spec).toMatchObject({ holderIdentity: 'c999' });
      await new Promise((resolve) => setImmediate(resolve));
      clockCalls = 0;
      const renewed = await api(server, 'PATCH', `${V1BETA1}/c7`, {
        body: { spec: { renewTime: micro(T0 + 1) } },
        contentType: 'application/merge-patch+json',
      });
      expect(renewed.status).toBe(200);
      await new Promise((resolve) => setImmediate(resolve));
      // Before: every pass read all 1,000 candidates for each of the 1,000 Leases.
      expect(clockCalls).toBeLessThan(50);
      expect((await api(server, 'GET', `${V1BETA1}?limit=1`)).status).toBe(200);
    } finally {
      await server.close();
    }
  }, 60_000);

  it("keeps a deleted holder's valid term, and names the next candidate preferredHolder", async () => {
    const server = await start({ release: '1.34', clock: () => T0, coordinatedLeaderElection: { resyncMs: 0 } });
    try {
      const spec = {
        leaseName: 'gone',
        binaryVersion: '1.34.0',
        emulationVersion: '1.34.0',
        strategy: OEV,
        renewTime: micro(T0),
      };
      expect((await api(server, 'POST', V1BETA1, { body: candidate('first', spec) })).status).toBe(201);
      server.reconcileLeaderElection();
      expect(server.store.get('default', 'gone')?.spec).toMatchObject({ holderIdentity: 'first' });
      expect((await api(server, 'DELETE', `${V1BETA1}/first`)).status).toBe(200);
      server.reconcileLeaderElection();
      expect(server.store.get('default', 'gone')?.spec).toMatchObject({ holderIdentity: 'first' });
      expect((await api(server, 'POST', V1BETA1, { body: candidate('second', spec) })).status).toBe(201);
      server.reconcileLeaderElection();
      expect(server.store.get('default', 'gone')?.spec).toMatchObject({
        holderIdentity: 'first',
        preferredHolder: 'second',
      });
    } finally {
      await server.close();
    }
  });
});
