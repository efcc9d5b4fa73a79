import { isJsonObject, setOwn, type JsonObject } from '../shared/json.js';
import { resolveLocalRef } from '../shared/json-pointer.js';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'] as const;

/**
 * Converts a self-contained Swagger 2.0 subset (see extractGroupSubset) into
 * OpenAPI 3.0 the way Kubernetes' own v3 publisher (kube-openapi builder3)
 * does, so both upstream forms converge on one normal form: parameters are
 * inlined, body parameters become request bodies with one media type per
 * `consumes` entry, response schemas get one media type per `produces`
 * entry, and a `$ref` with a sibling description is wrapped in `allOf`.
 */
export function swagger2ToOpenApi3(subset: JsonObject): JsonObject {
  const paths: JsonObject = {};
  const sourcePaths = isJsonObject(subset['paths']) ? subset['paths'] : {};
  for (const [path, item] of Object.entries(sourcePaths)) {
    if (!isJsonObject(item)) continue;
    const converted: JsonObject = {};
    if (Array.isArray(item['parameters'])) {
      converted['parameters'] = item['parameters']
        .map((p) => inlineParameter(subset, p))
        .filter((p) => p['in'] !== 'body')
        .map(convertParameter);
    }
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (isJsonObject(operation)) converted[method] = convertOperation(subset, operation);
    }
    setOwn(paths, path, converted);
  }
  const definitions = isJsonObject(subset['definitions']) ? subset['definitions'] : {};
  const schemas: JsonObject = {};
  for (const [name, schema] of Object.entries(definitions)) setOwn(schemas, name, convertSchema(schema));
  return { openapi: '3.0.0', info: subset['info'] ?? {}, paths, components: { schemas } };
}

function inlineParameter(subset: JsonObject, parameter: unknown): JsonObject {
  if (isJsonObject(parameter) && typeof parameter['$ref'] === 'string') {
    const target = resolveLocalRef(subset, parameter['$ref']);
    return isJsonObject(target) ? target : {};
  }
  return isJsonObject(parameter) ? parameter : {};
}

function convertParameter(parameter: JsonObject): JsonObject {
  const { name, in: location, description, required, ...schemaFields } = parameter;
  const converted: JsonObject = { name, in: location };
  if (description !== undefined) converted['description'] = description;
  if (required !== undefined) converted['required'] = required;
  const schema: JsonObject = {};
  for (const [key, value] of Object.entries(schemaFields)) {
    if (key.startsWith('x-')) setOwn(converted, key, value);
    else if (key !== 'collectionFormat' && key !== 'allowEmptyValue') setOwn(schema, key, value);
  }
  converted['schema'] = convertSchema(schema);
  return converted;
}

function convertOperation(subset: JsonObject, operation: JsonObject): JsonObject {
  const converted: JsonObject = {};
  const consumes = stringArray(operation['consumes']) ?? stringArray(subset['consumes']) ?? ['application/json'];
  const produces = stringArray(operation['produces']) ?? stringArray(subset['produces']) ?? ['application/json'];
  for (const [key, value] of Object.entries(operation)) {
    if (key === 'consumes' || key === 'produces' || key === 'schemes' || key === 'security') continue;
    if (key === 'parameters' && Array.isArray(value)) {
      const inlined = value.map((p) => inlineParameter(subset, p));
      const body = inlined.find((p) => p['in'] === 'body');
      const others = inlined.filter((p) => p['in'] !== 'body').map(convertParameter);
      if (others.length > 0) converted['parameters'] = others;
      if (body !== undefined) {
        const content: JsonObject = {};
        for (const mediaType of consumes) setOwn(content, mediaType, { schema: convertSchema(body['schema']) });
        converted['requestBody'] = body['required'] === true ? { content, required: true } : { content };
      }
      continue;
    }
    if (key === 'responses' && isJsonObject(value)) {
      const responses: JsonObject = {};
      for (const [code, response] of Object.entries(value)) {
        if (!isJsonObject(response)) continue;
        const out: JsonObject = { description: response['description'] ?? '' };
        if (response['schema'] !== undefined) {
          const content: JsonObject = {};
          for (const mediaType of produces) setOwn(content, mediaType, { schema: convertSchema(response['schema']) });
          out['content'] = content;
        }
        setOwn(responses, code, out);
      }
      converted['responses'] = responses;
      continue;
    }
    setOwn(converted, key, value);
  }
  return converted;
}

/** Rewrites refs to components and wraps a `$ref` that has siblings in `allOf`, as OpenAPI 3.0 ignores `$ref` siblings. */
export function convertSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(convertSchema);
  if (!isJsonObject(schema)) return schema;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$ref' && typeof value === 'string')
      out[key] = value.replace(/^#\/definitions\//, '#/components/schemas/');
    else if (key.startsWith('x-') || key === 'example' || key === 'enum' || key === 'default') setOwn(out, key, value);
    else if (key === 'properties' && isJsonObject(value)) {
      const props: JsonObject = {};
      for (const [name, prop] of Object.entries(value)) setOwn(props, name, convertSchema(prop));
      out[key] = props;
    } else setOwn(out, key, convertSchema(value));
  }
  if (typeof out['$ref'] === 'string' && Object.keys(out).length > 1) {
    const { $ref, ...siblings } = out;
    return { allOf: [{ $ref }], ...siblings };
  }
  return out;
}

function stringArray(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : undefined;
}
