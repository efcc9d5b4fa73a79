// What sigs.k8s.io/json's strict decoding needs of a type to report unknown and duplicate fields as it meets
// them (internal/golang/encoding/json decode.go object): which keys a struct declares, where a map's keys
// are free, and where decoding leaves the strict checks (an UnmarshalJSON type such as Time or FieldsV1, a
// scalar). Plain data, so the parse worker can be handed it with the body.
import type { FieldSchema } from '../schema/field-schema.js';

export type StrictShape =
  | { kind: 'struct'; fields: Record<string, StrictShape> }
  | { kind: 'map'; values: StrictShape }
  | { kind: 'list'; items: StrictShape }
  | { kind: 'opaque' };

const OPAQUE: StrictShape = { kind: 'opaque' };
const shapes = new WeakMap<FieldSchema, StrictShape>();

/** The shape of a decoded type, built once per schema. */
export function strictShapeOf(schema: FieldSchema): StrictShape {
  const known = shapes.get(schema);
  if (known !== undefined) return known;
  const shape = buildShape(schema);
  shapes.set(schema, shape);
  return shape;
}

function buildShape(schema: FieldSchema): StrictShape {
  switch (schema.type) {
    case 'object': {
      const fields: Record<string, StrictShape> = {};
      for (const [key, field] of schema.fields) fields[key] = strictShapeOf(field);
      return { kind: 'struct', fields };
    }
    case 'map':
      return { kind: 'map', values: strictShapeOf(schema.values) };
    case 'array':
      return { kind: 'list', items: strictShapeOf(schema.items) };
    default:
      return OPAQUE;
  }
}

/** savedStrictErrors' bound: a decode keeps at most this many strict errors (kubernetes_patch.go saveStrictError). */
export const MAX_STRICT_ERRORS = 100;
