// The OpenAPI v3 document of coordination.k8s.io/<version> for LeaseCandidate (what `kubectl explain` and
// kubectl's field-validation probe read), derived from the release's Lease document: kube-apiserver
// generates both from one template, so the paths, operations and parameters are the Lease's with the
// resource, kind and group version changed. The LeaseCandidate schemas carry upstream's descriptions.
import type { JsonObject, JsonValue } from '../json.js';
import { isJsonObject, objectAt } from '../json.js';
import type { CandidateVersion } from './candidate-resource.js';
import { hasStrategyList } from './candidate-resource.js';

const LEASE_SCHEMA = 'io.k8s.api.coordination.v1.Lease';
const META = '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.';

const MICRO_TIME_REF = `${META}MicroTime`;
const SPEC_DESCRIPTIONS: Record<string, string> = {
  binaryVersion:
    'BinaryVersion is the binary version. It must be in a semver format without leading `v`. This field is required.',
  emulationVersion:
    'EmulationVersion is the emulation version. It must be in a semver format without leading `v`. EmulationVersion must be less than or equal to BinaryVersion. This field is required when strategy is "OldestEmulationVersion"',
  leaseName:
    'LeaseName is the name of the lease for which this candidate is contending. The limits on this field are the same as on Lease.name. Multiple lease candidates may reference the same Lease.name. This field is immutable.',
  pingTime:
    'PingTime is the last time that the server has requested the LeaseCandidate to renew. It is only done during leader election to check if any LeaseCandidates have become ineligible. When PingTime is updated, the LeaseCandidate will respond by updating RenewTime.',
  renewTime:
    'RenewTime is the time that the LeaseCandidate was last updated. Any time a Lease needs to do leader election, the PingTime field is updated to signal to the LeaseCandidate that they should update the RenewTime. Old LeaseCandidate objects are also garbage collected if it has been hours since the last renew. The PingTime field is updated regularly to prevent garbage collection for still active LeaseCandidates.',
  strategy:
    'Strategy is the strategy that coordinated leader election will use for picking the leader. If multiple candidates for the same Lease return different strategies, the strategy provided by the candidate with the latest BinaryVersion will be used. If there is still conflict, this is a user error and coordinated leader election will not operate the Lease until resolved.',
  preferredStrategies:
    'PreferredStrategies indicates the list of strategies for picking the leader for coordinated leader election. The list is ordered, and the first strategy supersedes all other strategies. (Alpha) Using this field requires the CoordinatedLeaderElection feature gate to be enabled.',
};

function schemaName(version: CandidateVersion, kind: string): string {
  return `io.k8s.api.coordination.${version}.${kind}`;
}

function ref(name: string, description?: string): JsonObject {
  const node: JsonObject = { allOf: [{ $ref: `#/components/schemas/${name}` }] };
  if (description !== undefined) node['description'] = description;
  return node;
}

function gvk(version: CandidateVersion, kind: string): JsonObject {
  return { group: 'coordination.k8s.io', kind, version };
}

function specSchema(version: CandidateVersion): JsonObject {
  const text = (key: string): JsonObject => ({
    type: 'string',
    default: '',
    description: SPEC_DESCRIPTIONS[key] ?? '',
  });
  const properties: JsonObject = {
    binaryVersion: text('binaryVersion'),
    emulationVersion: text('emulationVersion'),
    leaseName: text('leaseName'),
    pingTime: { allOf: [{ $ref: MICRO_TIME_REF }], description: SPEC_DESCRIPTIONS['pingTime'] ?? '' },
    renewTime: { allOf: [{ $ref: MICRO_TIME_REF }], description: SPEC_DESCRIPTIONS['renewTime'] ?? '' },
  };
  if (hasStrategyList(version)) {
    properties['preferredStrategies'] = {
      type: 'array',
      items: { type: 'string', default: '' },
      'x-kubernetes-list-type': 'atomic',
      description: SPEC_DESCRIPTIONS['preferredStrategies'] ?? '',
    };
  } else {
    properties['strategy'] = text('strategy');
  }
  const required = hasStrategyList(version)
    ? ['leaseName', 'preferredStrategies']
    : ['leaseName', 'binaryVersion', 'strategy'];
  return { description: 'LeaseCandidateSpec is a specification of a Lease.', type: 'object', required, properties };
}

/** The three LeaseCandidate schemas; apiVersion, kind and metadata read as the Lease's do. */
function candidateSchemas(lease: JsonObject, version: CandidateVersion): JsonObject {
  const props = objectAt(lease, 'properties') ?? {};
  const typeMeta = (key: string): JsonValue => props[key] ?? { type: 'string' };
  return {
    [schemaName(version, 'LeaseCandidate')]: {
      description:
        'LeaseCandidate defines a candidate for a Lease object. Candidates are created such that coordinated leader election will pick the best leader from the list of candidates.',
      type: 'object',
      properties: {
        apiVersion: typeMeta('apiVersion'),
        kind: typeMeta('kind'),
        metadata: typeMeta('metadata'),
        spec: ref(
          schemaName(version, 'LeaseCandidateSpec'),
          'spec contains the specification of the Lease. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status',
        ),
      },
      'x-kubernetes-group-version-kind': [gvk(version, 'LeaseCandidate')],
    },
    [schemaName(version, 'LeaseCandidateList')]: {
      description: 'LeaseCandidateList is a list of Lease objects.',
      type: 'object',
      required: ['items'],
      properties: {
        apiVersion: typeMeta('apiVersion'),
        items: {
          description: 'items is a list of schema objects.',
          type: 'array',
          items: ref(schemaName(version, 'LeaseCandidate')),
        },
        kind: typeMeta('kind'),
        metadata: ref(
          'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta',
          'Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata',
        ),
      },
      'x-kubernetes-group-version-kind': [gvk(version, 'LeaseCandidateList')],
    },
    [schemaName(version, 'LeaseCandidateSpec')]: specSchema(version),
  };
}

/** Rewrites one node of the Lease's paths for LeaseCandidate: references, group-version-kinds, operation ids, tags and texts. */
function rewrite(value: JsonValue, version: CandidateVersion, key: string | undefined): JsonValue {
  if (Array.isArray(value)) return value.map((item) => rewrite(item, version, key));
  if (isJsonObject(value)) {
    if (key === 'x-kubernetes-group-version-kind' && value['kind'] === 'Lease') return gvk(version, 'LeaseCandidate');
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(value)) out[k] = rewrite(v, version, k);
    return out;
  }
  if (typeof value !== 'string') return value;
  const versionTitle = `${version[0]?.toUpperCase() ?? ''}${version.slice(1)}`;
  switch (key) {
    case '$ref':
      return value.startsWith(`#/components/schemas/${LEASE_SCHEMA}`)
        ? value.replace(LEASE_SCHEMA, schemaName(version, 'LeaseCandidate'))
        : value;
    case 'operationId':
      return value
        .replace('CoordinationV1', `Coordination${versionTitle}`)
        .replace(/Lease(?=List|ForAllNamespaces|$)/, 'LeaseCandidate');
    case 'description':
      return value.replace(/\bLease\b/g, 'LeaseCandidate');
    default:
      return value === 'coordination_v1' ? `coordination_${version}` : value;
  }
}

/** The document, or undefined when the Lease document lacks the Lease schema (a caller's own partial document). */
export function candidateOpenApiDocument(leaseDocument: JsonObject, version: CandidateVersion): JsonObject | undefined {
  const schemas = objectAt(objectAt(leaseDocument, 'components') ?? {}, 'schemas') ?? {};
  const lease = objectAt(schemas, LEASE_SCHEMA);
  if (lease === undefined) return undefined;
  const paths: JsonObject = {};
  for (const [path, item] of Object.entries(objectAt(leaseDocument, 'paths') ?? {})) {
    const renamed = path
      .replace('/coordination.k8s.io/v1/', `/coordination.k8s.io/${version}/`)
      .replace(/\/leases(?=\/|$)/, '/leasecandidates');
    paths[renamed] = rewrite(item, version, undefined);
  }
  const shared: JsonObject = {};
  for (const [name, schema] of Object.entries(schemas))
    if (!name.startsWith('io.k8s.api.coordination.v1.')) shared[name] = schema;
  return {
    openapi: leaseDocument['openapi'] ?? '3.0.0',
    info: { title: `Kubernetes coordination.k8s.io/${version}`, version: 'unversioned' },
    paths,
    components: { schemas: { ...shared, ...candidateSchemas(lease, version) } },
  };
}
