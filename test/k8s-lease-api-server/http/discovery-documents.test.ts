// The discovery documents as kube-apiserver serves them (k8s.io/apiserver/pkg/endpoints/discovery and
// discovery/aggregated, `kubectl get --raw`): /version's version.Info for the release, /api's APIVersions with the
// server address, the coordination.k8s.io APIGroup preferring v1, an APIResourceList per group version, and the
// aggregated APIGroupDiscoveryList (apidiscovery.k8s.io/v2 and v2beta1) whose ETag is the hash of the v2 document.
import { describe, expect, it } from 'vitest';
import { documentHash } from '../../../templates/k8s-lease-api-server/src/http/conditional.js';
import {
  buildDiscoveryDocuments,
  versionInfo,
} from '../../../templates/k8s-lease-api-server/src/http/discovery-documents.js';

const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

describe('versionInfo', () => {
  it('names the release as version.Info does', () => {
    expect(versionInfo('1.33.0')).toMatchObject({
      major: '1',
      minor: '33',
      gitVersion: 'v1.33.0',
      gitTreeState: 'clean',
      compiler: 'gc',
      platform: 'linux/amd64',
    });
    expect(versionInfo('v1.31.1')['gitVersion']).toBe('v1.31.1');
  });
});

describe('buildDiscoveryDocuments', () => {
  const docs = buildDiscoveryDocuments('1.33.0', '127.0.0.1:6443', ['v1beta1', 'v1alpha2']);

  it('writes /api and /api/v1 for the core group, which serves namespaces', () => {
    expect(JSON.parse(docs.api)).toEqual({
      kind: 'APIVersions',
      versions: ['v1'],
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1:6443' }],
    });
    // The namespace verbs served, and the subresources as the legacy list names them
    // (pkg/registry/core/rest/storage_core.go registers namespaces/finalize and namespaces/status).
    expect(JSON.parse(docs.apiV1).resources.map((r: { name: string; verbs: string[] }) => [r.name, r.verbs])).toEqual([
      ['namespaces', ['create', 'delete', 'get', 'list', 'watch']],
      ['namespaces/finalize', ['update']],
      ['namespaces/status', ['get']],
    ]);
    const core = JSON.parse(docs.aggregated.v2.api).items[0].versions[0].resources[0];
    expect(core.verbs).toEqual(['create', 'delete', 'get', 'list', 'watch']);
    expect(core.subresources.map((s: { subresource: string; verbs: string[] }) => [s.subresource, s.verbs])).toEqual([
      ['finalize', ['update']],
      ['status', ['get']],
    ]);
  });

  it('lists the group versions with v1 preferred, and the leases resource of v1', () => {
    expect(JSON.parse(docs.group)).toEqual({
      kind: 'APIGroup',
      apiVersion: 'v1',
      name: 'coordination.k8s.io',
      versions: [
        { groupVersion: 'coordination.k8s.io/v1', version: 'v1' },
        { groupVersion: 'coordination.k8s.io/v1beta1', version: 'v1beta1' },
        { groupVersion: 'coordination.k8s.io/v1alpha2', version: 'v1alpha2' },
      ],
      preferredVersion: { groupVersion: 'coordination.k8s.io/v1', version: 'v1' },
    });
    expect(JSON.parse(docs.apis).groups).toEqual([expect.objectContaining({ name: 'coordination.k8s.io' })]);
    expect(JSON.parse(docs.groupVersion).resources).toEqual([
      {
        name: 'leases',
        singularName: 'lease',
        namespaced: true,
        kind: 'Lease',
        verbs: VERBS,
        storageVersionHash: 'gqkMMb/YqFM=',
      },
    ]);
    expect(JSON.parse(docs.versions['v1beta1'] ?? '{}').resources[0]).toMatchObject({
      name: 'leasecandidates',
      kind: 'LeaseCandidate',
      namespaced: true,
    });
  });

  it('writes the aggregated discovery in both versions, hashed as the v2 bytes', () => {
    const v2 = JSON.parse(docs.aggregated.v2.apis);
    expect(v2.kind).toBe('APIGroupDiscoveryList');
    expect(v2.apiVersion).toBe('apidiscovery.k8s.io/v2');
    expect(v2.items[0].versions.map((v: { version: string }) => v.version)).toEqual(['v1', 'v1beta1', 'v1alpha2']);
    expect(v2.items[0].versions[0].resources[0]).toMatchObject({
      resource: 'leases',
      scope: 'Namespaced',
      verbs: VERBS,
    });
    expect(JSON.parse(docs.aggregated.v2beta1.apis).apiVersion).toBe('apidiscovery.k8s.io/v2beta1');
    expect(docs.aggregatedHash).toEqual({
      api: documentHash(docs.aggregated.v2.api),
      apis: documentHash(docs.aggregated.v2.apis),
    });
  });

  it('serves no candidate versions unless given', () => {
    const plain = buildDiscoveryDocuments('1.30.0', 'x:1');
    expect(JSON.parse(plain.group).versions).toEqual([{ groupVersion: 'coordination.k8s.io/v1', version: 'v1' }]);
    expect(plain.versions).toEqual({});
  });
});
