// Copied by lease-api-generator from templates/server/patch/apply-merge.ts. DO NOT EDIT: edit that file and run `npm run generate`.
// Merging a server-side-apply configuration into the live object, and releasing fields an applier
// stopped sending. Lists follow the Lease schema: ownerReferences by uid (atomic items), finalizers as a set.
import type { JsonObject, JsonValue } from '../json.js';
import { deepEqual, isJsonObject, ownValue, parseJson, setOwn } from '../json.js';
import type { FieldPath } from '../managed/field-set.js';
import { pathElements } from '../managed/field-set.js';
import { FINALIZERS_PATH, OWNER_MERGE_KEY, OWNER_REFERENCES_PATH, childPath } from './list-strategies.js';

function mergeList(live: JsonValue | undefined, config: JsonValue[], path: string): JsonValue[] {
  const out: JsonValue[] = Array.isArray(live) ? [...live] : [];
  if (path === OWNER_REFERENCES_PATH) {
    for (const item of config) {
      const key = isJsonObject(item) ? item[OWNER_MERGE_KEY] : undefined;
      const index = out.findIndex((o) => isJsonObject(o) && o[OWNER_MERGE_KEY] === key);
      if (index >= 0) out[index] = item;
      else out.push(item);
    }
    return out;
  }
  for (const item of config) if (!out.some((o) => deepEqual(o, item))) out.push(item);
  return out;
}

function mergeInto(live: JsonObject, config: JsonObject, path: string): JsonObject {
  const out: JsonObject = { ...live };
  for (const [key, value] of Object.entries(config)) {
    const child = childPath(path, key);
    const current = ownValue(out, key);
    if (value === null) delete out[key];
    else if (Array.isArray(value) && (child === OWNER_REFERENCES_PATH || child === FINALIZERS_PATH))
      setOwn(out, key, mergeList(current, value, child));
    else if (isJsonObject(value) && current !== undefined && isJsonObject(current))
      setOwn(out, key, mergeInto(current, value, child));
    else setOwn(out, key, value);
  }
  return out;
}

export function mergeApplyConfig(live: JsonObject, config: JsonObject): JsonObject {
  return mergeInto(live, config, '');
}

function removeElement(container: JsonValue, element: string): boolean {
  if (element.startsWith('f:') && isJsonObject(container)) {
    const key = element.slice(2);
    if (!Object.hasOwn(container, key)) return false;
    delete container[key];
    return true;
  }
  if (Array.isArray(container) && (element.startsWith('k:') || element.startsWith('v:'))) {
    const wanted = parseJson(element.slice(2));
    const uid = isJsonObject(wanted) ? wanted[OWNER_MERGE_KEY] : undefined;
    const index = element.startsWith('v:')
      ? container.findIndex((item) => deepEqual(item, wanted))
      : container.findIndex((item) => isJsonObject(item) && item[OWNER_MERGE_KEY] === uid);
    if (index < 0) return false;
    container.splice(index, 1);
    return true;
  }
  return false;
}

function childOf(container: JsonValue | undefined, element: string): JsonValue | undefined {
  if (container === undefined || !element.startsWith('f:') || !isJsonObject(container)) return undefined;
  return ownValue(container, element.slice(2));
}

/** Removes the given field paths from a (freshly copied) object in place. */
export function removeFieldPaths(obj: JsonObject, paths: FieldPath[]): void {
  for (const path of paths) {
    const elements = pathElements(path);
    const last = elements[elements.length - 1];
    if (last === undefined) continue;
    let node: JsonValue | undefined = obj;
    for (const element of elements.slice(0, -1)) node = childOf(node, element);
    if (node !== undefined) removeElement(node, last);
  }
}

/** Deep-copies the containers along every path so removeFieldPaths can mutate safely. */
export function copyForRemoval(obj: JsonObject): JsonObject {
  return structuredClone(obj);
}
