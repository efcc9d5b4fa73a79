// structured-merge-diff's view of the Lease schema: ObjectMeta's list extensions in the Kubernetes OpenAPI
// (finalizers x-kubernetes-list-type set; ownerReferences map keyed by uid with OwnerReference
// x-kubernetes-map-type atomic), SMD's defaults (a list without a list type is atomic, structs and maps granular,
// an untyped value deduced from what it holds: schema/elements.go, typed/helpers.go deduceAtom), and the path
// element of a list item (fieldpath.PathElement: k:{keys sorted by name} or v:<value>).
import { describe, expect, it } from 'vitest';
import {
  type ResolvedType,
  type SmdType,
  childType,
  hasNamedField,
  listItemElement,
  resolveType,
  smdTypeOf,
} from '../../../templates/k8s-lease-api-server/src/managed/smd-type.js';
import { LEASE_SCHEMA } from '../helpers/lease-schema.js';

const LEASE_TYPE: ResolvedType = resolveType(smdTypeOf(LEASE_SCHEMA), {});

function typeAt(root: ResolvedType, ...keys: string[]): SmdType {
  let type: SmdType = root;
  for (const key of keys) type = childType(resolveType(type, undefined), key);
  return type;
}

describe('smdTypeOf the Lease', () => {
  const lease = LEASE_TYPE;

  it('makes finalizers a set and ownerReferences a list keyed by uid of atomic items', () => {
    expect(typeAt(lease, 'metadata', 'finalizers')).toEqual({
      kind: 'list',
      relation: 'set',
      keys: [],
      items: { kind: 'scalar' },
    });
    const owners = typeAt(lease, 'metadata', 'ownerReferences');
    expect(owners).toMatchObject({ kind: 'list', relation: 'associative', keys: ['uid'] });
    expect(owners.kind === 'list' && owners.items).toMatchObject({ kind: 'map', atomic: true });
  });

  it('leaves other lists atomic, and structs and maps granular', () => {
    expect(typeAt(lease, 'metadata', 'managedFields')).toMatchObject({ kind: 'list', relation: 'atomic' });
    expect(typeAt(lease, 'spec')).toMatchObject({ kind: 'map', atomic: false });
    expect(typeAt(lease, 'metadata', 'labels')).toMatchObject({
      kind: 'map',
      atomic: false,
      elements: { kind: 'scalar' },
    });
    expect(typeAt(lease, 'spec', 'holderIdentity')).toEqual({ kind: 'scalar' });
    expect(hasNamedField(resolveType(typeAt(lease, 'spec'), undefined), 'holderIdentity')).toBe(true);
    expect(hasNamedField(resolveType(typeAt(lease, 'metadata', 'labels'), undefined), 'app')).toBe(false);
  });

  it('deduces an untyped value from what it holds', () => {
    const untyped = typeAt(lease, 'spec', 'unknownField');
    expect(untyped).toEqual({ kind: 'deduced' });
    expect(resolveType(untyped, { a: 1 })).toMatchObject({ kind: 'map', atomic: false });
    expect(resolveType(untyped, [1])).toMatchObject({ kind: 'list', relation: 'atomic' });
    expect(resolveType(untyped, 'x')).toEqual({ kind: 'scalar' });
  });
});

describe('listItemElement', () => {
  it('keys an associative item by its key fields in name order, a set item by its value', () => {
    const keyed: Extract<ResolvedType, { kind: 'list' }> = {
      kind: 'list',
      relation: 'associative',
      keys: ['protocol', 'port'],
      items: { kind: 'deduced' },
    };
    expect(listItemElement(keyed, { protocol: 'TCP', name: 'x', port: 80 })).toBe('k:{"port":80,"protocol":"TCP"}');
    const set: Extract<ResolvedType, { kind: 'list' }> = {
      kind: 'list',
      relation: 'set',
      keys: [],
      items: { kind: 'scalar' },
    };
    expect(listItemElement(set, 'a')).toBe('v:"a"');
    expect(listItemElement(set, 5)).toBe('v:5');
  });
});
