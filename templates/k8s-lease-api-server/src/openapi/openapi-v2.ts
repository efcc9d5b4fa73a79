// /openapi/v2: the Swagger 2.0 document kube-apiserver serves (kube-openapi pkg/builder), derived at start-up
// from the served OpenAPI 3 documents. The packaged v3 document was made by the generator from the release's
// swagger.json (generator/load/swagger2-to-open-api3.ts, kube-openapi builder3's mapping); this is its inverse, so
// the definitions come back as upstream's (test/k8s-lease-api-server/openapi/openapi-v2.test.ts compares them with the committed
// upstream swagger.json). Deriving it here, rather than shipping each release's swagger.json, keeps the server
// package at one document per release.
import type { JsonObject, JsonValue } from '../json.js';
import { isJsonObject, objectAt, setOwn } from '../json.js';
import { GROUP } from '../lease-meta.js';

const V3_REF = '#/components/schemas/';
const V2_REF = '#/definitions/';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'] as const;

/** A v3 schema as v2 writes it: `#/definitions/` references, and `allOf: [{$ref}]` with siblings back to `$ref` with siblings. */
export function toV2Schema(schema: JsonValue): JsonValue {
  if (Array.isArray(schema)) return schema.map(toV2Schema);
  if (!isJsonObject(schema)) return schema;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$ref' && typeof value === 'string') out[key] = value.replace(V3_REF, V2_REF);
    else if (key === 'enum' || key === 'default' || key === 'example' || key.startsWith('x-')) setOwn(out, key, value);
    else if (key === 'properties' && isJsonObject(value)) {
      const properties: JsonObject = {};
      for (const [name, property] of Object.entries(value)) setOwn(properties, name, toV2Schema(property));
      out[key] = properties;
    } else setOwn(out, key, toV2Schema(value));
  }
  const allOf = out['allOf'];
  if (Array.isArray(allOf) && allOf.length === 1 && isJsonObject(allOf[0]) && Object.keys(allOf[0]).join() === '$ref') {
    const { allOf: _wrapped, ...siblings } = out;
    return { $ref: allOf[0]['$ref'] ?? '', ...siblings };
  }
  return out;
}

/** A v3 parameter as v2's: the schema's fields sit on the parameter itself. */
function toV2Parameter(parameter: JsonValue): JsonObject {
  if (!isJsonObject(parameter)) return {};
  const { schema, ...rest } = parameter;
  const out: JsonObject = { ...rest };
  if (isJsonObject(schema)) for (const [key, value] of Object.entries(schema)) setOwn(out, key, value);
  // kube-openapi's v2 builder marks every query and path parameter uniqueItems (a go-restful leftover).
  if (out['in'] !== 'body') out['uniqueItems'] = true;
  return out;
}

function contentTypes(content: JsonValue | undefined): string[] {
  return isJsonObject(content) ? Object.keys(content) : [];
}

function firstSchema(content: JsonValue | undefined): JsonValue | undefined {
  if (!isJsonObject(content)) return undefined;
  for (const media of Object.values(content))
    if (isJsonObject(media) && media['schema'] !== undefined) return media['schema'];
  return undefined;
}

/** A v3 operation as v2's: the request body becomes the `body` parameter, media types become consumes/produces. */
function toV2Operation(operation: JsonObject): JsonObject {
  const out: JsonObject = {};
  const requestBody = objectAt(operation, 'requestBody');
  const produces = new Set<string>();
  const responses: JsonObject = {};
  for (const [code, response] of Object.entries(objectAt(operation, 'responses') ?? {})) {
    if (!isJsonObject(response)) continue;
    for (const type of contentTypes(response['content'])) produces.add(type);
    const schema = firstSchema(response['content']);
    const v2: JsonObject = { description: response['description'] ?? '' };
    if (schema !== undefined) v2['schema'] = toV2Schema(schema);
    setOwn(responses, code, v2);
  }
  // go-restful routes without a body consume */*, except the group version's discovery route (no
  // x-kubernetes-action), which is declared to consume what it produces.
  const consumes = contentTypes(requestBody?.['content']);
  const discovery = requestBody === undefined && operation['x-kubernetes-action'] === undefined;
  out['consumes'] = consumes.length > 0 ? consumes : discovery ? [...produces] : ['*/*'];
  const parameters: JsonObject[] = [];
  if (requestBody !== undefined) {
    const body: JsonObject = { in: 'body', name: 'body' };
    if (requestBody['required'] === true) body['required'] = true;
    body['schema'] = toV2Schema(firstSchema(requestBody['content']) ?? {});
    parameters.push(body);
  }
  const others = operation['parameters'];
  if (Array.isArray(others)) parameters.push(...others.map(toV2Parameter));
  for (const [key, value] of Object.entries(operation)) {
    if (key === 'requestBody' || key === 'responses' || key === 'parameters') continue;
    setOwn(out, key, value);
  }
  if (parameters.length > 0) out['parameters'] = parameters;
  out['produces'] = [...produces];
  out['responses'] = responses;
  out['schemes'] = ['https'];
  return out;
}

function toV2PathItem(item: JsonObject): JsonObject {
  const out: JsonObject = {};
  const shared = item['parameters'];
  if (Array.isArray(shared)) out['parameters'] = shared.map(toV2Parameter);
  for (const method of METHODS) {
    const operation = item[method];
    if (isJsonObject(operation)) out[method] = toV2Operation(operation);
  }
  return out;
}

/** The names of definitions `value` references, directly. */
function referencedNames(value: JsonValue, into: Set<string>): void {
  if (Array.isArray(value)) for (const item of value) referencedNames(item, into);
  else if (isJsonObject(value))
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string' && child.startsWith(V2_REF)) into.add(child.slice(V2_REF.length));
      else referencedNames(child, into);
    }
}

/** The definitions the paths reach, as kube-openapi only emits the types its routes use. */
function reachable(paths: JsonObject, definitions: JsonObject): JsonObject {
  const seen = new Set<string>();
  const pending = new Set<string>();
  referencedNames(paths, pending);
  while (pending.size > 0) {
    const [name = ''] = pending;
    pending.delete(name);
    if (seen.has(name)) continue;
    seen.add(name);
    const definition = definitions[name];
    if (definition !== undefined) referencedNames(definition, pending);
  }
  const out: JsonObject = {};
  for (const name of [...seen].sort()) {
    const definition = definitions[name];
    if (definition !== undefined) setOwn(out, name, definition);
  }
  return out;
}

/** One served group version's v3 document, and the version its paths are served under. */
export interface ServedDocument {
  version: string;
  document: JsonObject;
}

/**
 * The Swagger 2.0 document of the served group versions: each document contributes its paths under
 * /apis/coordination.k8s.io/<version>/ (a packaged document also holds versions this server does not serve)
 * and the definitions those paths reach.
 */
export function openApiV2Document(release: string, served: readonly ServedDocument[]): JsonObject {
  const paths: JsonObject = {};
  const definitions: JsonObject = {};
  for (const { version, document } of served) {
    const prefix = `/apis/${GROUP}/${version}/`;
    for (const [path, item] of Object.entries(objectAt(document, 'paths') ?? {}))
      if (path.startsWith(prefix) && isJsonObject(item)) setOwn(paths, path, toV2PathItem(item));
    const schemas = objectAt(objectAt(document, 'components') ?? {}, 'schemas') ?? {};
    for (const [name, schema] of Object.entries(schemas))
      if (definitions[name] === undefined) setOwn(definitions, name, toV2Schema(schema));
  }
  const sortedPaths: JsonObject = {};
  for (const path of Object.keys(paths).sort()) setOwn(sortedPaths, path, paths[path] ?? {});
  return {
    swagger: '2.0',
    info: { title: 'Kubernetes', version: `v${release}` },
    paths: sortedPaths,
    definitions: reachable(sortedPaths, definitions),
    securityDefinitions: {
      BearerToken: { description: 'Bearer Token authentication', in: 'header', name: 'authorization', type: 'apiKey' },
    },
    security: [{ BearerToken: [] }],
  };
}
