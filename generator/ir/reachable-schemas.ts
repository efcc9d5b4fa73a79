import { isJsonObject, type JsonObject } from '../shared/json.js';
import { schemaNameOfRef } from './type-refs.js';

/**
 * Names of the `#/components/schemas` entries one group version's path items (those the target covers) reach
 * through `$ref`, transitively.
 * Examples and extensions are data, not schema (as in load/extract-group-subset.ts); a `$ref` that points
 * elsewhere is left for typeRefOf to report with its place.
 */
export function reachableSchemas(
  document: JsonObject,
  items: ReadonlyArray<{ readonly item: JsonObject }>,
): Set<string> {
  const schemas =
    isJsonObject(document['components']) && isJsonObject(document['components']['schemas'])
      ? document['components']['schemas']
      : {};
  const reached = new Set<string>();
  const pending: unknown[] = items.map(({ item }) => item);
  while (pending.length > 0) {
    const node = pending.pop();
    if (Array.isArray(node)) {
      pending.push(...(node as unknown[]));
      continue;
    }
    if (!isJsonObject(node)) continue;
    for (const [key, child] of Object.entries(node)) {
      if (key === '$ref' && typeof child === 'string') {
        const name = schemaNameOfRef(child);
        if (name !== undefined && !reached.has(name) && Object.hasOwn(schemas, name)) {
          reached.add(name);
          pending.push(schemas[name]);
        }
      } else if (key !== 'example' && key !== 'examples' && !key.startsWith('x-')) pending.push(child);
    }
  }
  return reached;
}
