import { isJsonObject, setOwn, type JsonObject } from '../../shared/json.js';
import { mapDeep, type Fixup, type FixupOutcome } from './fixup.js';

/*
 * Real defects of the upstream documents: each says something the API server does not do (or leaves
 * unsaid in the schema what it says in prose). Each runs on the releases that have the defect and fails
 * spec:update when it finds nothing to fix, so the fix is narrowed or removed once upstream repairs it.
 */

/** Upstream marks every scalar query and path parameter `uniqueItems: true`, a keyword that only means something for arrays. */
export const dropUniqueItemsOnScalars: Fixup = {
  name: 'dropUniqueItemsOnScalars',
  kind: 'upstream-bug',
  appliesTo: () => true,
  apply: (document) =>
    mapDeep(document, (object) => {
      if (object['uniqueItems'] === undefined || object['type'] === 'array') return object;
      const { uniqueItems: _dropped, ...rest } = object;
      return rest;
    }),
};

/** Closed sets of values that upstream spells out only in prose ("Valid values are: - All"), typing them as free strings. */
const PROSE_ENUMS: ReadonlyMap<string, readonly string[]> = new Map([
  ['dryRun', ['All']],
  ['fieldValidation', ['Ignore', 'Strict', 'Warn']],
  ['propagationPolicy', ['Background', 'Foreground', 'Orphan']],
  ['resourceVersionMatch', ['Exact', 'NotOlderThan']],
]);

export const declareProseEnums: Fixup = {
  name: 'declareProseEnums',
  kind: 'upstream-bug',
  appliesTo: () => true,
  apply: (document) =>
    mapDeep(document, (object) => {
      const values =
        typeof object['name'] === 'string' && object['in'] === 'query' ? PROSE_ENUMS.get(object['name']) : undefined;
      const schema = object['schema'];
      if (values === undefined || !isJsonObject(schema) || schema['type'] !== 'string' || schema['enum'] !== undefined)
        return object;
      return { ...object, schema: { ...schema, enum: [...values] } };
    }),
};

/** The `pretty` parameter is a boolean flag on the wire (`?pretty=true`), but upstream types it as a string. */
export const typePrettyAsBoolean: Fixup = {
  name: 'typePrettyAsBoolean',
  kind: 'upstream-bug',
  appliesTo: () => true,
  apply: (document) =>
    mapDeep(document, (object) => {
      const schema = object['schema'];
      if (
        object['name'] !== 'pretty' ||
        object['in'] !== 'query' ||
        !isJsonObject(schema) ||
        schema['type'] === 'boolean'
      )
        return object;
      return { ...object, schema: { ...schema, type: 'boolean' } };
    }),
};

/**
 * Upstream deprecates the /watch/ operations in prose ("deprecated: use the 'watch' parameter with a list
 * operation instead…") instead of with OpenAPI's `deprecated: true`.
 */
export const markProseDeprecations: Fixup = {
  name: 'markProseDeprecations',
  kind: 'upstream-bug',
  appliesTo: () => true,
  apply: (document) =>
    mapDeep(document, (object) => {
      const description = object['description'];
      if (typeof object['operationId'] !== 'string' || typeof description !== 'string' || object['deprecated'] === true)
        return object;
      return /(^|[.;]\s+)deprecated:/i.test(description) ? { ...object, deprecated: true } : object;
    }),
};

/**
 * The spec says a deletecollection answers 200 with a Status, but the API server's generic store answers
 * with the list of the objects it deleted (a LeaseList), as a GET of the same collection would list them
 * (kubernetes/kubernetes staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go, DeleteCollection).
 */
export const deleteCollectionReturnsList: Fixup = {
  name: 'deleteCollectionReturnsList',
  kind: 'upstream-bug',
  appliesTo: () => true,
  apply: (document): FixupOutcome => {
    const paths = document['paths'];
    if (!isJsonObject(paths)) return { document, fixed: 0 };
    let count = 0;
    const fixedPaths: JsonObject = {};
    for (const [path, item] of Object.entries(paths)) {
      const fixed = listedDeletion(item);
      if (fixed !== undefined) count++;
      setOwn(fixedPaths, path, fixed ?? item);
    }
    return { document: { ...document, paths: fixedPaths }, fixed: count };
  },
};

/** The path item with its deletecollection 200 answering the list's schema, or undefined when there is nothing to change. */
function listedDeletion(item: unknown): JsonObject | undefined {
  if (!isJsonObject(item) || !isJsonObject(item['get']) || !isJsonObject(item['delete'])) return undefined;
  if (item['get']['x-kubernetes-action'] !== 'list' || item['delete']['x-kubernetes-action'] !== 'deletecollection')
    return undefined;
  const listed = okResponse(item['get']);
  const deleted = okResponse(item['delete']);
  if (
    listed === undefined ||
    deleted === undefined ||
    !isJsonObject(listed['content']) ||
    !isJsonObject(deleted['content'])
  )
    return undefined;
  const listSchema = Object.values(listed['content']).find(isJsonObject)?.['schema'];
  if (listSchema === undefined) return undefined;
  const deletedSchemas = Object.values(deleted['content']).map((media) =>
    isJsonObject(media) ? JSON.stringify(media['schema']) : undefined,
  );
  if (deletedSchemas.every((schema) => schema === JSON.stringify(listSchema))) return undefined;
  const content: JsonObject = {};
  for (const mediaType of Object.keys(deleted['content'])) setOwn(content, mediaType, { schema: listSchema });
  const responses = { ...(item['delete']['responses'] as JsonObject), '200': { ...deleted, content } };
  return { ...item, delete: { ...item['delete'], responses } };
}

function okResponse(operation: JsonObject): JsonObject | undefined {
  const responses = operation['responses'];
  const ok = isJsonObject(responses) ? responses['200'] : undefined;
  return isJsonObject(ok) ? ok : undefined;
}

export const UPSTREAM_BUGS: readonly Fixup[] = [
  dropUniqueItemsOnScalars,
  declareProseEnums,
  typePrettyAsBoolean,
  markProseDeprecations,
  deleteCollectionReturnsList,
];
