// Stored objects are immutable, so each is serialised at most once however many GETs and watchers read it.
import type { JsonObject } from './json.js';
import type { ResourceInfo } from './lease-meta.js';
import { LEASE_RESOURCE } from './lease-meta.js';

const bareCache = new WeakMap<JsonObject, string>();
/** Per type meta: one stored LeaseCandidate is served in two group versions. */
const typedCaches = new Map<string, WeakMap<JsonObject, string>>();

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
export function typedJson(obj: JsonObject, resource: ResourceInfo = LEASE_RESOURCE): string {
  const prefix = resource.typeMetaPrefix;
  let cache = typedCaches.get(prefix);
  if (cache === undefined) {
    cache = new WeakMap();
    typedCaches.set(prefix, cache);
  }
  let json = cache.get(obj);
  if (json === undefined) {
    const bare = bareJson(obj);
    json = bare.length > 2 ? prefix + bare.slice(1) : `${prefix.slice(0, -1)}}`;
    cache.set(obj, json);
  }
  return json;
}
