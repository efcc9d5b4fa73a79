// structured-merge-diff's view of a resource's schema: scalars, maps (structs are maps with named
// fields) and lists, each map and list either atomic or granular. Kubernetes behaviour encoded by hand:
// the OpenAPI extensions of ObjectMeta (finalizers `x-kubernetes-list-type: set`, ownerReferences
// `map` keyed by uid, OwnerReference `x-kubernetes-map-type: atomic`) and SMD's defaults (lists without
// a list type are atomic, maps and structs are granular, untyped values are "deduced").
import type { JsonValue } from '../json.js';
import { isJsonObject } from '../json.js';
import type { FieldSchema, ObjectSchema } from '../schema/field-schema.js';

export type SmdType =
  | { kind: 'scalar' }
  | { kind: 'map'; fields: ReadonlyMap<string, SmdType>; elements: SmdType | undefined; atomic: boolean }
  | { kind: 'list'; relation: 'atomic' | 'set' | 'associative'; keys: readonly string[]; items: SmdType }
  | { kind: 'deduced' };

export type ResolvedType = Exclude<SmdType, { kind: 'deduced' }>;

const SCALAR: SmdType = { kind: 'scalar' };
const DEDUCED: SmdType = { kind: 'deduced' };
const NO_FIELDS: ReadonlyMap<string, SmdType> = new Map();
/** SMD's deduced map: granular, every key an element of deduced type. */
const DEDUCED_MAP: ResolvedType = { kind: 'map', fields: NO_FIELDS, elements: DEDUCED, atomic: false };
const DEDUCED_LIST: ResolvedType = { kind: 'list', relation: 'atomic', keys: [], items: DEDUCED };

/** Structs the Kubernetes OpenAPI marks `x-kubernetes-map-type: atomic` among those a Lease can hold. */
const ATOMIC_STRUCTS = new Set(['OwnerReference']);

function listType(owner: string, field: string, items: SmdType): SmdType {
  if (owner === 'ObjectMeta' && field === 'finalizers') return { kind: 'list', relation: 'set', keys: [], items };
  if (owner === 'ObjectMeta' && field === 'ownerReferences')
    return { kind: 'list', relation: 'associative', keys: ['uid'], items };
  return { kind: 'list', relation: 'atomic', keys: [], items };
}

function convert(schema: FieldSchema, owner: string, field: string, seen: Map<FieldSchema, SmdType>): SmdType {
  const known = seen.get(schema);
  if (known !== undefined) return known;
  switch (schema.type) {
    case 'object': {
      const fields = new Map<string, SmdType>();
      const out: SmdType = { kind: 'map', fields, elements: undefined, atomic: ATOMIC_STRUCTS.has(schema.goName) };
      seen.set(schema, out);
      for (const [name, child] of schema.fields) fields.set(name, convert(child, schema.goName, name, seen));
      return out;
    }
    case 'map':
      return { kind: 'map', fields: NO_FIELDS, elements: convert(schema.values, owner, field, seen), atomic: false };
    case 'array':
      return listType(owner, field, convert(schema.items, owner, field, seen));
    case 'any':
      return DEDUCED;
    default:
      return SCALAR;
  }
}

/** The SMD type of a resource from the field tree the server built from its OpenAPI document. */
export function smdTypeOf(schema: ObjectSchema): SmdType {
  return convert(schema, '', '', new Map());
}

/** Resolves a deduced type against the value it describes (SMD's deduceAtom). */
export function resolveType(type: SmdType, value: JsonValue | undefined): ResolvedType {
  if (type.kind !== 'deduced') return type;
  if (isJsonObject(value)) return DEDUCED_MAP;
  if (Array.isArray(value)) return DEDUCED_LIST;
  return { kind: 'scalar' };
}

/** The type of a map's entry: its named field, or the map's element type. */
export function childType(type: ResolvedType, key: string): SmdType {
  if (type.kind !== 'map') return DEDUCED;
  return type.fields.get(key) ?? type.elements ?? DEDUCED;
}

export function hasNamedField(type: ResolvedType, key: string): boolean {
  return type.kind === 'map' && type.fields.has(key);
}

/**
 * The path element (FieldsV1 key) of a granular list's item: `k:{"uid":…}` for a keyed list (keys in
 * name order, as SMD sorts them), `v:<json>` for a set.
 */
export function listItemElement(type: Extract<ResolvedType, { kind: 'list' }>, item: JsonValue): string {
  if (type.relation === 'associative') {
    const key: { [name: string]: JsonValue } = {};
    for (const name of [...type.keys].sort()) {
      const value = isJsonObject(item) ? item[name] : undefined;
      if (value !== undefined) key[name] = value;
    }
    return `k:${JSON.stringify(key)}`;
  }
  return `v:${JSON.stringify(item)}`;
}
