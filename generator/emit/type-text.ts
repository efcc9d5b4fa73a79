import type { TypeRef } from '../ir/types.js';
import { orNull } from '../ir/type-description.js';

/**
 * TypeScript type text for an IR type description. Formats have no TypeScript form (int32 and int64 are
 * both `number`), which is why the golden tables and the API diff print the IR's description instead.
 */
export function typeText(type: TypeRef): string {
  return orNull(type, shapeText(type));
}

function shapeText(type: TypeRef): string {
  switch (type.kind) {
    case 'model':
      return type.name;
    case 'string':
      return type.enum !== undefined ? type.enum.map((v) => JSON.stringify(v)).join(' | ') : 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array': {
      const items = typeText(type.items);
      return /[|&]/.test(items) ? `Array<${items}>` : `${items}[]`;
    }
    case 'map':
      return `{ [key: string]: ${typeText(type.values)} }`;
    case 'object':
      return '{ [key: string]: unknown }';
    case 'unknown':
      return 'unknown';
  }
}

/**
 * A key of an object literal: `__proto__: v` there would set the prototype instead of a property
 * (ECMAScript's __proto__ literal rule); only the computed form makes it an own key.
 */
export function objectLiteralKey(name: string): string {
  return name === '__proto__' ? `[${JSON.stringify(name)}]` : propertyName(name);
}

/** A property name as it must be written: bare when it is an identifier, quoted otherwise. */
export function propertyName(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name);
}
