import { readFile } from 'node:fs/promises';
import { GeneratorError } from '../errors.js';

export type JsonObject = { [key: string]: unknown };

/** The two forms Kubernetes publishes: the whole-API Swagger 2.0 document and per-group OpenAPI 3 documents. */
export type UpstreamDocument =
  | { readonly format: 'swagger2'; readonly file: string; readonly document: JsonObject }
  | { readonly format: 'openapi3'; readonly file: string; readonly document: JsonObject };

export async function readUpstreamDocument(file: string): Promise<UpstreamDocument> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    throw new GeneratorError('io', `cannot read: ${(cause as NodeJS.ErrnoException).code ?? String(cause)}`, { file });
  }
  return parseUpstreamDocument(file, text);
}

/** JSON text of an input file; a syntax error is a one-line `not-json` error naming the file. */
export function parseJsonFile(file: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new GeneratorError('not-json', `not JSON: ${(cause as Error).message}`, { file });
  }
}

export function parseUpstreamDocument(file: string, text: string): UpstreamDocument {
  const parsed = parseJsonFile(file, text);
  if (!isJsonObject(parsed)) {
    throw new GeneratorError('not-openapi', 'not a Swagger 2.0 or OpenAPI 3.x document: the top level is not an object', { file });
  }
  if (parsed['swagger'] === '2.0') return { format: 'swagger2', file, document: parsed };
  if (typeof parsed['openapi'] === 'string' && /^3\.[01]\.\d+$/.test(parsed['openapi'])) {
    return { format: 'openapi3', file, document: parsed };
  }
  const version = parsed['swagger'] ?? parsed['openapi'];
  const detail =
    version === undefined
      ? 'not a Swagger 2.0 or OpenAPI 3.x document: neither a "swagger" nor an "openapi" field'
      : `not a Swagger 2.0 or OpenAPI 3.x document: unsupported version ${JSON.stringify(version)}`;
  throw new GeneratorError('not-openapi', detail, { file, pointer: parsed['openapi'] !== undefined ? '/openapi' : parsed['swagger'] !== undefined ? '/swagger' : undefined });
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
