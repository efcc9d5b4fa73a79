// Reference states for the ordered store's tests: a plain Map the store is checked against, in key order.
import type { JsonObject } from '../../../templates/k8s-lease-api-server/src/json.js';

/** The live objects by key, as a plain Map the store must agree with. */
export type State = Map<string, JsonObject>;

/** The entries of `state` in the store's key order (byte order of the keys). */
export function sorted(state: State): [string, JsonObject][] {
  return [...state].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** A small object for `key`, whose label tells which write made it. */
export function obj(key: string, version: number): JsonObject {
  return { metadata: { name: key, labels: { v: String(version) } } };
}
