import { readFile } from 'node:fs/promises';
import { GeneratorError } from '../errors.js';
import { isJsonObject, parseJsonFile, type JsonObject } from '../shared/json.js';

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

export function parseUpstreamDocument(file: string, text: string): UpstreamDocument {
  const parsed = parseJsonFile(file, text);
  if (!isJsonObject(parsed)) {
    throw new GeneratorError(
      'not-openapi',
      'not a Swagger 2.0 or OpenAPI 3.x document: the top level is not an object',
      { file },
    );
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
  throw new GeneratorError('not-openapi', detail, {
    file,
    pointer: parsed['openapi'] !== undefined ? '/openapi' : parsed['swagger'] !== undefined ? '/swagger' : undefined,
  });
}
