// The field manager for one served resource: its SMD type (built once per schema) and the group
// versions its objects convert to (the versions of coordination.k8s.io that hold its kind).
import type { ResourceInfo } from '../lease-meta.js';
import type { ObjectSchema } from '../schema/field-schema.js';
import type { FieldManager } from './field-manager.js';
import type { SmdType } from './smd-type.js';
import { smdTypeOf } from './smd-type.js';
import type { EmptiedContainer } from './typed-value.js';
import type { UpdaterSchema } from './updater.js';

// Kubernetes' registrations: Lease in coordination.k8s.io v1 and v1beta1; LeaseCandidate in v1alpha1,
// v1alpha2 and v1beta1. Their versions share every field, so conversion between them is the identity.
const VERSIONS_BY_KIND: Record<string, readonly string[]> = {
  Lease: ['v1', 'v1beta1'],
  LeaseCandidate: ['v1alpha1', 'v1alpha2', 'v1beta1'],
};

const types = new WeakMap<ObjectSchema, SmdType>();

function typeOf(schema: ObjectSchema): SmdType {
  let type = types.get(schema);
  if (type === undefined) {
    type = smdTypeOf(schema);
    types.set(schema, type);
  }
  return type;
}

export function updaterSchema(schema: ObjectSchema, resource: ResourceInfo, emptied: EmptiedContainer): UpdaterSchema {
  const versions = VERSIONS_BY_KIND[resource.kind] ?? [resource.version];
  const group = resource.groupVersion.slice(0, resource.groupVersion.indexOf('/') + 1);
  return {
    type: typeOf(schema),
    convertible: (apiVersion) =>
      apiVersion === resource.groupVersion ||
      (apiVersion.startsWith(group) && versions.includes(apiVersion.slice(group.length))),
    emptied,
  };
}

export function fieldManagerFor(
  schema: ObjectSchema,
  resource: ResourceInfo,
  now: string,
  emptied: EmptiedContainer,
): FieldManager {
  return {
    schema: updaterSchema(schema, resource, emptied),
    groupVersion: resource.groupVersion,
    kind: resource.kind,
    now,
  };
}
