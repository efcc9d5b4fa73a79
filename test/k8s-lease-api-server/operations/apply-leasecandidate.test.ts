// Server-side apply of LeaseCandidates, served in two group versions at once (release 1.33): managers
// recorded at either version, conflicts naming the version of an Update manager, and the version check.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import { api, start } from '../helpers.js';

const V1BETA1 = '/apis/coordination.k8s.io/v1beta1/namespaces/default/leasecandidates';
const V1ALPHA2 = '/apis/coordination.k8s.io/v1alpha2/namespaces/default/leasecandidates';
const APPLY = 'application/apply-patch+yaml';

const candidate = (
  spec: Record<string, unknown>,
  apiVersion = 'coordination.k8s.io/v1beta1',
  kind = 'LeaseCandidate',
) => ({
  apiVersion,
  kind,
  metadata: { name: 'c' },
  spec: { leaseName: 'kube-scheduler', emulationVersion: '1.33.0', strategy: 'OldestEmulationVersion', ...spec },
});

describe('server-side apply of LeaseCandidates', () => {
  let server: LeaseApiServer;
  beforeEach(async () => {
    server = await start({ release: '1.33', coordinatedLeaderElection: { resyncMs: 0 } });
  });
  afterEach(() => server.close());

  it('conflicts with an Update manager recorded at the other served version, naming that version', async () => {
    // internal/conflict.go printManager ("using <apiVersion>"); the versions share their fields, so
    // SMD's conversion between them keeps the manager's set (merge/update.go update).
    const created = await api(server, 'PATCH', `${V1BETA1}/c?fieldManager=applier`, {
      contentType: APPLY,
      body: candidate({ binaryVersion: '1.33.0' }),
    });
    expect(created.status).toBe(201);
    const patched = await api(server, 'PATCH', `${V1ALPHA2}/c?fieldManager=upgrader`, {
      contentType: 'application/merge-patch+json',
      body: { spec: { binaryVersion: '1.34.0' } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.metadata?.managedFields?.map((m) => [m.manager, m.operation, m.apiVersion])).toEqual([
      ['applier', 'Apply', 'coordination.k8s.io/v1beta1'],
      ['upgrader', 'Update', 'coordination.k8s.io/v1alpha2'],
    ]);
    const conflict = await api(server, 'PATCH', `${V1BETA1}/c?fieldManager=applier`, {
      contentType: APPLY,
      body: candidate({ binaryVersion: '1.33.1' }),
    });
    expect(conflict.status).toBe(409);
    expect(conflict.body.message).toBe(
      'Apply failed with 1 conflict: conflict with "upgrader" using coordination.k8s.io/v1alpha2: .spec.binaryVersion',
    );
  });

  it('refuses a configuration of another kind or version (versioncheck.go)', async () => {
    const wrongKind = await api(server, 'PATCH', `${V1BETA1}/c?fieldManager=applier`, {
      contentType: APPLY,
      body: candidate({ binaryVersion: '1.33.0' }, 'coordination.k8s.io/v1beta1', 'Lease'),
    });
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.body.message).toBe('invalid object type: coordination.k8s.io/v1beta1, Kind=Lease');
    const wrongVersion = await api(server, 'PATCH', `${V1BETA1}/c?fieldManager=applier`, {
      contentType: APPLY,
      body: candidate({ binaryVersion: '1.33.0' }, 'coordination.k8s.io/v1alpha2'),
    });
    expect(wrongVersion.body.message).toBe('invalid object type: coordination.k8s.io/v1alpha2, Kind=LeaseCandidate');
  });
});
