// Which Lease fields exist, and their types, as declared by the release's OpenAPI document.
// Built once at start so that writes can decode strictly without walking the document per request.
import type { JsonObject, JsonValue } from '../json.js';
import { isJsonObject, objectAt, stringAt } from '../json.js';

export type FieldSchema =
  | { type: 'object'; goName: string; fields: Map<string, FieldSchema> }
  | { type: 'map'; values: FieldSchema }
  | { type: 'array'; items: FieldSchema }
  | { type: 'string' }
  | { type: 'integer'; format: 'int32' | 'int64' }
  | { type: 'number' }
  | { type: 'boolean' }
  | { type: 'time' }
  | { type: 'microTime' }
  | { type: 'any' };

export type ObjectSchema = Extract<FieldSchema, { type: 'object' }>;

const ANY: FieldSchema = { type: 'any' };

function schemasOf(doc: JsonObject): JsonObject {
  return objectAt(objectAt(doc, 'components') ?? {}, 'schemas') ?? objectAt(doc, 'definitions') ?? {};
}

function refName(node: JsonObject): string | undefined {
  const ref = stringAt(node, '$ref');
  if (ref !== undefined) return ref.slice(ref.lastIndexOf('/') + 1);
  const allOf = node['allOf'];
  if (Array.isArray(allOf) && allOf.length === 1 && isJsonObject(allOf[0])) return refName(allOf[0]);
  return undefined;
}

function isLeaseGvk(entry: JsonValue): boolean {
  return (
    isJsonObject(entry) &&
    entry['group'] === 'coordination.k8s.io' &&
    entry['version'] === 'v1' &&
    entry['kind'] === 'Lease'
  );
}

/** Finds the Lease schema by its group-version-kind, falling back to the conventional name. */
export function findLeaseSchemaName(doc: JsonObject): string | undefined {
  const schemas = schemasOf(doc);
  for (const [name, schema] of Object.entries(schemas)) {
    const gvks = isJsonObject(schema) ? schema['x-kubernetes-group-version-kind'] : undefined;
    if (Array.isArray(gvks) && gvks.some(isLeaseGvk)) return name;
  }
  return Object.hasOwn(schemas, 'io.k8s.api.coordination.v1.Lease') ? 'io.k8s.api.coordination.v1.Lease' : undefined;
}

class SchemaBuilder {
  private readonly named = new Map<string, FieldSchema>();

  constructor(private readonly schemas: JsonObject) {}

  byName(name: string, depth: number): FieldSchema {
    if (name.endsWith('.MicroTime')) return { type: 'microTime' };
    if (name.endsWith('.Time')) return { type: 'time' };
    if (name.endsWith('.FieldsV1') || name.endsWith('.RawExtension')) return ANY;
    const cached = this.named.get(name);
    if (cached !== undefined) return cached;
    const node = objectAt(this.schemas, name);
    if (node === undefined || depth > 20) return ANY;
    const built = this.build(node, name.slice(name.lastIndexOf('.') + 1), depth + 1);
    this.named.set(name, built);
    return built;
  }

  build(node: JsonObject, goName: string, depth: number): FieldSchema {
    const ref = refName(node);
    if (ref !== undefined) return this.byName(ref, depth);
    const type = stringAt(node, 'type');
    const properties = objectAt(node, 'properties');
    if (properties !== undefined) {
      const fields = new Map<string, FieldSchema>();
      for (const [key, child] of Object.entries(properties)) {
        fields.set(key, isJsonObject(child) ? this.build(child, goName, depth + 1) : ANY);
      }
      return { type: 'object', goName, fields };
    }
    const additional = node['additionalProperties'];
    if (isJsonObject(additional)) return { type: 'map', values: this.build(additional, goName, depth + 1) };
    switch (type) {
      case 'array': {
        const items = objectAt(node, 'items');
        return { type: 'array', items: items === undefined ? ANY : this.build(items, goName, depth + 1) };
      }
      case 'string':
        return { type: 'string' };
      case 'integer':
        return { type: 'integer', format: stringAt(node, 'format') === 'int64' ? 'int64' : 'int32' };
      case 'number':
        return { type: 'number' };
      case 'boolean':
        return { type: 'boolean' };
      default:
        return ANY;
    }
  }
}

/** Returns the Lease's field tree, or undefined when the document does not describe Lease. */
export function buildLeaseSchema(doc: JsonObject): ObjectSchema | undefined {
  const name = findLeaseSchemaName(doc);
  if (name === undefined) return undefined;
  const built = new SchemaBuilder(schemasOf(doc)).byName(name, 0);
  return built.type === 'object' ? built : undefined;
}

/** Field names of a nested object schema, e.g. ['spec'] → LeaseSpec's properties. */
export function fieldNamesAt(schema: ObjectSchema, path: string[]): string[] {
  let node: FieldSchema = schema;
  for (const key of path) {
    if (node.type !== 'object') return [];
    node = node.fields.get(key) ?? ANY;
  }
  return node.type === 'object' ? [...node.fields.keys()] : [];
}
