import type { TypeRef } from './types.js';

/**
 * The canonical text of an IR type, for the golden tables and the API diff: everything the spec says
 * about the type and nothing TypeScript adds, so two types print alike exactly when they are alike.
 * `integer(int32)`, `number(double)`, `string(date-time)`, `"a" | "b"`, `Lease[]`, `{ [key: string]: string }`,
 * and ` | null` when nullable.
 */
export function describeType(type: TypeRef): string {
  return orNull(type, describeShape(type));
}

/** The text of a type, with ` | null` when it is nullable: the same in the description and in TypeScript. */
export function orNull(type: TypeRef, text: string): string {
  return type.nullable === true ? `${text} | null` : text;
}

function describeShape(type: TypeRef): string {
  switch (type.kind) {
    case 'model':
      return type.name;
    case 'string': {
      const scalar = withFormat('string', type.format);
      if (type.enum === undefined) return scalar;
      const values = type.enum.map((v) => JSON.stringify(v)).join(' | ');
      return type.format === undefined ? values : `${scalar}: ${values}`;
    }
    case 'integer':
    case 'number':
      return withFormat(type.kind, type.format);
    case 'boolean':
      return 'boolean';
    case 'array': {
      const items = describeType(type.items);
      return /[|:]/.test(items) ? `Array<${items}>` : `${items}[]`;
    }
    case 'map':
      return `{ [key: string]: ${describeType(type.values)} }`;
    case 'object':
      return 'object';
    case 'unknown':
      return 'unknown';
  }
}

function withFormat(kind: string, format: string | undefined): string {
  return format === undefined ? kind : `${kind}(${format})`;
}
