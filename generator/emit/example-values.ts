// Example values for the README: a body of a kind built from what its schema requires, so that an example compiles
// for any kind without assuming a Lease's fields.
import type { ModelIr, TypeRef } from '../ir/types.js';
import { singleQuoted } from './emit-paths.js';
import { propertyName } from './type-text.js';

/** The required fields of a model as object-literal members (`value: 1`), without `metadata` (the example sets it). */
export function requiredFields(model: ModelIr | undefined, models: readonly ModelIr[]): string {
  return model === undefined ? '' : members(model, models, new Set([model.name]));
}

function members(model: ModelIr, models: readonly ModelIr[], seen: ReadonlySet<string>): string {
  if (model.shape.kind !== 'object') return '';
  return model.shape.properties
    .filter((p) => p.required && p.name !== 'metadata')
    .map((p) => `${propertyName(p.name)}: ${exampleValue(p.type, models, seen)}`)
    .join(', ');
}

/** A value of `type`; a model met again on its own path (a recursive schema) is left empty. */
function exampleValue(type: TypeRef, models: readonly ModelIr[], seen: ReadonlySet<string>): string {
  switch (type.kind) {
    case 'model':
      return modelValue(type.name, models, seen);
    case 'string':
      return singleQuoted(type.enum?.[0] ?? 'example');
    case 'integer':
    case 'number':
      return '1';
    case 'boolean':
      return 'true';
    case 'array':
      return '[]';
    case 'map':
    case 'object':
    case 'unknown':
      return '{}';
  }
}

function modelValue(name: string, models: readonly ModelIr[], seen: ReadonlySet<string>): string {
  const model = models.find((m) => m.name === name);
  if (model === undefined || seen.has(name)) return '{}';
  switch (model.shape.kind) {
    case 'timestamp':
      return model.shape.precision === 'seconds' ? "'2025-01-01T00:00:00Z'" : "'2025-01-01T00:00:00.000000Z'";
    case 'alias':
      return exampleValue(model.shape.type, models, new Set([...seen, name]));
    case 'object': {
      const inner = members(model, models, new Set([...seen, name]));
      return inner === '' ? '{}' : `{ ${inner} }`;
    }
  }
}
