import SwaggerParser from '@apidevtools/swagger-parser';
import { GeneratorError } from '../errors.js';
import type { JsonObject } from '../shared/json.js';

/**
 * Schema-validates a document with swagger-parser. It works on a deep copy
 * because swagger-parser dereferences in place.
 */
export async function validateWithSwaggerParser(document: JsonObject, file: string): Promise<void> {
  try {
    await SwaggerParser.validate(structuredClone(document) as unknown as Parameters<typeof SwaggerParser.validate>[0]);
  } catch (cause) {
    const message = (cause as Error).message
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .slice(0, 2)
      .join(' ');
    throw new GeneratorError('invalid-openapi', `invalid OpenAPI document: ${message}`, { file });
  }
}
