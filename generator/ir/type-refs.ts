import { GeneratorError } from '../errors.js';
import { isJsonObject, type JsonObject } from '../shared/json.js';
import { refTokens } from '../shared/json-pointer.js';
import type { TypeRef, TypeShape } from './types.js';

const SCHEMA_REF_PREFIX = '#/components/schemas/';

/** The TypeScript name of a schema: the last segment of its dotted Go package path. */
export function modelNameOf(schemaName: string): string {
  const segments = schemaName.split('.');
  return segments[segments.length - 1]!;
}

export function schemaNameOfRef(ref: string): string | undefined {
  const tokens = refTokens(ref);
  return ref.startsWith(SCHEMA_REF_PREFIX) && tokens?.length === 3 ? tokens[2] : undefined;
}

/** The single `$ref` a schema stands for, plain or wrapped in a one-element `allOf` (how OpenAPI 3.0 keeps a description beside it). */
export function refOf(schema: Record<string, unknown>): string | undefined {
  if (typeof schema['$ref'] === 'string') return schema['$ref'];
  const allOf = schema['allOf'];
  if (Array.isArray(allOf) && allOf.length === 1 && isJsonObject(allOf[0]) && typeof allOf[0]['$ref'] === 'string')
    return allOf[0]['$ref'];
  return undefined;
}

export function typeRefOf(schema: unknown, context: { file: string; pointer: string }): TypeRef {
  if (!isJsonObject(schema)) return { kind: 'unknown' };
  const shape = typeShapeOf(schema, context);
  return schema['nullable'] === true ? { ...shape, nullable: true } : shape;
}

function typeShapeOf(schema: JsonObject, context: { file: string; pointer: string }): TypeShape {
  const ref = refOf(schema);
  if (ref !== undefined) {
    const schemaName = schemaNameOfRef(ref);
    if (schemaName === undefined)
      throw new GeneratorError(
        'unsupported-schema',
        `$ref ${JSON.stringify(ref)} does not point into #/components/schemas`,
        context,
      );
    return { kind: 'model', name: modelNameOf(schemaName) };
  }
  const format = typeof schema['format'] === 'string' ? schema['format'] : undefined;
  switch (schema['type']) {
    case 'string': {
      const values = Array.isArray(schema['enum'])
        ? schema['enum'].filter((v): v is string => typeof v === 'string')
        : undefined;
      return {
        kind: 'string',
        ...(format !== undefined ? { format } : {}),
        ...(values !== undefined && values.length > 0 ? { enum: values } : {}),
      };
    }
    case 'integer':
      return { kind: 'integer', ...(format !== undefined ? { format } : {}) };
    case 'number':
      return { kind: 'number', ...(format !== undefined ? { format } : {}) };
    case 'boolean':
      return { kind: 'boolean' };
    case 'array':
      return { kind: 'array', items: typeRefOf(schema['items'], { ...context, pointer: `${context.pointer}/items` }) };
    case 'object':
    case undefined: {
      if (isJsonObject(schema['additionalProperties'])) {
        return {
          kind: 'map',
          values: typeRefOf(schema['additionalProperties'], {
            ...context,
            pointer: `${context.pointer}/additionalProperties`,
          }),
        };
      }
      if (isJsonObject(schema['properties'])) {
        throw new GeneratorError(
          'unsupported-schema',
          'inline object schemas with properties are not supported; upstream names every object type',
          context,
        );
      }
      return schema['type'] === 'object' ? { kind: 'object' } : { kind: 'unknown' };
    }
    default:
      throw new GeneratorError(
        'unsupported-schema',
        `unsupported schema type ${JSON.stringify(schema['type'])}`,
        context,
      );
  }
}

/** Models a type refers to, directly. */
export function referencedModels(type: TypeRef): string[] {
  switch (type.kind) {
    case 'model':
      return [type.name];
    case 'array':
      return referencedModels(type.items);
    case 'map':
      return referencedModels(type.values);
    default:
      return [];
  }
}
