// Copied by lease-api-generator from templates/server/http/table.ts. DO NOT EDIT: edit that file and run `npm run generate`.
// meta.k8s.io Table rendering of Leases, with the columns the real server's printer defines.
import type { JsonObject } from '../json.js';
import { objectAt, stringAt } from '../json.js';
import { GROUP_VERSION, KIND } from '../lease-meta.js';
import { humanDuration } from './human-duration.js';

export type IncludeObject = 'None' | 'Metadata' | 'Object';

const COLUMNS: JsonObject[] = [
  {
    name: 'Name',
    type: 'string',
    format: 'name',
    description:
      'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names',
    priority: 0,
  },
  {
    name: 'Holder',
    type: 'string',
    format: '',
    description: 'holderIdentity contains the identity of the holder of a current lease.',
    priority: 0,
  },
  {
    name: 'Age',
    type: 'string',
    format: '',
    description:
      'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata',
    priority: 0,
  },
];

function rowObject(lease: JsonObject, include: IncludeObject, tableVersion: string): JsonObject | undefined {
  if (include === 'None') return undefined;
  if (include === 'Object') return { kind: KIND, apiVersion: GROUP_VERSION, ...lease };
  return { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${tableVersion}`, metadata: objectAt(lease, 'metadata') ?? {} };
}

export function leaseRow(lease: JsonObject, now: number, include: IncludeObject, tableVersion: string): JsonObject {
  const metadata = objectAt(lease, 'metadata') ?? {};
  const created = stringAt(metadata, 'creationTimestamp');
  const age = created === undefined ? '<unknown>' : humanDuration(now - Date.parse(created));
  const row: JsonObject = { cells: [stringAt(metadata, 'name') ?? '', stringAt(objectAt(lease, 'spec'), 'holderIdentity') ?? '', age] };
  const object = rowObject(lease, include, tableVersion);
  if (object !== undefined) row['object'] = object;
  return row;
}

export interface TableMeta {
  resourceVersion: string;
  continueToken?: string | undefined;
  remainingItemCount?: number | undefined;
}

export function leaseTable(leases: JsonObject[], meta: TableMeta, now: number, include: IncludeObject, tableVersion: string): JsonObject {
  const metadata: JsonObject = { resourceVersion: meta.resourceVersion };
  if (meta.continueToken !== undefined) metadata['continue'] = meta.continueToken;
  if (meta.remainingItemCount !== undefined) metadata['remainingItemCount'] = meta.remainingItemCount;
  return {
    kind: 'Table',
    apiVersion: `meta.k8s.io/${tableVersion}`,
    metadata,
    columnDefinitions: COLUMNS,
    rows: leases.map((lease) => leaseRow(lease, now, include, tableVersion)),
  };
}

export function parseIncludeObject(value: string | null): IncludeObject {
  return value === 'None' || value === 'Object' ? value : 'Metadata';
}
