import { describe, expectTypeOf, it } from 'vitest';
import * as v130 from '../../../generated/k8s-lease-client/src/v1_30/index.js';
import * as v131 from '../../../generated/k8s-lease-client/src/v1_31/index.js';
import * as v133 from '../../../generated/k8s-lease-client/src/v1_33/index.js';
import * as v134 from '../../../generated/k8s-lease-client/src/v1_34/index.js';
import * as v135 from '../../../generated/k8s-lease-client/src/v1_35/index.js';
import * as root from 'k8s-lease-client';
import * as beta133 from 'k8s-lease-client/v1.33/v1beta1';
import { readNamespacedLease, type Lease } from 'k8s-lease-client/v1.35';

declare const client: v135.Client;

describe('LeaseCandidate per release', () => {
  it('1.31 serves v1alpha1: create, read, list and watch typed by its own models', async () => {
    const created = await v131.v1alpha1.createNamespacedLeaseCandidate(client, {
      namespace: 'kube-system',
      body: {
        metadata: { name: 'sched-a' },
        spec: { leaseName: 'kube-scheduler', preferredStrategies: ['OldestEmulationVersion'], binaryVersion: '1.31.1' },
      },
    });
    expectTypeOf(created).toEqualTypeOf<v131.v1alpha1.LeaseCandidate>();
    expectTypeOf(
      await v131.v1alpha1.readNamespacedLeaseCandidate(client, { namespace: 'kube-system', name: 'sched-a' }),
    ).toEqualTypeOf<v131.v1alpha1.LeaseCandidate>();
    expectTypeOf(
      await v131.v1alpha1.listNamespacedLeaseCandidate(client, { namespace: 'kube-system' }),
    ).toEqualTypeOf<v131.v1alpha1.LeaseCandidateList>();
    for await (const notification of v131.v1alpha1.watchNamespacedLeaseCandidates(client, {
      namespace: 'kube-system',
    })) {
      if (notification.type === 'ADDED')
        expectTypeOf(notification.object).toEqualTypeOf<v131.v1alpha1.LeaseCandidate>();
    }
    void v131.v1alpha1.createNamespacedLeaseCandidate(client, {
      namespace: 'ns',
      // @ts-expect-error — v1alpha1 requires preferredStrategies (a list), it has no single strategy
      body: { spec: { leaseName: 'l', strategy: 'OldestEmulationVersion' } },
    });
  });

  it('1.33 onwards serves v1alpha2 and v1beta1, whose spec requires a strategy and the binary version', async () => {
    for (const beta of [v133.v1beta1, v134.v1beta1, v135.v1beta1]) {
      const body = {
        metadata: { name: 'sched-a' },
        spec: {
          leaseName: 'kube-scheduler',
          strategy: 'OldestEmulationVersion',
          binaryVersion: '1.33.1',
          emulationVersion: '1.33',
        },
      };
      expectTypeOf(
        await beta.createNamespacedLeaseCandidate(client, { namespace: 'kube-system', body }),
      ).toEqualTypeOf<v135.v1beta1.LeaseCandidate>();
      expectTypeOf(
        await beta.listLeaseCandidateForAllNamespaces(client),
      ).toEqualTypeOf<v135.v1beta1.LeaseCandidateList>();
      void beta.createNamespacedLeaseCandidate(client, {
        namespace: 'ns',
        // @ts-expect-error — binaryVersion is required in v1beta1
        body: { spec: { leaseName: 'l', strategy: 'OldestEmulationVersion' } },
      });
    }
    expectTypeOf(
      await v133.v1alpha2.readNamespacedLeaseCandidate(client, { namespace: 'ns', name: 'a' }),
    ).toEqualTypeOf<v133.v1alpha2.LeaseCandidate>();
    // @ts-expect-error — 1.33 no longer serves v1alpha1
    void v133.v1alpha1;
    // @ts-expect-error — 1.35 neither
    void v135.v1alpha1;
  });

  it('a release without LeaseCandidate exports none of it', () => {
    // @ts-expect-error — 1.30 serves no LeaseCandidate version
    void v130.v1alpha1;
    // @ts-expect-error — nor v1beta1
    void v130.v1beta1;
    // @ts-expect-error — and the Lease API's entry has no LeaseCandidate functions of its own
    void v130.createNamespacedLeaseCandidate;
    // @ts-expect-error — nor list them (the runtime's own hand-written `LeaseCandidate` type, which createCandidate uses, is every release's)
    void v130.listLeaseCandidateForAllNamespaces;
  });

  it('names that exist in several versions do not collide: each is its version’s own type', () => {
    expectTypeOf<v133.v1alpha2.LeaseCandidateSpec>().not.toEqualTypeOf<v133.v1beta1.LeaseCandidateSpec['strategy']>();
    // Shared meta types are one type, re-exported from the Lease API's models.
    expectTypeOf<v133.v1beta1.ObjectMeta>().toEqualTypeOf<v133.ObjectMeta>();
    expectTypeOf<v133.v1alpha2.Status>().toEqualTypeOf<v133.Status>();
    expectTypeOf<typeof v135.v1beta1.apiVersion>().toEqualTypeOf<'coordination.k8s.io/v1beta1'>();
  });

  // That the root export is the newest release's is checked at run time, with the newest release read from
  // spec/releases.json (test/generator/emit/root-index.test.ts), so that adding a release needs no edit here.
  it('the package subpath reaches the same functions, and the Lease API stays where it was', async () => {
    expectTypeOf(beta133.readNamespacedLeaseCandidate).toEqualTypeOf(v133.v1beta1.readNamespacedLeaseCandidate);
    expectTypeOf(root.v1beta1.createNamespacedLeaseCandidate).toBeFunction();
    expectTypeOf(await readNamespacedLease(client, { namespace: 'ns', name: 'a' })).toEqualTypeOf<Lease>();
  });
});
