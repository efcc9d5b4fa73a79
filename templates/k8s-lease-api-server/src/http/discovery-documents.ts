// Discovery documents, rendered once at start: the legacy per-path documents and the aggregated
// (apidiscovery.k8s.io v2 / v2beta1) lists that kubectl ≥ 1.27 asks for first.
import type { JsonObject } from '../json.js';
import { GROUP, GROUP_VERSION, KIND, RESOURCE, SINGULAR, VERBS, VERSION } from '../lease-meta.js';
import { documentHash } from './conditional.js';
import type { DiscoveryFormat } from './negotiation.js';

export interface DiscoveryDocuments {
  version: string;
  api: string;
  apiV1: string;
  apis: string;
  group: string;
  groupVersion: string;
  /** APIResourceLists of the group's other served versions (LeaseCandidate's), by version. */
  versions: Record<string, string>;
  aggregated: Record<Exclude<DiscoveryFormat, 'legacy'>, { api: string; apis: string }>;
  /** The ETag hashes of /api and /apis aggregated: one per document, whichever version is asked for (aggregated/handler.go fetchFromCache). */
  aggregatedHash: { api: string; apis: string };
}

export function versionInfo(release: string): JsonObject {
  const [major = '1', minor = '0'] = release.replace(/^v/, '').split('.');
  return {
    major,
    minor,
    emulationMajor: major,
    emulationMinor: minor,
    minCompatibilityMajor: major,
    minCompatibilityMinor: String(Math.max(0, Number(minor) - 1)),
    gitVersion: `v${release.replace(/^v/, '')}`,
    gitCommit: '0000000000000000000000000000000000000000',
    gitTreeState: 'clean',
    buildDate: '2025-01-01T00:00:00Z',
    goVersion: 'go1.24.0',
    compiler: 'gc',
    platform: 'linux/amd64',
  };
}

const groupVersionRef = { groupVersion: GROUP_VERSION, version: VERSION };

/** v1 stays preferred; the LeaseCandidate versions follow in kube's priority order (beta before alpha). */
function apiGroup(extraVersions: readonly string[]): JsonObject {
  const versions = [
    groupVersionRef,
    ...extraVersions.map((version) => ({ groupVersion: `${GROUP}/${version}`, version })),
  ];
  return { name: GROUP, versions, preferredVersion: groupVersionRef };
}

const CANDIDATE_PLURAL = 'leasecandidates';

function candidateDiscoveryResource(): JsonObject {
  return {
    resource: CANDIDATE_PLURAL,
    responseKind: { group: '', version: '', kind: 'LeaseCandidate' },
    scope: 'Namespaced',
    singularResource: 'leasecandidate',
    verbs: [...VERBS],
  };
}

function candidateResourceList(version: string): string {
  return JSON.stringify({
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: `${GROUP}/${version}`,
    resources: [
      {
        name: CANDIDATE_PLURAL,
        singularName: 'leasecandidate',
        namespaced: true,
        kind: 'LeaseCandidate',
        verbs: [...VERBS],
      },
    ],
  });
}

function aggregatedList(apiVersion: string, items: JsonObject[]): string {
  return JSON.stringify({ kind: 'APIGroupDiscoveryList', apiVersion, metadata: {}, items });
}

function aggregatedGroup(name: string | undefined, versions: [string, JsonObject[]][]): JsonObject {
  const metadata: JsonObject = { creationTimestamp: null };
  if (name !== undefined) metadata['name'] = name;
  return { metadata, versions: versions.map(([version, resources]) => ({ version, resources, freshness: 'Current' })) };
}

const leaseDiscoveryResource: JsonObject = {
  resource: RESOURCE,
  responseKind: { group: '', version: '', kind: KIND },
  scope: 'Namespaced',
  singularResource: SINGULAR,
  verbs: [...VERBS],
};

// core/v1 namespaces, with only the verbs this server serves (see namespaces/namespace-handler.ts):
// kube-apiserver's own entry also lists patch and update, and its status subresource patch and update.
const NAMESPACE_VERBS = ['create', 'delete', 'get', 'list', 'watch'];

const namespaceDiscoveryResource: JsonObject = {
  resource: 'namespaces',
  responseKind: { group: '', version: '', kind: 'Namespace' },
  scope: 'Cluster',
  singularResource: 'namespace',
  verbs: NAMESPACE_VERBS,
  shortNames: ['ns'],
  subresources: [
    { subresource: 'finalize', responseKind: { group: '', version: '', kind: 'Namespace' }, verbs: ['update'] },
    { subresource: 'status', responseKind: { group: '', version: '', kind: 'Namespace' }, verbs: ['get'] },
  ],
};

const namespaceApiResource: JsonObject = {
  name: 'namespaces',
  singularName: 'namespace',
  namespaced: false,
  kind: 'Namespace',
  verbs: NAMESPACE_VERBS,
  shortNames: ['ns'],
  storageVersionHash: 'Q3oi5N2YM8M=',
};

/** The subresources as the legacy APIResourceList names them ("namespaces/finalize"). */
const namespaceSubresources: JsonObject[] = [
  { name: 'namespaces/finalize', singularName: '', namespaced: false, kind: 'Namespace', verbs: ['update'] },
  { name: 'namespaces/status', singularName: '', namespaced: false, kind: 'Namespace', verbs: ['get'] },
];

/** candidateVersions: the group versions serving LeaseCandidate, preferred first (none unless enabled). */
export function buildDiscoveryDocuments(
  release: string,
  serverAddress: string,
  candidateVersions: readonly string[] = [],
): DiscoveryDocuments {
  const groupVersions: [string, JsonObject[]][] = [
    [VERSION, [leaseDiscoveryResource]],
    ...candidateVersions.map((v): [string, JsonObject[]] => [v, [candidateDiscoveryResource()]]),
  ];
  const aggregated = (apiVersion: string): { api: string; apis: string } => ({
    api: aggregatedList(apiVersion, [aggregatedGroup(undefined, [['v1', [namespaceDiscoveryResource]]])]),
    apis: aggregatedList(apiVersion, [aggregatedGroup(GROUP, groupVersions)]),
  });
  const v2 = aggregated('apidiscovery.k8s.io/v2');
  return {
    version: JSON.stringify(versionInfo(release), null, 2),
    api: JSON.stringify({
      kind: 'APIVersions',
      versions: ['v1'],
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
    }),
    apiV1: JSON.stringify({
      kind: 'APIResourceList',
      groupVersion: 'v1',
      resources: [namespaceApiResource, ...namespaceSubresources],
    }),
    apis: JSON.stringify({ kind: 'APIGroupList', apiVersion: 'v1', groups: [apiGroup(candidateVersions)] }),
    group: JSON.stringify({ kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(candidateVersions) }),
    groupVersion: JSON.stringify({
      kind: 'APIResourceList',
      apiVersion: 'v1',
      groupVersion: GROUP_VERSION,
      resources: [
        {
          name: RESOURCE,
          singularName: SINGULAR,
          namespaced: true,
          kind: KIND,
          verbs: [...VERBS],
          storageVersionHash: 'gqkMMb/YqFM=',
        },
      ],
    }),
    versions: Object.fromEntries(candidateVersions.map((v) => [v, candidateResourceList(v)])),
    aggregated: { v2, v2beta1: aggregated('apidiscovery.k8s.io/v2beta1') },
    aggregatedHash: { api: documentHash(v2.api), apis: documentHash(v2.apis) },
  };
}
