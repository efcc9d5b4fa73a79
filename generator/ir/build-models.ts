import { GeneratorError } from '../errors.js';
import { isJsonObject, type JsonObject } from '../shared/json.js';
import { joinPointer } from '../shared/json-pointer.js';
import { modelNameOf, typeRefOf } from './type-refs.js';
import type { ModelIr, ModelShape, PropertyIr } from './types.js';

/**
 * Kubernetes' two timestamp schemas are plain `date-time` strings in the
 * spec, but their wire formats are exact: `Time` has second precision and
 * `MicroTime` exactly six fractional digits. They are kept as strings so
 * microseconds survive a round trip.
 */
function timestampPrecision(schemaName: string, schema: JsonObject): 'seconds' | 'microseconds' | undefined {
  if (schema['type'] !== 'string' || schema['format'] !== 'date-time') return undefined;
  return modelNameOf(schemaName) === 'MicroTime' ? 'microseconds' : 'seconds';
}

/**
 * The models of the schemas named in `only` (every schema when absent). One document holds every version of the
 * group, whose kinds share names (v1alpha2 and v1beta1 both have a LeaseCandidate): each group version takes the
 * schemas its own paths reach, and names must be unique only among those.
 */
export function buildModels(document: JsonObject, file: string, only?: ReadonlySet<string>): ModelIr[] {
  const schemas =
    isJsonObject(document['components']) && isJsonObject(document['components']['schemas'])
      ? document['components']['schemas']
      : {};
  const byName = new Map<string, string>();
  const models: ModelIr[] = [];
  for (const schemaName of Object.keys(schemas)
    .filter((name) => only === undefined || only.has(name))
    .sort()) {
    const schema = schemas[schemaName];
    const pointer = joinPointer('/components/schemas', schemaName);
    if (!isJsonObject(schema))
      throw new GeneratorError('unsupported-schema', 'schema is not an object', { file, pointer });
    const name = modelNameOf(schemaName);
    const clash = byName.get(name);
    if (clash !== undefined) {
      throw new GeneratorError(
        'unsupported-schema',
        `schemas ${clash} and ${schemaName} would both be emitted as ${name}`,
        { file, pointer },
      );
    }
    byName.set(name, schemaName);
    models.push({
      name,
      schemaName,
      description: typeof schema['description'] === 'string' ? schema['description'] : '',
      shape: shapeOf(schemaName, schema, { file, pointer }),
    });
  }
  return models;
}

function shapeOf(schemaName: string, schema: JsonObject, context: { file: string; pointer: string }): ModelShape {
  const precision = timestampPrecision(schemaName, schema);
  if (precision !== undefined) return { kind: 'timestamp', precision };
  const properties = schema['properties'];
  if (isJsonObject(properties)) {
    const required = new Set(
      Array.isArray(schema['required']) ? schema['required'].filter((r): r is string => typeof r === 'string') : [],
    );
    const props: PropertyIr[] = Object.keys(properties)
      .sort()
      .map((name) => {
        const prop = properties[name];
        const pointer = joinPointer(context.pointer, 'properties', name);
        return {
          name,
          type: typeRefOf(prop, { file: context.file, pointer }),
          required: required.has(name),
          description: isJsonObject(prop) && typeof prop['description'] === 'string' ? prop['description'] : '',
        };
      });
    const additional = isJsonObject(schema['additionalProperties'])
      ? typeRefOf(schema['additionalProperties'], { ...context, pointer: `${context.pointer}/additionalProperties` })
      : undefined;
    return { kind: 'object', properties: props, additionalProperties: additional };
  }
  return { kind: 'alias', type: typeRefOf(schema, context) };
}
