import { GeneratorError } from '../errors.js';

/** JSON helpers every stage uses; pure, so the IR and the emitters need not import a module that does I/O. */

export type JsonObject = { [key: string]: unknown };

/** JSON text of an input file; a syntax error is a one-line `not-json` error naming the file. */
export function parseJsonFile(file: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new GeneratorError('not-json', `not JSON: ${(cause as Error).message}`, { file });
  }
}

/**
 * Sets a key taken from spec text as an own property. Assignment would not do: `object['__proto__'] = v`
 * replaces the prototype instead (JSON.parse, by contrast, keeps `"__proto__"` as an own key, and so must we).
 */
export function setOwn(object: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Reads a key taken from spec text, never from Object.prototype (`constructor`, `toString`, `__proto__`). */
export function getOwn(object: JsonObject, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

export function isJsonObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
