// Field sets in structured-merge-diff's model (sigs.k8s.io/structured-merge-diff fieldpath): set algebra as
// set_test.go TestSetUnion / TestSetIntersectionDifference, printing as path_test.go TestPathString, and
// FieldsV1 as serialize_test.go TestSerializeV1GoldenData / TestDeserializeForValidNonNormalized.
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../../templates/k8s-lease-api-server/src/json.js';
import {
  type FieldPath,
  type FieldSet,
  difference,
  fromFieldsV1,
  intersection,
  joinPath,
  pathElements,
  pathToString,
  setsEqual,
  sortedPaths,
  splitByHead,
  toFieldsV1,
  union,
} from '../../../templates/k8s-lease-api-server/src/managed/field-set.js';

/** A path from its FieldsV1 elements (what SMD's MakePathOrDie builds from names, indexes, keys and values). */
const path = (...elements: string[]): FieldPath => elements.reduce(joinPath, '');
const set = (...paths: FieldPath[]): FieldSet => new Set(paths);
const NAME_FIRST = 'k:{"name":"first"}';

describe('set algebra', () => {
  it('unions (TestSetUnion)', () => {
    const s1 = set(path('f:foo', 'i:0'), path('f:foo'), path('f:bar', 'f:baz'), path('f:qux', NAME_FIRST));
    const s2 = set(path('f:foo', 'i:1'), path('f:bar', 'f:baz'), path('f:bar'), path('f:qux', 'k:{"name":"second"}'));
    const expected = set(
      path('f:foo', 'i:0'),
      path('f:foo', 'i:1'),
      path('f:foo'),
      path('f:bar', 'f:baz'),
      path('f:bar'),
      path('f:qux', NAME_FIRST),
      path('f:qux', 'k:{"name":"second"}'),
    );
    expect(setsEqual(union(s1, s2), expected)).toBe(true);
    expect(setsEqual(union(s1, s2), s1)).toBe(false);
  });

  it('intersects and subtracts (TestSetIntersectionDifference)', () => {
    const s1 = set(
      path('f:a0'),
      path('f:a1'),
      path('f:foo', 'i:0'),
      path('f:foo', 'i:1'),
      path('f:b0', NAME_FIRST),
      path('f:b1', NAME_FIRST),
      path('f:bar', 'f:c0'),
      path('f:cp', NAME_FIRST, 'f:child'),
    );
    const s2 = set(
      path('f:a1'),
      path('f:a2'),
      path('f:foo', 'i:1'),
      path('f:foo', 'i:2'),
      path('f:b1', NAME_FIRST),
      path('f:b2', NAME_FIRST),
      path('f:bar', 'f:c2'),
      path('f:cp', NAME_FIRST),
    );
    expect([...intersection(s1, s2)].sort()).toEqual(
      [path('f:a1'), path('f:foo', 'i:1'), path('f:b1', NAME_FIRST)].sort(),
    );
    expect([...difference(s1, s2)].sort()).toEqual(
      [
        path('f:a0'),
        path('f:foo', 'i:0'),
        path('f:b0', NAME_FIRST),
        path('f:bar', 'f:c0'),
        path('f:cp', NAME_FIRST, 'f:child'),
      ].sort(),
    );
    expect([...difference(s2, s1)].sort()).toEqual(
      [
        path('f:a2'),
        path('f:foo', 'i:2'),
        path('f:b2', NAME_FIRST),
        path('f:bar', 'f:c2'),
        path('f:cp', NAME_FIRST),
      ].sort(),
    );
  });

  it('splits a set by first element', () => {
    const split = splitByHead(
      set(path('f:spec'), path('f:spec', 'f:holderIdentity'), path('f:metadata', 'f:labels', 'f:a')),
    );
    expect([...split.exact]).toEqual(['f:spec']);
    expect([...(split.below.get('f:spec') ?? [])]).toEqual(['f:holderIdentity']);
    expect([...(split.below.get('f:metadata') ?? [])].map(pathElements)).toEqual([['f:labels', 'f:a']]);
  });
});

describe('pathToString (TestPathString)', () => {
  it.each<[string[], string]>([
    [['f:foo', 'i:1'], '.foo[1]'],
    [['f:foo', 'f:bar', 'i:1', 'f:baz'], '.foo.bar[1].baz'],
    [['f:foo', 'k:{"a":"b","c":1,"d":1.5,"e":true}'], '.foo[a="b",c=1,d=1.5,e=true]'],
    [['f:foo', 'v:"b"', 'v:5', 'v:false', 'v:3.14159'], '.foo[="b"][=5][=false][=3.14159]'],
    [['f:spec'], '.spec'],
    [
      ['f:spec', 'f:apps', 'k:{"name":"app-🚀"}', 'f:container', 'f:image'],
      '.spec.apps[name="app-🚀"].container.image',
    ],
    [['f:spec', 'f:field with space'], '.spec.field with space'],
    [['f:spec', 'f:apps', 'v:"app with space"', 'f:container'], '.spec.apps[="app with space"].container'],
    [['f:spec', 'f:apps', 'v:"app with \\"quotes\\""', 'f:image'], '.spec.apps[="app with \\"quotes\\""].image'],
  ])('%j → %s', (elements, printed) => {
    expect(pathToString(path(...elements))).toBe(printed);
  });
});

describe('FieldsV1', () => {
  it('writes a set back as it read it (TestSerializeV1GoldenData, the app/port example)', () => {
    const golden =
      '{"f:spec":{".":{},"f:apps":{".":{},"k:{\\"name\\":\\" app-💻\\"}":{".":{},"f:container":{".":{},"f:image":{},"f:name":{},"f:ports":{".":{},"k:{\\"name\\":\\"port 🔑\\"}":{".":{},"f:containerPort":{},"f:name":{}}}},"f:name":{}},"k:{\\"name\\":\\" app-🚀\\"}":{".":{},"f:container":{".":{},"f:image":{},"f:name":{},"f:ports":{".":{},"k:{\\"name\\":\\"port-✅ \\"}":{".":{},"f:containerPort":{},"f:name":{}}}},"f:name":{}}}}}';
    const decoded = fromFieldsV1(JSON.parse(golden));
    expect(decoded.ok && JSON.stringify(toFieldsV1(decoded.value))).toBe(golden);
    expect(decoded.ok && decoded.value.size).toBe(20);
  });

  it('normalises keys and values and orders fields before keys (TestDeserializeForValidNonNormalized)', () => {
    const decoded = fromFieldsV1({
      'f:aab': {},
      'f:aaa': {},
      'k:{ "protocol":"udp","port":443}': {},
      'k:{"port":443,"protocol":"tcp"}': {},
      'v: "x"': {},
    });
    expect(decoded.ok && JSON.stringify(toFieldsV1(decoded.value))).toBe(
      '{"f:aaa":{},"f:aab":{},"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{},"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{},"v:\\"x\\"":{}}',
    );
  });

  it('orders values, keys and indexes as SMD compares them (element.go PathElement.Compare, value.go CompareUsing), not as strings', () => {
    const fields = toFieldsV1(
      set(
        path('v:true'),
        path('v:"b"'),
        path('v:10'),
        path('v:9'),
        path('v:2.5'),
        path('v:null'),
        path('v:[1]'),
        path('v:{"a":1}'),
        path('v:false'),
        path('k:{"a":10}'),
        path('k:{"a":9}'),
        path('k:{"a":1,"b":1}'),
        path('k:{"a":1}'),
        path('i:10'),
        path('i:9'),
      ),
    );
    expect(Object.keys(fields)).toEqual([
      // FieldList.Compare: field by field (name, then value.Compare); the shorter first when one is a prefix.
      'k:{"a":1}',
      'k:{"a":1,"b":1}',
      'k:{"a":9}',
      'k:{"a":10}',
      // value.Compare: numbers (numerically), strings, false before true, lists, maps, null.
      'v:2.5',
      'v:9',
      'v:10',
      'v:"b"',
      'v:false',
      'v:true',
      'v:[1]',
      'v:{"a":1}',
      'v:null',
      'i:9',
      'i:10',
    ]);
  });

  it('orders field names by their UTF-8 bytes, as strings.Compare does', () => {
    // U+FF5E (UTF-16 0xFF5E, UTF-8 EF BD 9E) and U+1F680 (UTF-16 0xD83D…, UTF-8 F0 9F 9A 80): UTF-16 puts the
    // rocket first, Go's byte order puts it last.
    expect(Object.keys(toFieldsV1(set(path('f:🚀'), path('f:～'))))).toEqual(['f:～', 'f:🚀']);
  });

  it('marks a member that has children with "."', () => {
    expect(toFieldsV1(set(path('f:metadata'), path('f:metadata', 'f:labels')))).toEqual({
      'f:metadata': { '.': {}, 'f:labels': {} },
    });
    expect(toFieldsV1(set())).toEqual({});
  });

  it.each<[string, JsonValue]>([
    ['a key of an unknown kind', { 'x:a': {} }],
    ['a key that is not JSON', { 'k:{': {} }],
    ['a key that is not an object', { 'k:[1]': {} }],
    ['an index with a leading zero', { 'i:01': {} }],
    ['a child that is not an object', { 'f:a': 1 }],
    ['a document that is not an object', []],
  ])('refuses %s', (_what, fields) => {
    expect(fromFieldsV1(fields).ok).toBe(false);
  });

  it('reads no FieldsV1 as the empty set', () => {
    expect(fromFieldsV1(undefined)).toEqual({ ok: true, value: new Set() });
  });
});

describe('sortedPaths', () => {
  it('orders element by element: fields, then keys, then values, a parent before its children', () => {
    const paths = [
      path('f:metadata', 'f:finalizers', 'v:"b"'),
      path('f:spec'),
      path('f:metadata', 'f:ownerReferences', 'k:{"uid":"1"}'),
      path('f:metadata', 'f:finalizers', 'v:"a"'),
      path('f:metadata'),
    ];
    expect(sortedPaths(new Set(paths)).map(pathToString)).toEqual([
      '.metadata',
      '.metadata.finalizers[="a"]',
      '.metadata.finalizers[="b"]',
      '.metadata.ownerReferences[uid="1"]',
      '.spec',
    ]);
  });
});
