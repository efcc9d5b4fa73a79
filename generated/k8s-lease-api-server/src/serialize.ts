// Copied by lease-api-generator from templates/server/serialize.ts. DO NOT EDIT: edit that file and run `npm run generate`.
// Stored objects are immutable, so each is serialised at most once however many GETs and watchers read it.
import type { JsonObject } from './json.js';
import { withTypeMeta } from './lease-meta.js';

const bareCache = new WeakMap<JsonObject, string>();
const typedCache = new WeakMap<JsonObject, string>();

/** JSON without kind/apiVersion, as list items are rendered. */
export function bareJson(obj: JsonObject): string {
  let json = bareCache.get(obj);
  if (json === undefined) {
    json = JSON.stringify(obj);
    bareCache.set(obj, json);
  }
  return json;
}

/** JSON with kind/apiVersion first, as single objects and watch events are rendered. */
export function typedJson(obj: JsonObject): string {
  let json = typedCache.get(obj);
  if (json === undefined) {
    json = withTypeMeta(bareJson(obj));
    typedCache.set(obj, json);
  }
  return json;
}
