import { extractGroupSubset } from './extract-group-subset.js';
import type { UpstreamDocument } from './read-document.js';
import { isJsonObject, type JsonObject } from '../shared/json.js';

/** Top-level members that hold API content; only what the group reaches is kept from them. */
const API_CONTAINERS = new Set(['paths', 'definitions', 'parameters', 'responses', 'components']);

/**
 * An upstream document cut down to one API group (every version), still in upstream's own
 * format and key order: the paths and everything they reach (as ingest's
 * extractGroupSubset finds them), plus the members that are not API content
 * (info, security, securityDefinitions, …) as upstream has them. Ingesting it
 * gives the same normalised document as ingesting the whole upstream document,
 * which lets tests run without the 3–4 MB originals.
 */
export function upstreamFixture(upstream: UpstreamDocument, group: string): JsonObject {
  const subset = extractGroupSubset(upstream, group);
  const { document } = upstream;
  const kept: Array<[string, unknown]> = [];
  for (const [key, value] of Object.entries(document)) {
    if (!API_CONTAINERS.has(key)) kept.push([key, value]);
    else if (Object.hasOwn(subset, key)) kept.push([key, inOrderOf(value, subset[key])]);
  }
  const fixture: JsonObject = Object.fromEntries(kept);
  // An OpenAPI 3 document names its security schemes from `security`, never through $ref, so the walk misses them.
  const components = document['components'];
  const fixtureComponents = fixture['components'];
  if (isJsonObject(components) && components['securitySchemes'] !== undefined && isJsonObject(fixtureComponents)) {
    fixture['components'] = inOrderOf(components, {
      ...fixtureComponents,
      securitySchemes: components['securitySchemes'],
    });
  }
  return fixture;
}

/**
 * `value`'s members in the order `reference` has them (the subset is built sorted; upstream's order is the one to keep).
 * Object.fromEntries defines own properties, so a `__proto__` key stays a key.
 */
function inOrderOf(reference: unknown, value: unknown): unknown {
  if (!isJsonObject(reference) || !isJsonObject(value)) return value;
  const known = Object.keys(reference).filter((key) => Object.hasOwn(value, key));
  const extra = Object.keys(value).filter((key) => !Object.hasOwn(reference, key));
  return Object.fromEntries([
    ...known.map((key) => [key, inOrderOf(reference[key], value[key])] as const),
    ...extra.map((key) => [key, value[key]] as const),
  ]);
}
