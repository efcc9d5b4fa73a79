// Every Kubernetes protobuf message this server reads or writes, in one table. Hand-written: the field
// numbers are facts from k8s.io/api's coordination/v1, v1alpha2, v1beta1 and core/v1 generated.proto and
// k8s.io/apimachinery's pkg/apis/meta/v1 and pkg/runtime generated.proto; beside each number stands how the
// Go struct holds the field, because that decides what gogo-protobuf writes and what the JSON form shows:
// - `pointer`: a Go pointer (or []byte) — written only when set, shown in JSON only when set;
//   any other field is a Go value, always written (its zero value included), as gogo does for proto2 fields
//   generated with nullable=false;
// - `omitEmpty`: the JSON tag's omitempty — a zero Go value is left out of the JSON form.
// Messages with the same fields in several group versions (Lease, LeaseCandidate) share one entry: only the
// envelope's TypeMeta tells the versions apart.

/** Field types the codec knows besides nested messages. */
export type ScalarType =
  | 'string'
  | 'int32'
  | 'int64'
  | 'bool'
  /** map<string, string> (labels, annotations). */
  | 'map'
  /** meta.v1.Time: a Timestamp of which Go keeps whole seconds; RFC 3339 in JSON. */
  | 'time'
  /** meta.v1.MicroTime: a Timestamp of which Go keeps microseconds; RFC 3339 with six digits in JSON. */
  | 'microTime'
  /** meta.v1.FieldsV1 {bytes Raw = 1}: JSON text, a JSON object in the JSON form. */
  | 'fieldsV1';

export type MessageName =
  | 'ObjectMeta'
  | 'ListMeta'
  | 'ShardInfo'
  | 'OwnerReference'
  | 'ManagedFieldsEntry'
  | 'Timestamp'
  | 'DeleteOptions'
  | 'Preconditions'
  | 'Status'
  | 'StatusDetails'
  | 'StatusCause'
  | 'PartialObjectMetadata'
  | 'PartialObjectMetadataList'
  | 'TypeMeta'
  | 'Lease'
  | 'LeaseSpec'
  | 'LeaseList'
  | 'LeaseCandidate'
  | 'LeaseCandidateSpec'
  | 'LeaseCandidateList'
  | 'LeaseCandidateV1alpha1'
  | 'LeaseCandidateSpecV1alpha1'
  | 'LeaseCandidateListV1alpha1'
  | 'Namespace'
  | 'NamespaceSpec'
  | 'NamespaceStatus'
  | 'NamespaceCondition'
  | 'NamespaceList';

export interface FieldSpec {
  number: number;
  /** The JSON key. */
  json: string;
  /** The Go field name, as gogo's decode errors name it ("wrong wireType = 0 for field ObjectMeta"). */
  go: string;
  type: ScalarType | { message: MessageName };
  repeated?: true | undefined;
  pointer?: true | undefined;
  omitEmpty?: true | undefined;
}

type Spec = [number, string, string, FieldSpec['type'], ...('repeated' | 'pointer' | 'omitEmpty')[]];

function fields(...specs: Spec[]): readonly FieldSpec[] {
  // Kept sorted by number: gogo writes fields in ascending number order, and so does the encoder.
  return specs
    .map(([number, json, go, type, ...flags]) => {
      const field: FieldSpec = { number, json, go, type };
      if (flags.includes('repeated')) field.repeated = true;
      if (flags.includes('pointer')) field.pointer = true;
      if (flags.includes('omitEmpty')) field.omitEmpty = true;
      return field;
    })
    .sort((a, b) => a.number - b.number);
}

const msg = (message: MessageName): { message: MessageName } => ({ message });
const OMIT = 'omitEmpty';
const PTR = 'pointer';
const REP = 'repeated';

/** metadata/items of a list kind: ListMeta = 1, repeated items = 2. */
const listOf = (item: MessageName): readonly FieldSpec[] =>
  fields([1, 'metadata', 'ListMeta', msg('ListMeta')], [2, 'items', 'Items', msg(item), REP]);

/** metadata and spec of a Lease or LeaseCandidate. */
const objectWithSpec = (spec: MessageName): readonly FieldSpec[] =>
  fields([1, 'metadata', 'ObjectMeta', msg('ObjectMeta')], [2, 'spec', 'Spec', msg(spec)]);

export const MESSAGES: Readonly<Record<MessageName, readonly FieldSpec[]>> = {
  ObjectMeta: fields(
    [1, 'name', 'Name', 'string', OMIT],
    [2, 'generateName', 'GenerateName', 'string', OMIT],
    [3, 'namespace', 'Namespace', 'string', OMIT],
    [4, 'selfLink', 'SelfLink', 'string', OMIT],
    [5, 'uid', 'UID', 'string', OMIT],
    [6, 'resourceVersion', 'ResourceVersion', 'string', OMIT],
    [7, 'generation', 'Generation', 'int64', OMIT],
    [8, 'creationTimestamp', 'CreationTimestamp', 'time', OMIT],
    [9, 'deletionTimestamp', 'DeletionTimestamp', 'time', PTR],
    [10, 'deletionGracePeriodSeconds', 'DeletionGracePeriodSeconds', 'int64', PTR],
    [11, 'labels', 'Labels', 'map', OMIT],
    [12, 'annotations', 'Annotations', 'map', OMIT],
    [13, 'ownerReferences', 'OwnerReferences', msg('OwnerReference'), REP, OMIT],
    [14, 'finalizers', 'Finalizers', 'string', REP, OMIT],
    [17, 'managedFields', 'ManagedFields', msg('ManagedFieldsEntry'), REP, OMIT],
  ),
  ListMeta: fields(
    [1, 'selfLink', 'SelfLink', 'string', OMIT],
    [2, 'resourceVersion', 'ResourceVersion', 'string', OMIT],
    [3, 'continue', 'Continue', 'string', OMIT],
    [4, 'remainingItemCount', 'RemainingItemCount', 'int64', PTR],
    [5, 'shardInfo', 'ShardInfo', msg('ShardInfo'), PTR],
  ),
  ShardInfo: fields([1, 'selector', 'Selector', 'string']),
  OwnerReference: fields(
    [1, 'kind', 'Kind', 'string'],
    [3, 'name', 'Name', 'string'],
    [4, 'uid', 'UID', 'string'],
    [5, 'apiVersion', 'APIVersion', 'string'],
    [6, 'controller', 'Controller', 'bool', PTR],
    [7, 'blockOwnerDeletion', 'BlockOwnerDeletion', 'bool', PTR],
  ),
  ManagedFieldsEntry: fields(
    [1, 'manager', 'Manager', 'string', OMIT],
    [2, 'operation', 'Operation', 'string', OMIT],
    [3, 'apiVersion', 'APIVersion', 'string', OMIT],
    [4, 'time', 'Time', 'time', PTR],
    [6, 'fieldsType', 'FieldsType', 'string', OMIT],
    [7, 'fieldsV1', 'FieldsV1', 'fieldsV1', PTR],
    [8, 'subresource', 'Subresource', 'string', OMIT],
  ),
  Timestamp: fields([1, 'seconds', 'Seconds', 'int64'], [2, 'nanos', 'Nanos', 'int32']),
  DeleteOptions: fields(
    [1, 'gracePeriodSeconds', 'GracePeriodSeconds', 'int64', PTR],
    [2, 'preconditions', 'Preconditions', msg('Preconditions'), PTR],
    [3, 'orphanDependents', 'OrphanDependents', 'bool', PTR],
    [4, 'propagationPolicy', 'PropagationPolicy', 'string', PTR],
    [5, 'dryRun', 'DryRun', 'string', REP, OMIT],
    [
      6,
      'ignoreStoreReadErrorWithClusterBreakingPotential',
      'IgnoreStoreReadErrorWithClusterBreakingPotential',
      'bool',
      PTR,
    ],
  ),
  Preconditions: fields([1, 'uid', 'UID', 'string', PTR], [2, 'resourceVersion', 'ResourceVersion', 'string', PTR]),
  Status: fields(
    [1, 'metadata', 'ListMeta', msg('ListMeta')],
    [2, 'status', 'Status', 'string', OMIT],
    [3, 'message', 'Message', 'string', OMIT],
    [4, 'reason', 'Reason', 'string', OMIT],
    [5, 'details', 'Details', msg('StatusDetails'), PTR],
    [6, 'code', 'Code', 'int32', OMIT],
  ),
  StatusDetails: fields(
    [1, 'name', 'Name', 'string', OMIT],
    [2, 'group', 'Group', 'string', OMIT],
    [3, 'kind', 'Kind', 'string', OMIT],
    [4, 'causes', 'Causes', msg('StatusCause'), REP, OMIT],
    [5, 'retryAfterSeconds', 'RetryAfterSeconds', 'int32', OMIT],
    [6, 'uid', 'UID', 'string', OMIT],
  ),
  StatusCause: fields(
    [1, 'reason', 'Type', 'string', OMIT],
    [2, 'message', 'Message', 'string', OMIT],
    [3, 'field', 'Field', 'string', OMIT],
  ),
  PartialObjectMetadata: fields([1, 'metadata', 'ObjectMeta', msg('ObjectMeta')]),
  PartialObjectMetadataList: listOf('PartialObjectMetadata'),
  TypeMeta: fields([1, 'apiVersion', 'APIVersion', 'string'], [2, 'kind', 'Kind', 'string']),
  Lease: objectWithSpec('LeaseSpec'),
  LeaseSpec: fields(
    [1, 'holderIdentity', 'HolderIdentity', 'string', PTR],
    [2, 'leaseDurationSeconds', 'LeaseDurationSeconds', 'int32', PTR],
    [3, 'acquireTime', 'AcquireTime', 'microTime', PTR],
    [4, 'renewTime', 'RenewTime', 'microTime', PTR],
    [5, 'leaseTransitions', 'LeaseTransitions', 'int32', PTR],
    [6, 'strategy', 'Strategy', 'string', PTR],
    [7, 'preferredHolder', 'PreferredHolder', 'string', PTR],
  ),
  LeaseList: listOf('Lease'),
  LeaseCandidate: objectWithSpec('LeaseCandidateSpec'),
  LeaseCandidateSpec: fields(
    [1, 'leaseName', 'LeaseName', 'string'],
    [2, 'pingTime', 'PingTime', 'microTime', PTR],
    [3, 'renewTime', 'RenewTime', 'microTime', PTR],
    [4, 'binaryVersion', 'BinaryVersion', 'string'],
    [5, 'emulationVersion', 'EmulationVersion', 'string', OMIT],
    [6, 'strategy', 'Strategy', 'string', OMIT],
  ),
  LeaseCandidateList: listOf('LeaseCandidate'),
  // coordination/v1alpha1 (served by 1.31) had a repeated preferredStrategies where later versions have strategy.
  LeaseCandidateV1alpha1: objectWithSpec('LeaseCandidateSpecV1alpha1'),
  LeaseCandidateSpecV1alpha1: fields(
    [1, 'leaseName', 'LeaseName', 'string'],
    [2, 'pingTime', 'PingTime', 'microTime', PTR],
    [3, 'renewTime', 'RenewTime', 'microTime', PTR],
    [4, 'binaryVersion', 'BinaryVersion', 'string'],
    [5, 'emulationVersion', 'EmulationVersion', 'string', OMIT],
    [6, 'preferredStrategies', 'PreferredStrategies', 'string', REP, OMIT],
  ),
  LeaseCandidateListV1alpha1: listOf('LeaseCandidateV1alpha1'),
  Namespace: fields(
    [1, 'metadata', 'ObjectMeta', msg('ObjectMeta')],
    [2, 'spec', 'Spec', msg('NamespaceSpec')],
    [3, 'status', 'Status', msg('NamespaceStatus')],
  ),
  NamespaceSpec: fields([1, 'finalizers', 'Finalizers', 'string', REP, OMIT]),
  NamespaceStatus: fields(
    [1, 'phase', 'Phase', 'string', OMIT],
    [2, 'conditions', 'Conditions', msg('NamespaceCondition'), REP, OMIT],
  ),
  NamespaceCondition: fields(
    [1, 'type', 'Type', 'string'],
    [2, 'status', 'Status', 'string'],
    [4, 'lastTransitionTime', 'LastTransitionTime', 'time', OMIT],
    [5, 'reason', 'Reason', 'string', OMIT],
    [6, 'message', 'Message', 'string', OMIT],
  ),
  NamespaceList: listOf('Namespace'),
};

/**
 * The envelope messages, read and written by hand around the raw bytes they carry (runtime/generated.proto
 * Unknown and RawExtension, meta/v1 WatchEvent). Field numbers only.
 */
export const UNKNOWN = { typeMeta: 1, raw: 2, contentEncoding: 3, contentType: 4 } as const;
export const RAW_EXTENSION = { raw: 1 } as const;
export const WATCH_EVENT = { type: 1, object: 2 } as const;
export const FIELDS_V1 = { raw: 1 } as const;

/** The Go type name gogo's errors use ("proto: LeaseCandidateSpec: illegal tag 0 …"), where it is not the table's key. */
export function goMessageName(name: MessageName): string {
  return name.replace(/V1alpha1$/, '');
}

/** The message of a served kind in a group version (LeaseCandidate's fields changed after v1alpha1). */
export function messagesOf(apiVersion: string, kind: string): { item: MessageName; list: MessageName } | undefined {
  switch (kind) {
    case 'Lease':
      return { item: 'Lease', list: 'LeaseList' };
    case 'LeaseCandidate':
      return apiVersion.endsWith('/v1alpha1')
        ? { item: 'LeaseCandidateV1alpha1', list: 'LeaseCandidateListV1alpha1' }
        : { item: 'LeaseCandidate', list: 'LeaseCandidateList' };
    case 'Namespace':
      return { item: 'Namespace', list: 'NamespaceList' };
    default:
      return undefined;
  }
}

/** The fields of a message by number, for the decoder. */
export const FIELDS_BY_NUMBER: ReadonlyMap<MessageName, ReadonlyMap<number, FieldSpec>> = new Map(
  (Object.keys(MESSAGES) as MessageName[]).map((name) => [
    name,
    new Map(MESSAGES[name].map((field) => [field.number, field])),
  ]),
);
