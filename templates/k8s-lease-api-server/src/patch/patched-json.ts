// The patched object as evanphx/json-patch v4 marshals it, which kube-apiserver quotes in full in the Invalid
// `patch` cause of a JSON or merge patch whose result does not decode strictly (patch.go
// applyPatchToCurrentObject: string(patchedObjJS)). evanphx keeps the JSON of every node it never opened
// as it was (lazyNode) and re-marshals the nodes it opened as Go maps, whose keys encoding/json sorts.
// Hand-written because that key order is what clients read.
import type { JsonValue } from '../json.js';
import { isJsonObject, ownValue } from '../json.js';

function sortedDeep(value: JsonValue): string {
  if (Array.isArray(value)) return `[${value.map(sortedDeep).join(',')}]`;
  if (!isJsonObject(value)) return JSON.stringify(value);
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${sortedDeep(value[k] ?? null)}`).join(',')}}`;
}

/**
 * A merge patch result: MergePatch opens the document at every level the patch recurses into, and every
 * object value coming from the patch (pruneNulls turns it, and the objects in its arrays, into maps).
 */
export function mergePatchedJson(result: JsonValue, patch: JsonValue): string {
  if (Array.isArray(patch)) return sortedDeep(result);
  if (!isJsonObject(patch) || !isJsonObject(result)) return JSON.stringify(result);
  const keys = Object.keys(result).sort();
  const render = (key: string): string => {
    const value = result[key] ?? null;
    const patched = ownValue(patch, key);
    return patched === undefined ? JSON.stringify(value) : mergePatchedJson(value, patched);
  };
  return `{${keys.map((k) => `${JSON.stringify(k)}:${render(k)}`).join(',')}}`;
}

/** The pointers of the containers findObject opens for one operation path (all its proper prefixes). */
function openedBy(path: string, into: Set<string>): void {
  const tokens = path.split('/');
  for (let i = 1; i < tokens.length; i++) into.add(tokens.slice(0, i).join('/'));
}

/** A JSON patch result: the root, and every container on the way to an operation's path or from. */
export function jsonPatchedJson(result: JsonValue, ops: readonly JsonValue[]): string {
  const opened = new Set<string>(['']);
  for (const op of ops) {
    if (!isJsonObject(op)) continue;
    for (const name of ['path', 'from']) {
      const path = ownValue(op, name);
      if (typeof path === 'string') openedBy(path, opened);
    }
  }
  const render = (value: JsonValue, pointer: string): string => {
    if (!opened.has(pointer) || value === null || typeof value !== 'object') return JSON.stringify(value);
    if (Array.isArray(value)) return `[${value.map((item, i) => render(item, `${pointer}/${i}`)).join(',')}]`;
    const keys = Object.keys(value).sort();
    const escapeToken = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');
    return `{${keys.map((k) => `${JSON.stringify(k)}:${render(value[k] ?? null, `${pointer}/${escapeToken(k)}`)}`).join(',')}}`;
  };
  return render(result, '');
}
