// The Lease's field tree read from an OpenAPI document (the packaged fallback, a v3 document with
// components/schemas): the Lease found by x-kubernetes-group-version-kind, $ref and single allOf followed, metav1
// Time and MicroTime recognised by name, FieldsV1 and RawExtension untyped, integer formats kept (int32 fields
// such as leaseDurationSeconds are range-checked on decode, int64 ones such as generation are not).
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../templates/k8s-lease-api-server/src/json.js';
import { fallbackOpenApi } from '../../../templates/k8s-lease-api-server/src/openapi/fallback-openapi.js';
import {
  type FieldSchema,
  buildLeaseSchema,
  fieldNamesAt,
  findLeaseSchemaName,
} from '../../../templates/k8s-lease-api-server/src/schema/field-schema.js';
import { LEASE_SCHEMA } from '../helpers/lease-schema.js';

function at(schema: FieldSchema, ...path: string[]): FieldSchema | undefined {
  let node: FieldSchema | undefined = schema;
  for (const key of path) {
    if (node?.type === 'object') node = node.fields.get(key);
    else if (node?.type === 'array' && key === '[]') node = node.items;
    else if (node?.type === 'map' && key === '{}') node = node.values;
    else return undefined;
  }
  return node;
}

describe('buildLeaseSchema', () => {
  it('finds the Lease and its top-level and spec fields', () => {
    expect(findLeaseSchemaName(fallbackOpenApi())).toBe('io.k8s.api.coordination.v1.Lease');
    const schema = LEASE_SCHEMA;
    expect(fieldNamesAt(schema, []).sort()).toEqual(['apiVersion', 'kind', 'metadata', 'spec']);
    expect(fieldNamesAt(schema, ['spec'])).toEqual(
      expect.arrayContaining([
        'acquireTime',
        'holderIdentity',
        'leaseDurationSeconds',
        'leaseTransitions',
        'renewTime',
      ]),
    );
    expect(fieldNamesAt(schema, ['spec', 'holderIdentity'])).toEqual([]);
  });

  it('types the fields as the document declares them', () => {
    const schema = LEASE_SCHEMA;
    expect(at(schema, 'spec', 'leaseDurationSeconds')).toEqual({ type: 'integer', format: 'int32' });
    expect(at(schema, 'metadata', 'generation')).toEqual({ type: 'integer', format: 'int64' });
    expect(at(schema, 'spec', 'acquireTime')).toEqual({ type: 'microTime' });
    expect(at(schema, 'metadata', 'creationTimestamp')).toEqual({ type: 'time' });
    expect(at(schema, 'metadata', 'labels', '{}')).toEqual({ type: 'string' });
    expect(at(schema, 'metadata', 'finalizers', '[]')).toEqual({ type: 'string' });
    expect(at(schema, 'metadata', 'managedFields', '[]', 'fieldsV1')).toEqual({ type: 'any' });
    expect(at(schema, 'metadata', 'ownerReferences', '[]', 'controller')).toEqual({ type: 'boolean' });
    expect(at(schema, 'metadata', 'ownerReferences', '[]')).toMatchObject({ type: 'object', goName: 'OwnerReference' });
  });

  it('finds a Lease under another name by its group-version-kind, in a v2 document too', () => {
    const doc: JsonObject = {
      definitions: {
        MyLease: {
          'x-kubernetes-group-version-kind': [{ group: 'coordination.k8s.io', version: 'v1', kind: 'Lease' }],
          properties: { spec: { allOf: [{ $ref: '#/definitions/MySpec' }] } },
        },
        MySpec: { properties: { holderIdentity: { type: 'string' }, n: { type: 'number' } } },
      },
    };
    expect(findLeaseSchemaName(doc)).toBe('MyLease');
    expect(buildLeaseSchema(doc)).toEqual({
      type: 'object',
      goName: 'MyLease',
      fields: new Map([
        [
          'spec',
          {
            type: 'object',
            goName: 'MySpec',
            fields: new Map<string, FieldSchema>([
              ['holderIdentity', { type: 'string' }],
              ['n', { type: 'number' }],
            ]),
          },
        ],
      ]),
    });
    expect(buildLeaseSchema({ definitions: {} })).toBeUndefined();
  });
});
