// managedFields encoding, as apimachinery's managedfields/internal/managedfields_test.go and
// fieldmanager.go isResetManagedFields define it.
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../templates/k8s-lease-api-server/src/json.js';
import {
  decodeManagedFields,
  encodeManagedFields,
  isResetManagedFields,
  managerIdentifier,
  sortEncodedManagedFields,
} from '../../../templates/k8s-lease-api-server/src/managed/managed-fields.js';

const SOURCE = 'apimachinery managedfields/internal/managedfields_test.go';

describe(`${SOURCE} TestBuildManagerIdentifier`, () => {
  it.each([
    [
      { manager: 'foo', operation: 'Update', apiVersion: 'v1' },
      '{"manager":"foo","operation":"Update","apiVersion":"v1"}',
    ],
    [{ manager: 'foo', operation: 'Apply', apiVersion: 'v1' }, '{"manager":"foo","operation":"Apply"}'],
    [
      { manager: 'foo', operation: 'Apply', apiVersion: 'v1', subresource: 'scale' },
      '{"manager":"foo","operation":"Apply","subresource":"scale"}',
    ],
  ])('%j → %s', (info, expected) => expect(managerIdentifier(info)).toBe(expected));
});

const e = (manager: string, operation: string, time?: string): JsonObject =>
  time === undefined ? { manager, operation } : { manager, operation, time };

describe(`${SOURCE} TestSortEncodedManagedFields`, () => {
  const T1 = '2001-01-01T01:00:00Z';
  const T2 = '2002-01-01T01:00:00Z';
  const T3 = '2003-01-01T01:00:00Z';
  it.each([
    ['remains untouched', [e('a', 'Apply'), e('a', 'Update', T1)], [e('a', 'Apply'), e('a', 'Update', T1)]],
    [
      'manager without time first name last',
      [e('a', 'Apply', T1), e('b', 'Apply'), e('a', 'Apply')],
      [e('a', 'Apply'), e('b', 'Apply'), e('a', 'Apply', T1)],
    ],
    ['apply first', [e('a', 'Update', T1), e('a', 'Apply')], [e('a', 'Apply'), e('a', 'Update', T1)]],
    [
      'newest last',
      [e('c', 'Update', T1), e('a', 'Apply'), e('c', 'Update', T2), e('b', 'Apply')],
      [e('a', 'Apply'), e('b', 'Apply'), e('c', 'Update', T1), e('c', 'Update', T2)],
    ],
    [
      'manager sorted',
      [
        e('c', 'Update', T1),
        e('a', 'Apply'),
        e('g', 'Apply'),
        e('f', 'Update', T2),
        e('i', 'Apply'),
        e('d', 'Update', T2),
        e('h', 'Apply'),
        e('e', 'Update', T3),
        e('b', 'Apply'),
      ],
      [
        e('a', 'Apply'),
        e('b', 'Apply'),
        e('g', 'Apply'),
        e('h', 'Apply'),
        e('i', 'Apply'),
        e('c', 'Update', T1),
        e('d', 'Update', T2),
        e('f', 'Update', T2),
        e('e', 'Update', T3),
      ],
    ],
  ])('%s', (_name, input, expected) => expect(sortEncodedManagedFields(input)).toEqual(expected));
});

describe(`${SOURCE} TestRoundTripManagedFields (FieldsV1 decode and encode)`, () => {
  it('re-encodes what it decodes, "." and key order included', () => {
    const entries: JsonObject[] = [
      {
        manager: 'foo',
        operation: 'Update',
        apiVersion: 'coordination.k8s.io/v1',
        time: '2001-02-03T04:05:06Z',
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:metadata': {
            'f:finalizers': { '.': {}, 'v:"a"': {} },
            'f:labels': { '.': {}, 'f:app': {} },
            'f:ownerReferences': { 'k:{"uid":"u1"}': {} },
          },
          'f:spec': { 'f:holderIdentity': {} },
        },
      },
    ];
    const decoded = decodeManagedFields(entries);
    if (!decoded.ok) throw new Error(decoded.error);
    expect(encodeManagedFields(decoded.value)).toEqual(entries);
  });

  it.each([
    [{ operation: 'Bogus' }, 'operation must be `Apply` or `Update`'],
    [{ operation: 'Update' }, 'apiVersion must not be empty'],
    [{ operation: 'Update', apiVersion: 'v1' }, 'missing fieldsType in managed fields entry 0'],
    [
      { operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV2' },
      'invalid fieldsType "FieldsV2" in managed fields entry 0',
    ],
  ])('refuses %j: %s (TestHasOperation, TestHasAPIVersion, TestHasFieldsType)', (entry, message) => {
    expect(decodeManagedFields([entry])).toEqual({ ok: false, error: message });
  });
});

describe('apimachinery managedfields/internal/fieldmanager.go isResetManagedFields', () => {
  it.each([
    [[], true],
    [[{}], true],
    [[{ manager: '' }], true],
    [[{ fieldsV1: {} }], false],
    [[{}, {}], false],
    [undefined, false],
    [[{ manager: 'm' }], false],
  ])('%j → %s', (value, reset) => expect(isResetManagedFields(value)).toBe(reset));
});

// fieldmanager.go decodes managedFields on every write (DecodeManagedFields) and re-encodes them
// (EncodeObjectManagedFields). Here a write's managedFields are a copy of the live ones, so the same content
// must decode to the same set and encode to the same object without redoing either: a 500 KB fieldsV1 otherwise
// costs ~0.5 s a write (issue 29 item 5).
describe('decoding and encoding a large fieldsV1 once', () => {
  const big = (): JsonObject => {
    const labels: JsonObject = {};
    for (let i = 0; i < 20_000; i++) labels[`f:k${i}`] = {};
    return {
      manager: 'forger',
      operation: 'Update',
      apiVersion: 'coordination.k8s.io/v1',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:metadata': { 'f:labels': labels } },
    };
  };

  it('decodes equal content in a new array to the same set, and encodes that set to the same object', () => {
    const first = decodeManagedFields([big()]);
    const again = decodeManagedFields([big()]);
    if (!first.ok || !again.ok) throw new Error('the entries do not decode');
    const [firstSet] = [...first.value.fields.values()].map((v) => v.set);
    const [againSet] = [...again.value.fields.values()].map((v) => v.set);
    expect(againSet).toBe(firstSet);
    const encoded = encodeManagedFields(first.value)?.[0]?.['fieldsV1'];
    expect(encodeManagedFields(again.value)?.[0]?.['fieldsV1']).toBe(encoded);
    expect(Object.keys((encoded as { 'f:metadata': { 'f:labels': object } })['f:metadata']['f:labels'])).toHaveLength(
      20_000,
    );
  });

  it('still refuses content that does not decode, every time', () => {
    const bad = { ...big(), fieldsV1: { 'x:nope': {} } };
    expect(decodeManagedFields([bad]).ok).toBe(false);
    expect(decodeManagedFields([{ ...bad }]).ok).toBe(false);
  });
});
