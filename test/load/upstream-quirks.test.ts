import { describe, expect, it } from 'vitest';
import {
  declareProseEnums,
  deleteCollectionReturnsList,
  dropSchemaDefaults,
  dropUniqueItemsOnScalars,
  restrictGroupVersionKinds,
  typePrettyAsBoolean,
  unwrapBareAllOfRefs,
} from '../../generator/load/upstreamQuirks.js';
import { COORDINATION_V1 } from '../../generator/shared/groupVersion.js';
import { convertSchema } from '../../generator/load/swagger2ToOpenApi3.js';

const REF = { $ref: '#/components/schemas/X' };

describe('upstream quirk fixes', () => {
  it.each([
    ['drops defaults', dropSchemaDefaults, { type: 'object', default: {}, properties: { a: { type: 'string', default: '' } } }, { type: 'object', properties: { a: { type: 'string' } } }],
    ['keeps a property that happens to be called default', dropSchemaDefaults, { properties: { default: { type: 'string' } } }, { properties: { default: { type: 'string' } } }],
    ['unwraps a bare allOf around one $ref', unwrapBareAllOfRefs, { items: { allOf: [REF] } }, { items: REF }],
    ['keeps allOf that carries a description', unwrapBareAllOfRefs, { allOf: [REF], description: 'd' }, { allOf: [REF], description: 'd' }],
    ['drops uniqueItems on scalars', dropUniqueItemsOnScalars, { schema: { type: 'string', uniqueItems: true } }, { schema: { type: 'string' } }],
    ['keeps uniqueItems on arrays', dropUniqueItemsOnScalars, { type: 'array', uniqueItems: true }, { type: 'array', uniqueItems: true }],
    [
      'declares enums spelled out in prose',
      declareProseEnums,
      { name: 'propagationPolicy', in: 'query', schema: { type: 'string' } },
      { name: 'propagationPolicy', in: 'query', schema: { type: 'string', enum: ['Background', 'Foreground', 'Orphan'] } },
    ],
    ['types pretty as a boolean', typePrettyAsBoolean, { name: 'pretty', in: 'query', schema: { type: 'string' } }, { name: 'pretty', in: 'query', schema: { type: 'boolean' } }],
    ['leaves descriptions alone', dropSchemaDefaults, { description: 'default: {}' }, { description: 'default: {}' }],
  ] as const)('%s', (_name, fix, input, expected) => {
    expect(fix(structuredClone(input))).toEqual(expected);
  });

  it('keeps only this group version kinds', () => {
    const input = {
      'x-kubernetes-group-version-kind': [
        { group: '', kind: 'DeleteOptions', version: 'v1' },
        { group: 'coordination.k8s.io', kind: 'DeleteOptions', version: 'v1' },
        { group: 'coordination.k8s.io', kind: 'DeleteOptions', version: 'v1beta1' },
      ],
    };
    expect(restrictGroupVersionKinds(input, COORDINATION_V1)).toEqual({ 'x-kubernetes-group-version-kind': [{ group: 'coordination.k8s.io', kind: 'DeleteOptions', version: 'v1' }] });
    expect(restrictGroupVersionKinds({ 'x-kubernetes-group-version-kind': [{ group: 'apps', kind: 'X', version: 'v1' }] }, COORDINATION_V1)).toEqual({});
  });
});

describe('deletecollection answers with the list it deleted', () => {
  it('takes the list operation\'s 200 schema for the deletecollection 200, keeping its media types', () => {
    const list = { $ref: '#/components/schemas/LeaseList' };
    const paths = {
      '/leases': {
        get: { 'x-kubernetes-action': 'list', responses: { '200': { description: 'OK', content: { 'application/json': { schema: list } } } } },
        delete: { 'x-kubernetes-action': 'deletecollection', responses: { '200': { description: 'OK', content: { 'application/json': { schema: { $ref: '#/components/schemas/Status' } }, 'application/yaml': { schema: { $ref: '#/components/schemas/Status' } } } }, '401': { description: 'Unauthorized' } } },
      },
    };
    const fixed = deleteCollectionReturnsList(paths) as typeof paths;
    expect(fixed['/leases'].delete.responses['200'].content).toEqual({ 'application/json': { schema: list }, 'application/yaml': { schema: list } });
    expect(fixed['/leases'].delete.responses['401']).toEqual({ description: 'Unauthorized' });
    expect(fixed['/leases'].get).toBe(paths['/leases'].get);
  });
});

describe('Swagger 2.0 schema conversion', () => {
  it.each([
    ['rewrites definition refs', { $ref: '#/definitions/a.B' }, { $ref: '#/components/schemas/a.B' }],
    ['wraps a ref with a sibling description in allOf', { $ref: '#/definitions/a.B', description: 'd' }, { allOf: [{ $ref: '#/components/schemas/a.B' }], description: 'd' }],
    ['converts nested items', { type: 'array', items: { $ref: '#/definitions/a.B' } }, { type: 'array', items: { $ref: '#/components/schemas/a.B' } }],
    ['keeps extensions as data', { 'x-kubernetes-patch-merge-key': 'uid', type: 'string' }, { 'x-kubernetes-patch-merge-key': 'uid', type: 'string' }],
  ] as const)('%s', (_name, input, expected) => {
    expect(convertSchema(input)).toEqual(expected);
  });
});
