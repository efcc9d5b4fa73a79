// meta.k8s.io Table rendering of Leases and LeaseCandidates, with the columns the real server's printers define.
import type { JsonObject } from '../json.js';
import { objectAt, stringAt } from '../json.js';
import type { ResourceInfo } from '../lease-meta.js';
import { LEASE_RESOURCE } from '../lease-meta.js';
import { humanDuration } from 'k8s-lease-client';

/** k8s.io/apiserver/pkg/storage's InitialEventsAnnotationKey. */
export const INITIAL_EVENTS_END_ANNOTATION = 'k8s.io/initial-events-end';

export type IncludeObject = 'None' | 'Metadata' | 'Object';

const NAME_COLUMN: JsonObject = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description:
    'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names',
  priority: 0,
};

const AGE_COLUMN: JsonObject = {
  name: 'Age',
  type: 'string',
  format: '',
  description:
    'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata',
  priority: 0,
};

const COLUMNS: JsonObject[] = [
  NAME_COLUMN,
  {
    name: 'Holder',
    type: 'string',
    format: '',
    description: 'holderIdentity contains the identity of the holder of a current lease.',
    priority: 0,
  },
  AGE_COLUMN,
];

function column(name: string, description: string): JsonObject {
  return { name, type: 'string', format: '', description, priority: 0 };
}

/** pkg/printers/internalversion's leaseCandidateColumnDefinitions (descriptions from LeaseCandidateSpec's docs). */
const CANDIDATE_COLUMNS: JsonObject[] = [
  NAME_COLUMN,
  column(
    'LeaseName',
    'LeaseName is the name of the lease for which this candidate is contending. The limits on this field are the same as on Lease.name. Multiple lease candidates may reference the same Lease.name. This field is immutable.',
  ),
  column(
    'BinaryVersion',
    'BinaryVersion is the binary version. It must be in a semver format without leading `v`. This field is required.',
  ),
  column(
    'EmulationVersion',
    'EmulationVersion is the emulation version. It must be in a semver format without leading `v`. EmulationVersion must be less than or equal to BinaryVersion. This field is required when strategy is "OldestEmulationVersion"',
  ),
  AGE_COLUMN,
];

interface Printer {
  columns: JsonObject[];
  /** The cells between Name and Age. */
  cells(spec: JsonObject | undefined, status: JsonObject | undefined): string[];
}

const LEASE_PRINTER: Printer = { columns: COLUMNS, cells: (spec) => [stringAt(spec, 'holderIdentity') ?? ''] };
const CANDIDATE_PRINTER: Printer = {
  columns: CANDIDATE_COLUMNS,
  cells: (spec) => [
    stringAt(spec, 'leaseName') ?? '',
    stringAt(spec, 'binaryVersion') ?? '',
    stringAt(spec, 'emulationVersion') ?? '',
  ],
};

/** pkg/printers/internalversion's namespaceColumnDefinitions and printNamespace (the phase). */
const NAMESPACE_PRINTER: Printer = {
  columns: [NAME_COLUMN, column('Status', 'The status of the namespace'), AGE_COLUMN],
  cells: (_spec, status) => [stringAt(status, 'phase') ?? ''],
};

function printerFor(resource: ResourceInfo): Printer {
  if (resource.kind === 'Namespace') return NAMESPACE_PRINTER;
  return resource.kind === 'LeaseCandidate' ? CANDIDATE_PRINTER : LEASE_PRINTER;
}

/** storage.HasInitialEventsEndBookmarkAnnotation. */
function endsInitialEvents(object: JsonObject): boolean {
  const metadata = objectAt(object, 'metadata');
  const annotations = metadata === undefined ? undefined : objectAt(metadata, 'annotations');
  return stringAt(annotations, INITIAL_EVENTS_END_ANNOTATION) === 'true';
}

/**
 * asTable's row object: the whole object, its PartialObjectMetadata, or none; the initial-events-end
 * bookmark always carries its metadata, so a Table watch still shows the annotation.
 */
function rowObject(
  lease: JsonObject,
  include: IncludeObject,
  tableVersion: string,
  resource: ResourceInfo,
): JsonObject | undefined {
  if (include === 'Object' && !endsInitialEvents(lease))
    return { kind: resource.kind, apiVersion: resource.groupVersion, ...lease };
  if (include === 'None' && !endsInitialEvents(lease)) return undefined;
  return {
    kind: 'PartialObjectMetadata',
    apiVersion: `meta.k8s.io/${tableVersion}`,
    metadata: objectAt(lease, 'metadata') ?? {},
  };
}

export function leaseRow(
  lease: JsonObject,
  now: number,
  include: IncludeObject,
  tableVersion: string,
  resource: ResourceInfo = LEASE_RESOURCE,
): JsonObject {
  const metadata = objectAt(lease, 'metadata') ?? {};
  const created = stringAt(metadata, 'creationTimestamp');
  const age = created === undefined ? '<unknown>' : humanDuration(now - Date.parse(created));
  const row: JsonObject = {
    cells: [
      stringAt(metadata, 'name') ?? '',
      ...printerFor(resource).cells(objectAt(lease, 'spec'), objectAt(lease, 'status')),
      age,
    ],
  };
  const object = rowObject(lease, include, tableVersion, resource);
  if (object !== undefined) row['object'] = object;
  return row;
}

export interface TableMeta {
  resourceVersion: string;
  /** TableOptions.NoHeaders: a watch's events after the first carry no column definitions (null). */
  noHeaders?: boolean | undefined;
  continueToken?: string | undefined;
  remainingItemCount?: number | undefined;
}

export function leaseTable(
  leases: JsonObject[],
  meta: TableMeta,
  now: number,
  include: IncludeObject,
  tableVersion: string,
  resource: ResourceInfo = LEASE_RESOURCE,
): JsonObject {
  // ListMeta's fields are omitempty.
  const metadata: JsonObject = meta.resourceVersion === '' ? {} : { resourceVersion: meta.resourceVersion };
  if (meta.continueToken !== undefined) metadata['continue'] = meta.continueToken;
  if (meta.remainingItemCount !== undefined) metadata['remainingItemCount'] = meta.remainingItemCount;
  return {
    kind: 'Table',
    apiVersion: `meta.k8s.io/${tableVersion}`,
    metadata,
    columnDefinitions: meta.noHeaders === true ? null : printerFor(resource).columns,
    rows: leases.map((lease) => leaseRow(lease, now, include, tableVersion, resource)),
  };
}
