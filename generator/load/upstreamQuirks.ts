import { isJsonObject, setOwn, type JsonObject } from '../shared/json.js';
import type { GroupVersion } from '../shared/groupVersion.js';

/*
 * Every known defect or inconsistency of the upstream Kubernetes documents is
 * fixed here and only here, one named function each, applied to the OpenAPI 3
 * form of the extracted subset (whichever upstream form it came from).
 */

/**
 * Upstream's v3 documents carry `default` values (`{}` on nested objects, `""`
 * on strings) that its swagger.json does not have; they describe Go zero
 * values, not server behaviour, and would make the two forms differ.
 */
export function dropSchemaDefaults(node: unknown): unknown {
  return mapDeep(node, (object) => {
    if ('default' in object) {
      const { default: _dropped, ...rest } = object;
      return rest;
    }
    return object;
  });
}

/**
 * Upstream's v3 documents wrap a `$ref` in `allOf` to hang a `default` beside
 * it; once defaults are dropped, a lone `allOf` with no siblings says nothing
 * more than the `$ref` itself (which is what swagger.json has).
 */
export function unwrapBareAllOfRefs(node: unknown): unknown {
  return mapDeep(node, (object) => {
    const allOf = object['allOf'];
    if (Object.keys(object).length === 1 && Array.isArray(allOf) && allOf.length === 1 && isJsonObject(allOf[0]) && typeof allOf[0]['$ref'] === 'string') {
      return allOf[0];
    }
    return object;
  });
}

/**
 * Upstream marks every scalar query and path parameter `uniqueItems: true`, a
 * keyword that only means something for arrays.
 */
export function dropUniqueItemsOnScalars(node: unknown): unknown {
  return mapDeep(node, (object) => {
    if (object['uniqueItems'] !== undefined && object['type'] !== 'array') {
      const { uniqueItems: _dropped, ...rest } = object;
      return rest;
    }
    return object;
  });
}

/**
 * Shared meta types (DeleteOptions, WatchEvent) list a group-version-kind for
 * every API group that uses them, and the list shifts in every release and
 * between the v2 and v3 documents. Only this group's entries describe this
 * group's API.
 */
export function restrictGroupVersionKinds(node: unknown, gv: GroupVersion): unknown {
  return mapDeep(node, (object) => {
    const gvks = object['x-kubernetes-group-version-kind'];
    if (!Array.isArray(gvks)) return object;
    const own = gvks.filter((entry) => isJsonObject(entry) && entry['group'] === gv.group && entry['version'] === gv.version);
    const { 'x-kubernetes-group-version-kind': _dropped, ...rest } = object;
    return own.length > 0 ? { ...rest, 'x-kubernetes-group-version-kind': own } : rest;
  });
}

/**
 * Several query parameters are closed sets of values that upstream spells out
 * only in prose ("Valid values are: - All"), typing them as free strings.
 */
const PROSE_ENUMS: ReadonlyMap<string, readonly string[]> = new Map([
  ['dryRun', ['All']],
  ['fieldValidation', ['Ignore', 'Strict', 'Warn']],
  ['propagationPolicy', ['Background', 'Foreground', 'Orphan']],
  ['resourceVersionMatch', ['Exact', 'NotOlderThan']],
]);

export function declareProseEnums(node: unknown): unknown {
  return mapDeep(node, (object) => {
    const values = typeof object['name'] === 'string' && object['in'] === 'query' ? PROSE_ENUMS.get(object['name']) : undefined;
    if (values === undefined || !isJsonObject(object['schema']) || object['schema']['type'] !== 'string') return object;
    return { ...object, schema: { ...object['schema'], enum: [...values] } };
  });
}

/**
 * The `pretty` parameter is a boolean flag on the wire (`?pretty=true`) but
 * upstream types it as a string.
 */
export function typePrettyAsBoolean(node: unknown): unknown {
  return mapDeep(node, (object) => {
    if (object['name'] !== 'pretty' || object['in'] !== 'query' || !isJsonObject(object['schema'])) return object;
    return { ...object, schema: { ...object['schema'], type: 'boolean' } };
  });
}

/** Keys whose value is a map from user-chosen names (a property called "default" is not the keyword). */
const NAME_MAPS = new Set(['properties', 'paths', 'content', 'responses', 'schemas', 'parameters']);

/**
 * Upstream deprecates the /watch/ operations in prose ("deprecated: use the
 * 'watch' parameter with a list operation instead…") instead of with
 * OpenAPI's `deprecated: true`.
 */
export function markProseDeprecations(node: unknown): unknown {
  return mapDeep(node, (object) => {
    const description = object['description'];
    if (typeof object['operationId'] !== 'string' || typeof description !== 'string' || object['deprecated'] === true) return object;
    return /(^|[.;]\s+)deprecated:/i.test(description) ? { ...object, deprecated: true } : object;
  });
}

/**
 * The spec says a deletecollection answers 200 with a Status, but the API
 * server's generic store answers with the list of the objects it deleted
 * (a LeaseList), as a GET of the same collection would list them.
 */
export function deleteCollectionReturnsList(paths: unknown): unknown {
  if (!isJsonObject(paths)) return paths;
  const fixed: JsonObject = {};
  for (const [path, item] of Object.entries(paths)) {
    setOwn(fixed, path, item);
    if (!isJsonObject(item) || !isJsonObject(item['get']) || !isJsonObject(item['delete'])) continue;
    if (item['get']['x-kubernetes-action'] !== 'list' || item['delete']['x-kubernetes-action'] !== 'deletecollection') continue;
    const listed = okResponse(item['get']);
    const deleted = okResponse(item['delete']);
    if (listed === undefined || deleted === undefined || !isJsonObject(listed['content']) || !isJsonObject(deleted['content'])) continue;
    const listSchema = Object.values(listed['content']).find(isJsonObject)?.['schema'];
    if (listSchema === undefined) continue;
    const content: JsonObject = {};
    for (const mediaType of Object.keys(deleted['content'])) setOwn(content, mediaType, { schema: listSchema });
    const responses = { ...(item['delete']['responses'] as JsonObject), '200': { ...deleted, content } };
    setOwn(fixed, path, { ...item, delete: { ...item['delete'], responses } });
  }
  return fixed;
}

function okResponse(operation: JsonObject): JsonObject | undefined {
  const responses = operation['responses'];
  const ok = isJsonObject(responses) ? responses['200'] : undefined;
  return isJsonObject(ok) ? ok : undefined;
}

function mapDeep(node: unknown, visit: (object: JsonObject) => JsonObject, isNameMap = false): unknown {
  if (Array.isArray(node)) return node.map((child) => mapDeep(child, visit));
  if (!isJsonObject(node)) return node;
  const mapped: JsonObject = {};
  for (const [key, child] of Object.entries(node)) {
    setOwn(mapped, key, !isNameMap && (key === 'description' || key === 'example') ? child : mapDeep(child, visit, !isNameMap && NAME_MAPS.has(key) && !Array.isArray(child)));
  }
  return isNameMap ? mapped : visit(mapped);
}

export function applyUpstreamQuirkFixes(document: JsonObject, gv: GroupVersion): JsonObject {
  let fixed: unknown = document;
  fixed = dropSchemaDefaults(fixed);
  fixed = unwrapBareAllOfRefs(fixed);
  fixed = dropUniqueItemsOnScalars(fixed);
  fixed = restrictGroupVersionKinds(fixed, gv);
  fixed = declareProseEnums(fixed);
  fixed = typePrettyAsBoolean(fixed);
  fixed = markProseDeprecations(fixed);
  const withFlags = fixed as JsonObject;
  return { ...withFlags, paths: deleteCollectionReturnsList(withFlags['paths']) };
}
