import { describe, expect, it } from 'vitest';
import { requiredFields } from '../../../generator/emit/example-values.js';
import type { ModelIr, PropertyIr, TypeRef } from '../../../generator/ir/types.js';

const property = (name: string, type: TypeRef, required = true): PropertyIr => ({
  name,
  type,
  required,
  description: '',
});
const object = (name: string, properties: PropertyIr[]): ModelIr => ({
  name,
  schemaName: `io.example.${name}`,
  description: '',
  shape: { kind: 'object', properties, additionalProperties: undefined },
});

const MODELS: ModelIr[] = [
  object('Thing', [
    property('metadata', { kind: 'model', name: 'ObjectMeta' }),
    property('value', { kind: 'integer', format: 'int32' }),
    property('mode', { kind: 'string', enum: ['Fast', 'Slow'] }),
    property('ports', { kind: 'array', items: { kind: 'integer' } }),
    property('spec', { kind: 'model', name: 'ThingSpec' }),
    property('since', { kind: 'model', name: 'Time' }),
    property('optional', { kind: 'string' }, false),
    property('x-odd name', { kind: 'boolean' }),
  ]),
  object('ThingSpec', [property('self', { kind: 'model', name: 'ThingSpec' }), property('id', { kind: 'string' })]),
  { name: 'Time', schemaName: 'io.example.Time', description: '', shape: { kind: 'timestamp', precision: 'seconds' } },
  object('ObjectMeta', [property('name', { kind: 'string' }, false)]),
];

describe('requiredFields: a body built from what the schema requires', () => {
  it('gives each required field but metadata a value of its type, quoting names and recursing once into models', () => {
    expect(requiredFields(MODELS[0], MODELS)).toBe(
      "value: 1, mode: 'Fast', ports: [], spec: { self: {}, id: 'example' }, since: '2025-01-01T00:00:00Z', \"x-odd name\": true",
    );
  });

  it('nothing for a model that requires nothing, or none at all', () => {
    expect(requiredFields(MODELS[3], MODELS)).toBe('');
    expect(requiredFields(undefined, MODELS)).toBe('');
  });
});
